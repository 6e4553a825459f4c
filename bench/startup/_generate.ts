// Writes a synthetic app into a folder: 200 route files (static, [param] and catch-all
// segments, method suffixes), 10 collections with relations and a translatable field, the
// auth layer, a role, a middleware and a message catalog.

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
