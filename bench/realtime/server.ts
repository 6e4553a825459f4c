// The realtime benchmark's server: `deno run -A server.ts <port> <sqlite path | postgres url>
// [schema]`. Prints "ready" once it listens.
import { createApp } from "../../mod.ts";
import { databaseFromArgs } from "../_db.ts";
import { exitOnTerm } from "../_load.ts";

const [portText, ...databaseArgs] = Deno.args;
const database = databaseFromArgs(databaseArgs);
const app = await createApp({
  root: new URL("./app/", import.meta.url).pathname,
  database: database.url,
  databaseSchema: database.schema,
});
exitOnTerm();
Deno.serve({
  port: Number(portText),
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, app.fetch);
