// One server of the auth benchmark: `deno run -A server.ts <port> <database>`.
// Prints "ready" once it listens.
import { bootBenchApp } from "./_app.ts";

const [portText, database] = Deno.args;
const app = await bootBenchApp(database);
Deno.serve(
  {
    port: Number(portText),
    hostname: "127.0.0.1",
    onListen: () => console.log("ready"),
  },
  app.fetch,
);
