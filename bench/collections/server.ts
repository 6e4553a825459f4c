// One server of the collections benchmark:
// `deno run -A server.ts <strata|strata-untimed|peer> <port> <sqlite path | postgres url> [schema]`.
// Prints "ready" once it listens. The peer is in _peer.ts.
import { createApp } from "../../mod.ts";
import { databaseFromArgs } from "../_db.ts";
import { APP_ROOT } from "./_seed.ts";
import { postgresPeer, sqlitePeer } from "./_peer.ts";
import { exitOnTerm } from "../_load.ts";
import appConfig from "./app/strata.config.ts";

const [kind, portText, ...databaseArgs] = Deno.args;
const database = databaseFromArgs(databaseArgs);

async function handler(): Promise<
  (request: Request) => Response | Promise<Response>
> {
  if (kind === "strata" || kind === "strata-untimed") {
    const app = await createApp({
      root: APP_ROOT,
      database: database.url,
      databaseSchema: database.schema,
      // `strata-untimed`: no statement deadline, to show what the deadline costs.
      config: kind === "strata-untimed"
        ? { ...appConfig, query: { ...appConfig.query, timeout: false } }
        : undefined,
    });
    return app.fetch;
  }
  return database.kind === "postgres"
    ? postgresPeer(database.url, database.schema!)
    : sqlitePeer(database.url);
}

exitOnTerm();
Deno.serve({
  port: Number(portText),
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, await handler());
