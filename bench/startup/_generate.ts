// Writes synthetic apps into a folder:
// - generateApp: 200 route files (static, [param] and catch-all segments, method suffixes),
//   10 collections with relations and a translatable field, the auth layer, a role, a
//   middleware and a message catalog;
// - generateRouteApps: N route files for Strata and the same routes for a hand-written Hono
//   peer;
// - generateCollectionsApp: N collections and nothing else (the peer's DDL is _ddl_peer.ts);
// - generateTableModules: the modular peer's schema, the same tables' DDL by hand in a module
//   per table.
import { tableStatements } from "./_ddl.ts";

const REPO = new URL("../../", import.meta.url);
const STRATA = new URL("mod.ts", REPO).href;
const STRATA_AUTH = new URL("auth/mod.ts", REPO).href;

/** What the generated app holds. */
export interface GeneratedApp {
  /** The app folder. */
  root: string;
  /** Route files written. */
  routes: number;
  /** Collections written (the auth layer adds Users and Sessions). */
  collections: number;
}

const METHODS = ["get", "post", "patch", "delete"];

function routeFile(i: number): string {
  const group = `g${i % 20}`;
  const method = METHODS[i % METHODS.length];
  switch (i % 5) {
    case 0:
      return `${group}/r${i}.${method}.ts`;
    case 1:
      return `${group}/r${i}/[id].${method}.ts`;
    case 2:
      return `${group}/r${i}/[id]/items/[item].${method}.ts`;
    case 3:
      return `${group}/r${i}/files/[...path].get.ts`;
    default:
      return `${group}/r${i}/index.ts`;
  }
}

function collection(i: number): string {
  const relation = i === 0
    ? ""
    : `    parent: field("record", { collection: "C${
      i - 1
    }", nullable: true, onDelete: "setNull" }),
    links: field("records", { collection: "C${i - 1}", default: [] }),\n`;
  return `import { defineCollection, field } from "${STRATA}";
export default defineCollection({
  fields: {
    title: field("text", { max: 200, translatable: true }),
    views: field("integer", { default: 0, min: 0, index: true }),
    score: field("number", { nullable: true }),
    done: field("boolean", { default: false }),
    day: field("date", { nullable: true }),
    kind: field("select", { choices: ["a", "b", "c"], default: "a" }),
${relation}  },
  api: { read: "public", create: true, update: true, delete: true },
});
`;
}

/**
 * Writes the app into `root` (created if missing).
 *
 * @example
 * ```ts ignore
 * const app = await generateApp(await Deno.makeTempDir());
 * ```
 */
export async function generateApp(
  root: string,
  routeCount = 200,
  collectionCount = 10,
): Promise<GeneratedApp> {
  const files: Record<string, string> = {
    "strata.config.ts": `import { defineConfig } from "${STRATA}";
import { authLayer } from "${STRATA_AUTH}";
export default defineConfig({
  layers: [authLayer()],
  collections: { locales: ["en", "de"] },
});
`,
    "roles/editor.ts": `import { defineRole } from "${STRATA}";
export default defineRole({ capabilities: ["collection.*"] });
`,
    "middleware/tag.ts": `import { defineMiddleware } from "${STRATA}";
export default defineMiddleware((event) => { event.headers.set("x-tag", "1"); });
`,
    "messages/en.json": JSON.stringify({ app: { hello: "Hello {name}" } }),
  };
  for (let i = 0; i < routeCount; i++) {
    files[`api/${routeFile(i)}`] = `import { defineHandler } from "${STRATA}";
export default defineHandler((event) => ({ route: ${i}, params: event.params }), {
  middleware: ${i % 10 === 0 ? '["tag"]' : "[]"},
});
`;
  }
  for (let i = 0; i < collectionCount; i++) {
    files[`collections/C${i}.ts`] = collection(i);
  }
  for (const [file, content] of Object.entries(files)) {
    const path = `${root}/${file}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
  return { root, routes: routeCount, collections: collectionCount };
}

/** The route files of {@link generateRouteApps}: path, Hono pattern and method per file. */
interface RouteShape {
  file: string;
  hono: string;
  method: string;
}

function routeShape(i: number): RouteShape {
  const file = routeFile(i);
  const base = `/g${i % 20}/r${i}`;
  const method = file.endsWith("index.ts")
    ? "all"
    : file.slice(0, -3).split(".").pop()!;
  switch (i % 5) {
    case 0:
    case 4:
      return { file, hono: base, method };
    case 1:
      return { file, hono: `${base}/:id`, method };
    case 2:
      return { file, hono: `${base}/:id/items/:item`, method };
    default:
      return { file, hono: `${base}/files/:path{.+}`, method };
  }
}

/** The folders {@link generateRouteApps} writes. */
export interface RouteApps {
  /** The Strata app folder: `api/` with the route files, nothing else. */
  strata: string;
  /** The Hono peer: `main.ts` importing and registering its route files statically. */
  hono: string;
  /** A path both answer with 200 (a catch-all route near the end of the table). */
  firstRequest: string;
}

/**
 * Writes two apps of `count` route files each: Strata's (`strata/api/…`, one
 * `defineHandler` per file) and a hand-written Hono peer (`hono/routes/…`, one handler per
 * file made with `createFactory().createHandlers(…)` from `hono/factory`, a `routes.ts`
 * importing every file and registering it with `app.get(…)` & co., a
 * `main.ts` that imports Hono, then `routes.ts`, registers and serves one request). It
 * prints as JSON `firstMs` (ms since the process started) and `appMs` (from the moment Hono
 * was imported).
 *
 * @example
 * ```ts ignore
 * const apps = await generateRouteApps(await Deno.makeTempDir(), 1000);
 * ```
 */
export async function generateRouteApps(
  root: string,
  count: number,
): Promise<RouteApps> {
  const last = count - 1 - ((count - 1 - 3) % 5 + 5) % 5;
  const firstRequest = `/g${last % 20}/r${last}/files/a/b.txt`;
  const files: Record<string, string> = {};
  const imports: string[] = [];
  const registrations: string[] = [];
  const factoryUrl = new URL(`file://${root}/hono/factory.ts`).href;
  files["hono/factory.ts"] =
    `import { createFactory } from "npm:hono@^4.7.0/factory";
export const factory = createFactory();
`;
  for (let i = 0; i < count; i++) {
    const shape = routeShape(i);
    files[`strata/api/${shape.file}`] =
      `import { defineHandler } from "${STRATA}";
export default defineHandler((event) => ({ route: ${i}, params: event.params }));
`;
    // Like a Strata route file, a module per route that imports the app's helper for
    // defining a handler (a Hono factory, as Hono's docs do for handlers in their own files).
    files[`hono/routes/${shape.file}`] =
      `import { factory } from "${factoryUrl}";
export default factory.createHandlers((c) => c.json({ route: ${i}, params: c.req.param() }));
`;
    imports.push(`import r${i} from "./routes/${shape.file}";`);
    registrations.push(`  app.${shape.method}("${shape.hono}", ...r${i});`);
  }
  files["hono/routes.ts"] = `import type { Hono } from "npm:hono@^4.7.0";
${imports.join("\n")}

export function register(app: Hono): void {
${registrations.join("\n")}
}
`;
  // The same shape as _first_request.ts: the framework is imported first, the clock starts,
  // then the app's modules are imported and registered and one request is served.
  files["hono/main.ts"] = `import { Hono } from "npm:hono@^4.7.0";

const start = performance.now();
// Not a literal: Deno would load a literal's module graph before the program starts, out
// of the clock's sight (Strata finds its route files only at run time).
const routes = new URL("./routes.ts", import.meta.url).href;
const { register } = await import(routes);
const app = new Hono();
register(app);
const response = await app.fetch(new Request("http://localhost${firstRequest}"));
const body = await response.json();
const firstMs = performance.now();
if (response.status !== 200 || body.params.path !== "a/b.txt") {
  throw new Error(\`The first request answered \${response.status}\`);
}
console.log(JSON.stringify({ firstMs, appMs: firstMs - start }));
`;
  for (const [file, content] of Object.entries(files)) {
    const path = `${root}/${file}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, content);
  }
  return {
    strata: `${root}/strata`,
    hono: `${root}/hono`,
    firstRequest,
  };
}

/** One collection of {@link generateCollectionsApp}: C0 has no parent, C1… point to the one before. */
function boardCollection(i: number): string {
  const parent = i === 0
    ? ""
    : `    parent: field("record", { collection: "C${
      i - 1
    }", nullable: true, onDelete: "setNull" }),\n`;
  return `import { defineCollection, field } from "${STRATA}";
export default defineCollection({
  fields: {
    title: field("text", { max: 200, index: true }),
    slug: field("text", { max: 100, unique: true }),
    views: field("integer", { default: 0, min: 0, index: true }),
    score: field("number", { nullable: true }),
    done: field("boolean", { default: false }),
    day: field("date", { nullable: true }),
    kind: field("select", { choices: ["a", "b", "c"], default: "a" }),
${parent}  },
});
`;
}

/**
 * Writes an app of `count` collections and nothing else into `root`: each has an indexed
 * text, a unique text, an indexed integer, a number, a boolean, a date, a select and (but the
 * first) a link to the previous one. `bench/startup/_ddl_peer.ts` holds the same tables and
 * indexes written by hand.
 *
 * @example
 * ```ts ignore
 * await generateCollectionsApp(await Deno.makeTempDir(), 100);
 * ```
 */
export async function generateCollectionsApp(
  root: string,
  count: number,
): Promise<void> {
  await Deno.mkdir(`${root}/collections`, { recursive: true });
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(
      `${root}/collections/C${i}.ts`,
      boardCollection(i),
    );
  }
}

/**
 * Writes the modular peer of the collections boot into `root`: `tables/C<i>.ts`, a module per
 * table holding its CREATE TABLE / CREATE INDEX statements as written by hand (the same
 * tables as {@link generateCollectionsApp}, for `postgres` or SQLite), and `schema.ts`
 * importing them all. Returns the `file:` URL of `schema.ts`.
 *
 * @example
 * ```ts ignore
 * const schema = await generateTableModules(await Deno.makeTempDir(), 100, false);
 * ```
 */
export async function generateTableModules(
  root: string,
  count: number,
  postgres: boolean,
): Promise<string> {
  await Deno.mkdir(`${root}/tables`, { recursive: true });
  const imports: string[] = [];
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(
      `${root}/tables/C${i}.ts`,
      `const statements: string[] = ${
        JSON.stringify(tableStatements(i, postgres), null, 2)
      };
export default statements;
`,
    );
    imports.push(`import c${i} from "./tables/C${i}.ts";`);
  }
  await Deno.writeTextFile(
    `${root}/schema.ts`,
    `${imports.join("\n")}

const tables: string[][] = [${
      Array.from({ length: count }, (_, i) => `c${i}`).join(", ")
    }];
export default tables;
`,
  );
  return new URL(`file://${root}/schema.ts`).href;
}
