// A server of the event-loop benchmark: `deno run -A server.ts <strata|control> <port>
// [sqlite path]`. Prints "ready" once it listens. `control` is a bare `Deno.serve` answering
// GET /ping the same bytes: the same client reads it at the same time, so its latencies show
// what the machine itself adds.
import { createApp } from "../../mod.ts";
import { exitOnTerm } from "../_load.ts";

const [kind, portText, database] = Deno.args;
const handler = kind === "strata"
  ? (await createApp({
    root: new URL("./app/", import.meta.url).pathname,
    database,
  })).fetch
  : () => Response.json({ ok: true });
exitOnTerm();
Deno.serve({
  port: Number(portText),
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, handler);
