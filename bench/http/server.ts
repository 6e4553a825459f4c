// One server of the HTTP benchmark: `deno run -A server.ts <strata|hono|raw> <port>`.
// Prints "ready" once it listens.
import { Hono } from "npm:hono@^4.7.0";
import { benchRoutes } from "./routes.ts";

const [kind, portText] = Deno.args;
const port = Number(portText);
const routes = benchRoutes();
// The peers answer a miss with the same bytes as Strata's 404 (its wire error shape).
const NOT_FOUND = JSON.stringify({ statusCode: 404, message: "Not found" });
const notFound = () =>
  new Response(NOT_FOUND, {
    status: 404,
    headers: { "content-type": "application/json" },
  });

async function strataHandler(): Promise<
  (request: Request) => Promise<Response>
> {
  const { createApp } = await import("../../mod.ts");
  const root = await Deno.makeTempDir({ prefix: "strata-bench-" });
  const mod = new URL("../../mod.ts", import.meta.url).href;
  await Promise.all(routes.map(async (route) => {
    const path = `${root}/api/${route.file}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(
      path,
      `import { defineHandler } from "${mod}";\n` +
        `export default defineHandler(({ params }) => ({ ok: true, params }));\n`,
    );
  }));
  const app = await createApp({ root, database: ":memory:" });
  // The runner stops a server with SIGTERM: leave no route files behind.
  Deno.addSignalListener("SIGTERM", () => {
    Deno.removeSync(root, { recursive: true });
    Deno.exit(0);
  });
  return app.fetch;
}

function honoHandler(): (request: Request) => Response | Promise<Response> {
  const app = new Hono();
  for (const route of routes) {
    app.on(
      route.method,
      route.hono,
      (c) => c.json({ ok: true, params: c.req.param() }),
    );
  }
  app.notFound(notFound);
  return app.fetch;
}

function rawHandler(): (request: Request) => Response {
  // The floor: exact-path Map lookup for static routes, a split for the param route, the
  // same JSON bodies as the others.
  const table = new Map<string, true>();
  for (const route of routes) {
    if (!route.hono.includes(":") && !route.hono.includes("*")) {
      table.set(route.hono, true);
    }
  }
  return (request) => {
    const url = request.url;
    const path = url.slice(url.indexOf("/", 8));
    if (table.has(path)) return Response.json({ ok: true, params: {} });
    const parts = path.split("/");
    if (
      parts.length === 5 && parts[1].startsWith("org") && parts[3] === "repos"
    ) {
      return Response.json({
        ok: true,
        params: { org: parts[2], repo: parts[4] },
      });
    }
    return notFound();
  };
}

const handler = kind === "strata"
  ? await strataHandler()
  : kind === "hono"
  ? honoHandler()
  : rawHandler();
Deno.serve({
  port,
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, handler);
