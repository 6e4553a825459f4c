// One fresh process: imports Strata, then times `createApp` on an app folder of collections
// over a fresh database. Prints `{ bootMs, tables }` as JSON.
// Usage: deno run -A _boot_collections.ts <app folder> <sqlite file | postgres:// URL> [pg schema]
import { createApp } from "../../mod.ts";

const [root, database, databaseSchema] = Deno.args;
const started = performance.now();
const app = await createApp({ root, database, databaseSchema });
const bootMs = performance.now() - started;
const tables = app.data.collections.size;
await app.close();
console.log(JSON.stringify({ bootMs, tables }));
