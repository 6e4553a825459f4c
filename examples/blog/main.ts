// The example app: `deno task dev` serves it (deno serve -A --watch examples/blog/main.ts).
import { createApp } from "../../mod.ts";
import { formatRouteTable } from "../../app/route_table.ts";
import { seed } from "./seed.ts";

const app = await createApp({ root: import.meta.dirname! });
await seed(app);
console.log(
  `Strata example blog: ${app.routes.length} routes\n${
    formatRouteTable(app.routes)
  }`,
);
export default app;
