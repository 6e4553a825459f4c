// One fresh process: imports Strata, then times `createApp` on an app folder of collections
// over a fresh database. Prints `{ bootMs, cpuMs, tables }` as JSON (`cpuMs`: the process's
// CPU time meanwhile, every thread, which a busy machine inflates far less than the clock).
// Usage: deno run -A _boot_collections.ts <app folder> <sqlite file | postgres:// URL> [pg schema]
import process from "node:process";
import { createApp } from "../../mod.ts";
import { cpuMsSince } from "./_cpu.ts";

const [root, database, databaseSchema] = Deno.args;
const started = performance.now();
const cpu = process.cpuUsage();
const app = await createApp({ root, database, databaseSchema });
const bootMs = performance.now() - started;
const cpuMs = cpuMsSince(cpu);
const tables = app.data.collections.size;
await app.close();
console.log(JSON.stringify({ bootMs, cpuMs, tables }));
