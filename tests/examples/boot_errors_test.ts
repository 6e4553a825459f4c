// Every config or definition mistake fails the boot with a clear message naming the file at
// fault. Each case writes a small app into a temp folder and boots it with createApp.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../mod.ts";

const STRATA = new URL("../../mod.ts", import.meta.url).href;

/**
 * Cases whose message does not name the file yet: the fix belongs in app/load_folder.ts
 * (wrap a module's import and the collection/role checks with the file's path) and is
 * requested from the integrator. Flip to false once it lands.
 */
const AWAITS_FILE_NAMES_IN_DEFINITION_ERRORS = false;

async function bootError(
  files: Record<string, string>,
): Promise<{ root: string; message: string }> {
  const root = await Deno.makeTempDir({ prefix: "strata_boot_error_" });
  try {
    for (const [file, content] of Object.entries(files)) {
      await Deno.mkdir(join(root, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, file), content);
    }
    try {
      const app = await createApp({ root, database: ":memory:" });
      await app.close();
    } catch (error) {
      return { root, message: (error as Error).message };
    }
    throw new assert.AssertionError({ message: "The app booted" });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("a bad config key names strata.config.ts and the key", async () => {
  const { root, message } = await bootError({
    "strata.config.ts": `import { defineConfig } from "${STRATA}";
export default defineConfig({ api: { maxBodySise: "2mb" } } as never);
`,
  });
  assert.ok(message.includes(join(root, "strata.config.ts")), message);
  assert.match(message, /unknown config key "api\.maxBodySise"/);
});

Deno.test("a bad config value names strata.config.ts and the key", async () => {
  const { root, message } = await bootError({
    "strata.config.ts": `export default { api: { handlerTimeout: "soon" } };\n`,
  });
  assert.ok(message.includes(join(root, "strata.config.ts")), message);
  assert.match(message, /api\.handlerTimeout/);
});

Deno.test("a route file without a default export is named", async () => {
  const { root, message } = await bootError({
    "api/posts/[id].get.ts": `export const handler = () => "no default";\n`,
  });
  assert.ok(message.includes(join(root, "api/posts/[id].get.ts")), message);
  assert.match(message, /no default export/);
});

Deno.test("a middleware file exporting something else is named", async () => {
  const { root, message } = await bootError({
    "middleware/global/cors.ts": `export default { origin: "*" };\n`,
  });
  assert.ok(message.includes(join(root, "middleware/global/cors.ts")), message);
  assert.match(message, /must default-export defineMiddleware/);
});

Deno.test("a route naming an unknown middleware is named", async () => {
  const { root, message } = await bootError({
    "api/secret.get.ts": `import { defineHandler } from "${STRATA}";
export default defineHandler(() => "hi", { middleware: ["requireAuth"] });
`,
  });
  assert.ok(message.includes(join(root, "api/secret.get.ts")), message);
  assert.match(message, /middleware "requireAuth" is not defined/);
});

Deno.test({
  name: "a collection with an unknown field type names its file",
  ignore: AWAITS_FILE_NAMES_IN_DEFINITION_ERRORS,
  async fn() {
    const { root, message } = await bootError({
      "collections/Posts.ts":
        `import { defineCollection, field } from "${STRATA}";
export default defineCollection({ fields: { title: field("txt") } });
`,
    });
    assert.ok(message.includes(join(root, "collections/Posts.ts")), message);
    assert.match(message, /Unknown field type "txt"/);
  },
});

Deno.test("a collection with an unknown field type names the collection and field", async () => {
  // What the boot says today (see the ignored test above for the file name).
  const { message } = await bootError({
    "collections/Posts.ts":
      `import { defineCollection, field } from "${STRATA}";
export default defineCollection({ fields: { title: field("txt") } });
`,
  });
  assert.match(message, /Unknown field type "txt" for Posts\.title/);
});

Deno.test({
  name: "a bad role file names its file",
  ignore: AWAITS_FILE_NAMES_IN_DEFINITION_ERRORS,
  async fn() {
    const invalid = await bootError({
      "roles/editor.ts": `import { defineRole } from "${STRATA}";
export default defineRole({ capabilities: ["collection..Posts"] });
`,
    });
    assert.ok(
      invalid.message.includes(join(invalid.root, "roles/editor.ts")),
      invalid.message,
    );
    const raw = await bootError({
      "roles/editor.ts":
        `export default { capabilities: "collection.Posts.*" };\n`,
    });
    assert.ok(
      raw.message.includes(join(raw.root, "roles/editor.ts")),
      raw.message,
    );
  },
});

Deno.test("a bad role capability is refused with the capability named", async () => {
  // What the boot says today (see the ignored test above for the file name).
  const { message } = await bootError({
    "roles/editor.ts": `import { defineRole } from "${STRATA}";
export default defineRole({ capabilities: ["collection..Posts"] });
`,
  });
  assert.match(message, /"collection\.\.Posts" must not have empty segments/);
});
