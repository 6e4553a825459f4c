// Loading a folder layer: every piece lands under its own kind and file, paths become the
// same file URLs node:url would build, and a module that fails to load is named.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadFolderLayer } from "../../app/load_folder.ts";
import { childHrefs, fileHref } from "../../app/_path.ts";

const STRATA = new URL("../../mod.ts", import.meta.url).href;

async function writeApp(files: Record<string, string>): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "strata_load_folder_" });
  for (const [file, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, file, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, file), content);
  }
  return root;
}

Deno.test("fileHref builds the URL pathToFileURL builds", () => {
  const paths = [
    "/srv/app/api/posts/[id].get.ts",
    "/srv/app/api/files/[...path].get.ts",
    "/srv/my app/api/a b.ts",
    "/srv/app/api/100%.ts",
    "/srv/app/api/q?.ts",
    "/srv/app/api/#hash.ts",
    "/srv/app/api/café/ünï.ts",
    "/srv/app/api/{x}/`y`/<z>.ts",
    "/srv/app/api/a|b^c~d.ts",
    "/srv/app/api/!$&'()*+,-.:;=@_.ts",
    "/srv/app/.hidden/api/x.ts",
    "/srv/app/./api/x.ts",
    "/srv/app/../app/api/x.ts",
    "/srv/app/api/..",
    "/srv/app/api/x\\y.ts",
    "/srv/app/api/tab\there.ts",
    "/srv/app/api/it's (1);&$!.ts",
    "/",
  ];
  for (const path of paths) {
    assert.equal(fileHref(path), pathToFileURL(path).href, path);
  }
});

Deno.test("childHrefs builds the URLs pathToFileURL builds for a folder's files", () => {
  const dirs = [
    "/srv/app/api",
    "/srv/my app/api",
    "/srv/[x]/api",
    "/srv/./app",
    "/",
  ];
  const files = [
    "posts/[id].get.ts",
    "files/[...path].get.ts",
    "a b.ts",
    "100%.ts",
    "q?.ts",
    "#hash.ts",
    "café/ünï.ts",
    "!$&'()*+,-.:;=@_.ts",
    ".hidden/x.ts",
    "./x.ts",
    "../x.ts",
    "a/..",
    "..x.ts",
    "x\\y.ts",
  ];
  for (const dir of dirs) {
    const hrefs = childHrefs(dir, files);
    files.forEach((file, i) =>
      assert.equal(
        hrefs[i],
        pathToFileURL(join(dir, file)).href,
        join(dir, file),
      )
    );
  }
});

Deno.test("a folder's modules land under their own kind and file", async () => {
  const files: Record<string, string> = {
    "roles/editor.ts":
      `export default { capabilities: ["collection.read:*"] };\n`,
    "middleware/tag.ts": `import { defineMiddleware } from "${STRATA}";
export default defineMiddleware(() => {});
`,
    "middleware/global/first.ts": `import { defineMiddleware } from "${STRATA}";
export default defineMiddleware(() => {});
`,
    "collections/Posts.ts":
      `export default { fields: { title: { type: "text" } } };\n`,
  };
  for (let i = 0; i < 30; i++) {
    files[`api/g${i % 3}/r${i}/[id].get.ts`] =
      `import { defineHandler } from "${STRATA}";
export default defineHandler(() => ${i});
`;
  }
  const root = await writeApp(files);
  try {
    const layer = await loadFolderLayer(root);
    const routes = Object.entries(layer.routes ?? {});
    assert.equal(routes.length, 30);
    for (const [file, definition] of routes) {
      const i = Number(file.match(/r(\d+)/)![1]);
      assert.equal(file, `g${i % 3}/r${i}/[id].get.ts`);
      assert.equal(
        await definition.fn(undefined as never),
        i,
      );
    }
    assert.deepEqual(Object.keys(layer.collections ?? {}), ["Posts"]);
    assert.deepEqual(Object.keys(layer.middleware ?? {}), ["tag"]);
    assert.deepEqual(Object.keys(layer.globalMiddleware ?? {}), ["first"]);
    assert.deepEqual(layer.roles?.editor, {
      capabilities: ["collection.read:*"],
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * Loads an app of 20 route files whose 14th (`api/r13.get.ts`) holds `source`, and returns
 * the folder and the load's error message; fails if the load succeeds.
 */
async function loadErrorAmongMany(
  source: string,
): Promise<{ root: string; message: string }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) {
    files[`api/r${i}.get.ts`] = `export default () => ${i};\n`;
  }
  files["api/r13.get.ts"] = source;
  const root = await writeApp(files);
  try {
    await loadFolderLayer(root);
  } catch (error) {
    return { root, message: (error as Error).message };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  throw new Error("The app loaded");
}

Deno.test("a module that fails to load among many is named", async () => {
  const { root, message } = await loadErrorAmongMany(
    `throw new Error("broken at load");\n`,
  );
  assert.ok(message.includes(join(root, "api/r13.get.ts")), message);
  assert.match(message, /failed to load: broken at load/);
});

Deno.test("a module without a default export among many is named", async () => {
  const { root, message } = await loadErrorAmongMany(
    `export const handler = () => 13;\n`,
  );
  assert.equal(
    message,
    `${join(root, "api/r13.get.ts")} has no default export`,
  );
});

Deno.test("the first file in load order with a wrong export is the one named", async () => {
  // A collection file exporting something else comes before a role file exporting nothing
  // by default: the collections are converted first.
  const root = await writeApp({
    "collections/Posts.ts": `export default { title: "no fields" };\n`,
    "roles/editor.ts": `export const role = {};\n`,
  });
  try {
    await assert.rejects(
      () => loadFolderLayer(root),
      (error: Error) => {
        assert.equal(
          error.message,
          `${
            join(root, "collections/Posts.ts")
          } must default-export defineCollection({ fields: … })`,
        );
        return true;
      },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
