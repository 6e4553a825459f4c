// The 200-route table every server of the HTTP benchmark serves: static, [param], catch-all and
// a mix of methods on one path. Each handler answers a small JSON object.

export interface BenchRoute {
  /** Upper-case method. */
  method: string;
  /** Strata file path under api/ (e.g. `users7/[id].get.ts`). */
  file: string;
  /** The pattern in Hono's syntax (`/users7/:id`). */
  hono: string;
}

export function benchRoutes(): BenchRoute[] {
  const routes: BenchRoute[] = [];
  for (let i = 0; i < 100; i++) {
    routes.push({
      method: "GET",
      file: `static/route${i}.get.ts`,
      hono: `/static/route${i}`,
    });
  }
  for (let i = 0; i < 30; i++) {
    routes.push({
      method: "GET",
      file: `users${i}/[id].get.ts`,
      hono: `/users${i}/:id`,
    });
    routes.push({
      method: "GET",
      file: `org${i}/[org]/repos/[repo].get.ts`,
      hono: `/org${i}/:org/repos/:repo`,
    });
  }
  for (let i = 0; i < 20; i++) {
    routes.push({
      method: "GET",
      file: `files${i}/[...path].get.ts`,
      hono: `/files${i}/*`,
    });
  }
  const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  for (let i = 0; i < 4; i++) {
    for (const method of methods) {
      routes.push({
        method,
        file: `things${i}/[id].${method.toLowerCase()}.ts`,
        hono: `/things${i}/:id`,
      });
    }
  }
  return routes;
}

/** The request paths measured: a static route, a param route, and a miss. */
export const BENCH_PATHS = {
  static: "/static/route57",
  param: "/org17/acme/repos/strata",
  notFound: "/nothing/here/at/all",
} as const;
