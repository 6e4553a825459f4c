// A second process for the realtime tests: serves the app folder `Deno.args[0]` on the
// SQLite file `Deno.args[1]` (127.0.0.1, port 0) and prints `PORT <n>`; killed when done.
import { createApp } from "../../mod.ts";

const [root, database] = Deno.args;
const app = await createApp({ root, database });
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen({ port }) {
    console.log(`PORT ${port}`);
  },
}, app.fetch);
