// The app a docs page describes: its app files (```ts samples whose first line names a path
// such as `// collections/Posts.ts`), on top of collections-and-fields.md's collections for
// pages that use collections defined elsewhere, with the auth layer's config when the page
// shows none, and the import map `strata new --strata <checkout>` writes.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strataImportMap } from "../../cli/import_map.ts";
import { appPathOf, extractSamples } from "./_samples.ts";

/** The repository root (a path ending in `/`). */
export const REPO_ROOT: string = fileURLToPath(
  new URL("../../", import.meta.url),
);

/** App files of a page: later samples of the same path replace earlier ones. */
export async function appFiles(page: string): Promise<Map<string, string>> {
  const text = await Deno.readTextFile(join(REPO_ROOT, page));
  const files = new Map<string, string>();
  for (const sample of extractSamples(text, page)) {
    const path = appPathOf(sample);
    if (path) files.set(path, sample.code);
  }
  return files;
}

/** Every file of the page's app (path → text); empty when the page shows no app file. */
export async function pageAppFiles(
  page: string,
): Promise<Map<string, string>> {
  const own = await appFiles(page);
  if (own.size === 0) return own;
  const base = page === "docs/collections-and-fields.md"
    ? new Map<string, string>()
    : new Map(
      [...await appFiles("docs/collections-and-fields.md")].filter(([path]) =>
        path.startsWith("collections/") && path !== "collections/Users.ts"
      ),
    );
  const files = new Map([...base, ...own]);
  // Most pages assume the auth layer; a page that shows no config of its own gets it.
  if (!files.has("strata.config.ts")) {
    files.set(
      "strata.config.ts",
      `import { defineConfig } from "@strata/strata";
import { authLayer } from "@strata/strata/auth";
export default defineConfig({ layers: [authLayer()] });
`,
    );
  }
  // A folder layer a config names is a folder of its own the page does not show.
  for (
    const [, folder] of files.get("strata.config.ts")!.matchAll(
      /"\.\/(layers\/[\w-]+)"/g,
    )
  ) {
    files.set(`${folder}/strata.config.ts`, "export default {};\n");
  }
  return files;
}

/** Writes `files` and a `deno.json` with the checkout's import map into `root`. */
export async function writeApp(
  root: string,
  files: Map<string, string>,
): Promise<void> {
  for (const [path, code] of files) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), code);
  }
  await Deno.writeTextFile(
    join(root, "deno.json"),
    JSON.stringify({ imports: strataImportMap(REPO_ROOT) }),
  );
}
