/**
 * Route matching: Strata's segment trie against a linear scan of URLPattern
 * objects and against Hono's router (the `SmartRouter` of `RegExpRouter` +
 * `TrieRouter` that `new Hono()` uses, which settles on `RegExpRouter` for
 * this table), on one table of 200 routes.
 *
 * Run: `deno bench -A bench/router_match_bench.ts` (`bench/run.ts` runs it too and
 * prints Strata against Hono's default router).
 *
 * Hono's `match` returns its param stash without building a params object
 * (Hono builds it later, in `c.req.param()`); Strata's `match` returns the
 * decoded params object. The comparison therefore favours Hono slightly.
 *
 * @module
 */

import { RegExpRouter } from "npm:hono@^4.7.0/router/reg-exp-router";
import { SmartRouter } from "npm:hono@^4.7.0/router/smart-router";
import { TrieRouter } from "npm:hono@^4.7.0/router/trie-router";
import { RouteTrie } from "../router/trie.ts";

interface Route {
  method: string;
  /** Strata pattern, e.g. `/users3/[id]`. */
  strata: string;
  /** Hono / URLPattern pattern, e.g. `/users3/:id`. */
  hono: string;
  id: string;
}

function buildRoutes(): Route[] {
  const routes: Route[] = [];
  const add = (method: string, strata: string, hono: string) =>
    routes.push({ method, strata, hono, id: `${method} ${strata}` });
  for (let i = 0; i < 100; i++) {
    add("GET", `/static/route${i}`, `/static/route${i}`);
  }
  for (let i = 0; i < 30; i++) add("GET", `/users${i}/[id]`, `/users${i}/:id`);
  for (let i = 0; i < 30; i++) {
    add(
      "GET",
      `/org${i}/[org]/repos/[repo]`,
      `/org${i}/:org/repos/:repo`,
    );
  }
  for (let i = 0; i < 20; i++) {
    add("GET", `/files${i}/[...path]`, `/files${i}/:path{.+}`);
  }
  // Several methods on one path.
  for (let i = 0; i < 4; i++) {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      add(method, `/items${i}/[id]`, `/items${i}/:id`);
    }
  }
  return routes;
}

const routes = buildRoutes();
if (routes.length !== 200) throw new Error(`Expected 200 routes`);

const trie = new RouteTrie<string>();
for (const route of routes) trie.add(route.method, route.strata, route.id);
trie.freeze();

const patterns = routes.map((route) => ({
  method: route.method,
  pattern: new URLPattern({
    pathname: route.hono.replace(/\{\.\+\}$/, "+"),
  }),
  id: route.id,
}));

function urlPatternMatch(method: string, pathname: string) {
  for (const candidate of patterns) {
    if (candidate.method !== method) continue;
    const found = candidate.pattern.exec({ pathname });
    if (found !== null) {
      return { value: candidate.id, params: found.pathname.groups };
    }
  }
  return null;
}

const hono = new SmartRouter<string>({
  routers: [new RegExpRouter(), new TrieRouter()],
});
for (const route of routes) hono.add(route.method, route.hono, route.id);
// The first match settles which router SmartRouter keeps.
hono.match("GET", "/static/route0");

const regExpRouter = new RegExpRouter<string>();
for (const route of routes) {
  regExpRouter.add(route.method, route.hono, route.id);
}
const trieRouter = new TrieRouter<string>();
for (const route of routes) trieRouter.add(route.method, route.hono, route.id);

const STATIC = "/static/route57";
const PARAM = "/users17/42";
const PARAMS_2 = "/org23/denoland/repos/deno";
const MISS = "/nothing/here";

// The routers must agree before their speed means anything.
function check(): void {
  const expect = (
    path: string,
    id: string | null,
    params: Record<string, string> = {},
  ) => {
    const strata = trie.match("GET", path);
    const got = strata !== null && "value" in strata ? strata : null;
    if ((got?.value ?? null) !== id) {
      throw new Error(`Strata matched ${got?.value} for ${path}`);
    }
    if (got && JSON.stringify(got.params) !== JSON.stringify(params)) {
      throw new Error(`Strata params ${JSON.stringify(got.params)}`);
    }
    if ((urlPatternMatch("GET", path)?.value ?? null) !== id) {
      throw new Error(`URLPattern disagrees on ${path}`);
    }
    for (const router of [hono, regExpRouter, trieRouter]) {
      const [handlers] = router.match("GET", path);
      if ((handlers[0]?.[0] ?? null) !== id) {
        throw new Error(`${router.name} disagrees on ${path}`);
      }
    }
  };
  expect(STATIC, "GET /static/route57");
  expect(PARAM, "GET /users17/[id]", { id: "42" });
  expect(PARAMS_2, "GET /org23/[org]/repos/[repo]", {
    org: "denoland",
    repo: "deno",
  });
  expect(MISS, null);
  if (hono.name !== "SmartRouter + RegExpRouter") {
    throw new Error(`Hono settled on ${hono.name}`);
  }
}
check();

// Results land here so the engine cannot drop the calls.
let sink: unknown;

const cases: Array<[string, string]> = [
  ["static", STATIC],
  ["param", PARAM],
  ["two params", PARAMS_2],
  ["miss", MISS],
];

/**
 * A server matches a path it has just cut out of `request.url`: a fresh string whose hash
 * no engine has cached yet. Each iteration slices its path out of the next of many
 * distinct URL strings (differing in the query, so the path is the same).
 */
function freshPaths(path: string): () => string {
  const urls = Array.from(
    { length: 1024 },
    (_, i) => `http://127.0.0.1:8000${path}?n=${i}`,
  );
  const start = "http://127.0.0.1:8000".length;
  const end = start + path.length;
  let i = 0;
  return () => urls[i++ & 1023].slice(start, end);
}

for (const [group, path] of cases) {
  const next = freshPaths(path);
  Deno.bench(`${group}: Strata RouteTrie`, { group, baseline: true }, () => {
    sink = trie.match("GET", next());
  });
  Deno.bench(`${group}: Hono default (SmartRouter)`, { group }, () => {
    sink = hono.match("GET", next());
  });
  Deno.bench(`${group}: Hono RegExpRouter`, { group }, () => {
    sink = regExpRouter.match("GET", next());
  });
  Deno.bench(`${group}: Hono TrieRouter`, { group }, () => {
    sink = trieRouter.match("GET", next());
  });
  Deno.bench(`${group}: URLPattern linear scan`, { group }, () => {
    sink = urlPatternMatch("GET", next());
  });
}

globalThis.addEventListener("unload", () => {
  if (sink === Symbol.for("never")) console.log(sink);
});
