// An instance in a process of its own for the webhook tests: serves the app folder
// `Deno.args[0]` on the database `Deno.args[1]` (PostgreSQL: in the schema `Deno.args[2]`)
// on 127.0.0.1, port 0, and prints `PORT <n>`; the test kills it.
import { createApp } from "../../mod.ts";

const [root, database, schema] = Deno.args;
const app = await createApp({ root, database, databaseSchema: schema });
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen({ port }) {
    console.log(`PORT ${port}`);
  },
}, app.fetch);
