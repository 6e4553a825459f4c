// The example app: `deno task dev` at the repository root serves it
// (deno serve -A --watch examples/blog/main.ts). The database lives in examples/blog/.data/
// unless DATABASE_URL names another (e.g. postgres://…).
import { createApp } from "@strata/strata";
import { formatRoutes } from "@strata/strata/cli";
import { DEMO_PASSWORD, seedBlog } from "./seed.ts";
// The registry `strata types` writes: query("Posts") and friends are typed by it.
import type {} from "./strata.gen.ts";

const root = import.meta.dirname!;
const app = await createApp({
  root,
  database: Deno.env.get("DATABASE_URL") ?? `${root}/.data/blog.db`,
});
const seeded = await seedBlog(app);

export default {
  fetch: app.fetch,
  onListen({ hostname, port }: Deno.NetAddr) {
    const url = `http://${
      hostname === "0.0.0.0" ? "localhost" : hostname
    }:${port}/`;
    console.log(formatRoutes(app.routes, root));
    console.log(
      `\nStrata example blog (${app.routes.length} routes${
        seeded ? ", freshly seeded" : ""
      }) on ${url}\nDashboard: ${url}dashboard, sign in as admin@example.com / ${DEMO_PASSWORD}`,
    );
  },
};
