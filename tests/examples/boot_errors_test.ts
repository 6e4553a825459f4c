// Every config or definition mistake fails the boot with a clear message naming the file at
// fault. Each case writes a small app into a temp folder and boots it with createApp.
import assert from "node:assert/strict";
import { join } from "node:path";
import { sql } from "kysely";
import { kyselyOf } from "../../collections/database.ts";
import { createApp } from "../../mod.ts";
import { PG_URL } from "../_helpers/db_apps.ts";

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

Deno.test("a folder layer that does not exist names the config and the path", async () => {
  const { root, message } = await bootError({
    "strata.config.ts":
      `export default { layers: ["./layers/does-not-exist"] };\n`,
  });
  assert.ok(message.includes(join(root, "strata.config.ts")), message);
  assert.match(message, /layer "\.\/layers\/does-not-exist" not found/);
  assert.ok(!message.includes("\n"), message);
});

Deno.test("a field default its own field refuses fails the boot (Collection.field)", async () => {
  for (
    const [fields, pattern] of [
      [
        `{ status: field("select", { choices: ["draft", "live"], default: "gone" }) }`,
        /Posts\.status: the default "gone" is refused/,
      ],
      [
        `{ views: field("integer", { default: "zero" as never }) }`,
        /Posts\.views: the default "zero" is refused/,
      ],
      [
        `{ title: field("text", { default: "" }) }`,
        /Posts\.title: the default "" is refused/,
      ],
    ] as const
  ) {
    const { root, message } = await bootError({
      "collections/Posts.ts":
        `import { defineCollection, field } from "${STRATA}";
export default defineCollection({ fields: ${fields} });
`,
    });
    assert.match(message, pattern);
    assert.ok(message.includes(join(root, "collections/Posts.ts")), message);
  }
});

Deno.test("a role capability naming a collection no layer defines fails the boot", async () => {
  const { root, message } = await bootError({
    "collections/Notes.ts":
      `import { defineCollection, field } from "${STRATA}";
export default defineCollection({ fields: { text: field("text") } });
`,
    "roles/editor.ts": `import { defineRole } from "${STRATA}";
export default defineRole({ capabilities: ["collection.Notez.*"] });
`,
  });
  assert.ok(message.includes(join(root, "roles/editor.ts")), message);
  assert.match(
    message,
    /"collection\.Notez\.\*" names collection "Notez", which no layer defines/,
  );
});

Deno.test("a malformed ICU message fails the boot naming the file and key", async () => {
  const { root, message } = await bootError({
    "messages/en.json": JSON.stringify({
      app: { items: "{count, plural, one {# item} other {# items}" },
    }),
  });
  assert.ok(message.includes(join(root, "messages/en.json")), message);
  assert.match(message, /app\.items/);
});

Deno.test("a field option error names Collection.field", async () => {
  const { message } = await bootError({
    "collections/Posts.ts":
      `import { defineCollection, field } from "${STRATA}";
export default defineCollection({ fields: { views: field("integer", { min: 10, max: 1 }) } });
`,
  });
  assert.match(message, /Posts\.views/);
});

/** Boots `root` (written from `files`) with DATABASE_URL set to `env` for the call. */
async function bootWith(
  files: Record<string, string>,
  env: string | undefined,
): Promise<{ root: string; message?: string }> {
  const root = await Deno.makeTempDir({ prefix: "strata_boot_db_" });
  for (const [file, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, file, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, file), content);
  }
  const before = Deno.env.get("DATABASE_URL");
  if (env === undefined) Deno.env.delete("DATABASE_URL");
  else Deno.env.set("DATABASE_URL", env);
  try {
    const app = await createApp({ root });
    await app.close();
    return { root };
  } catch (error) {
    return { root, message: (error as Error).message };
  } finally {
    if (before === undefined) Deno.env.delete("DATABASE_URL");
    else Deno.env.set("DATABASE_URL", before);
  }
}

Deno.test("a database URL with an unknown scheme fails the boot naming where it came from", async () => {
  const fromEnv = await bootWith({}, "postgress://app:secret@db.example/app");
  assert.match(
    fromEnv.message ?? "",
    /^DATABASE_URL "postgress:\/\/app:\*\*\*@db\.example\/app" has an unknown scheme "postgress:\/\/"/,
  );
  assert.ok(!fromEnv.message!.includes("secret"), fromEnv.message);
  const fromConfig = await bootWith({
    "strata.config.ts":
      `export default { database: { url: "mysql://localhost/app" } };\n`,
  }, undefined);
  assert.ok(
    fromConfig.message?.startsWith(
      `${
        join(fromConfig.root, "strata.config.ts")
      }: database.url "mysql://localhost/app"`,
    ),
    fromConfig.message,
  );
  // Nothing was created in the working directory or the app folder.
  for (const root of [fromEnv.root, fromConfig.root]) {
    const entries = await Array.fromAsync(Deno.readDir(root));
    assert.ok(!entries.some((e) => e.name.includes(":")), root);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a relative SQLite path resolves against the app's folder, not the working directory", async () => {
  const { root, message } = await bootWith({
    "strata.config.ts":
      `export default { database: { url: "data/app.db" } };\n`,
  }, undefined);
  try {
    assert.equal(message, undefined);
    assert.ok((await Deno.stat(join(root, "data/app.db"))).isFile);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an unreachable PostgreSQL names DATABASE_URL and the host, without driver frames", async () => {
  const { root, message } = await bootWith(
    {},
    "postgres://postgres:pw@127.0.0.1:1/test",
  );
  await Deno.remove(root, { recursive: true });
  assert.equal(
    message,
    "Cannot connect to PostgreSQL at 127.0.0.1:1 (DATABASE_URL): the connection was refused (is the server running?)",
  );
});

Deno.test({
  name:
    "the dev boot log names the PostgreSQL database in use, password redacted",
  ignore: !PG_URL,
}, async () => {
  const url = new URL(PG_URL!);
  url.password = "s3cret-pw";
  const schema = `strata_boot_log_${crypto.randomUUID().slice(0, 8)}`;
  const logged: string[] = [];
  const log = console.log;
  const before = Deno.env.get("STRATA_DEV");
  Deno.env.set("STRATA_DEV", "1");
  console.log = (...args: unknown[]) => void logged.push(args.join(" "));
  const root = await Deno.makeTempDir({ prefix: "strata_boot_log_" });
  try {
    const app = await createApp({
      root,
      database: url.href,
      databaseSchema: schema,
    });
    try {
      const line = logged.find((l) => l.startsWith("Strata: "));
      assert.ok(line, logged.join("\n"));
      assert.ok(
        line.includes(
          `postgres database postgres://${url.username}:***@${url.host}`,
        ),
        line,
      );
      assert.ok(!line.includes("s3cret-pw"), line);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(
        kyselyOf(app.db),
      );
      await app.close();
    }
  } finally {
    console.log = log;
    if (before === undefined) Deno.env.delete("STRATA_DEV");
    else Deno.env.set("STRATA_DEV", before);
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a route suffix one edit from a method warns at boot and still serves its path", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_boot_warn_" });
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
  try {
    for (
      const file of ["api/ping.gett.ts", "api/x.pots.ts", "api/feed.rss.ts"]
    ) {
      await Deno.mkdir(join(root, file, ".."), { recursive: true });
      await Deno.writeTextFile(
        join(root, file),
        `import { defineHandler } from "${STRATA}";\nexport default defineHandler(() => "ok");\n`,
      );
    }
    const app = await createApp({ root, database: ":memory:" });
    try {
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.ok(
        warnings.some((w) =>
          w.includes(join(root, "api/ping.gett.ts")) &&
          w.includes("Did you mean .get?") && !w.includes("\n")
        ),
        warnings.join("\n"),
      );
      assert.ok(warnings.some((w) => w.includes("Did you mean .post?")));
      const served = await app.fetch(
        new Request("http://localhost/ping.gett", { method: "DELETE" }),
      );
      assert.equal(served.status, 200);
      await served.body?.cancel();
    } finally {
      await app.close();
    }
  } finally {
    console.warn = warn;
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("an uncaught boot error prints one clean message; STRATA_DEBUG=1 keeps the stack", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_boot_clean_" });
  try {
    await Deno.writeTextFile(
      join(root, "strata.config.ts"),
      `export default { api: { handlerTimeout: "soon" } };\n`,
    );
    await Deno.writeTextFile(
      join(root, "main.ts"),
      `import { createApp } from "${STRATA}";\nexport default await createApp({ root: import.meta.dirname!, database: ":memory:" });\n`,
    );
    const run = async (debug: boolean) => {
      const { code, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--no-check",
          "--config",
          new URL("../../deno.json", import.meta.url).pathname,
          join(root, "main.ts"),
        ],
        env: { STRATA_DEBUG: debug ? "1" : "0", NO_COLOR: "1" },
        stdout: "null",
        stderr: "piped",
      }).output();
      return { code, text: new TextDecoder().decode(stderr).trim() };
    };
    const clean = await run(false);
    assert.notEqual(clean.code, 0);
    assert.match(clean.text, /strata\.config\.ts: .*api\.handlerTimeout/);
    assert.doesNotMatch(clean.text, /\n\s+at /, clean.text);
    const debug = await run(true);
    assert.match(debug.text, /\n\s+at /, debug.text);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
