// One server of the auth benchmark:
// `deno run -A server.ts <strata|peer> <port> <sqlite path | postgres url> [schema]`.
// Prints "ready" once it listens. The database is seeded before (see run.ts).
import { databaseFromArgs } from "../_db.ts";
import { bootBenchApp } from "./_app.ts";
import { postgresMePeer, sqliteMePeer } from "./_peer.ts";
import { exitOnTerm } from "../_load.ts";

const [kind, portText, ...databaseArgs] = Deno.args;
const database = databaseFromArgs(databaseArgs);

async function handler(): Promise<
  (request: Request) => Response | Promise<Response>
> {
  if (kind === "strata") return (await bootBenchApp(database)).fetch;
  return database.kind === "postgres"
    ? postgresMePeer(database.url, database.schema!)
    : sqliteMePeer(database.url);
}

exitOnTerm();
Deno.serve({
  port: Number(portText),
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, await handler());
