// Strata imported from a URL, as an app imports it from JSR: the repository is served over
// HTTP on 127.0.0.1 and a child process boots an app (auth layer, dashboard, a collection)
// whose files import `http://127.0.0.1:<port>/mod.ts` and `/auth/mod.ts`. The file server
// answers files only — a folder is a 404 — so anything in the package that read or walked
// its own files (instead of importing them) would fail here.
//
// npm dependencies: Strata's files import `kysely`, `nodemailer`, `pg` and `sharp` by bare name, resolved through
// the repository's import map, which a remote importer does not have. JSR solves this when
// it publishes by rewriting bare specifiers from the package's import map into `npm:`
// specifiers. A plain HTTP server does not rewrite, so the child app's deno.json maps the
// names itself — to exactly the `npm:kysely@^0.28.2` / `npm:pg@^8.16.0` a JSR consumer ends
// up with. Nothing else is mapped: `@strata/strata` is never used by name here.
import assert from "node:assert/strict";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const repoConfig = JSON.parse(
  await Deno.readTextFile(join(REPO_ROOT, "deno.json")),
);

const CONTENT_TYPES: Record<string, string> = {
  ".ts": "application/typescript; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
};

/** A static file server over the repository: files only, no listings, no dot folders. */
function serveRepository(requested: string[]) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requested.push(path);
      const relative = normalize(path).replace(/^\/+/, "");
      if (
        relative.startsWith("..") ||
        relative.split("/").some((s) =>
          s.startsWith(".") || s === "node_modules"
        )
      ) {
        return new Response("Not found", { status: 404 });
      }
      const contentType = CONTENT_TYPES[extname(relative)];
      try {
        const info = await Deno.stat(join(REPO_ROOT, relative));
        if (!info.isFile || !contentType) throw new Deno.errors.NotFound();
        return new Response(await Deno.readFile(join(REPO_ROOT, relative)), {
          headers: { "content-type": contentType },
        });
      } catch {
        return new Response("Not found", { status: 404 });
      }
    },
  );
}

/** The child app: every Strata import is an http URL. */
function appFiles(base: string): Record<string, string> {
  return {
    "deno.json": JSON.stringify(
      {
        imports: {
          kysely: repoConfig.imports.kysely,
          nodemailer: repoConfig.imports.nodemailer,
          pg: repoConfig.imports.pg,
          sharp: repoConfig.imports.sharp,
        },
      },
      null,
      2,
    ),
    "strata.config.ts": `import { defineConfig } from "${base}/mod.ts";
import { authLayer } from "${base}/auth/mod.ts";
export default defineConfig({
  layers: [authLayer()],
  auth: { password: { cost: 1024 } },
});
`,
    "collections/Notes.ts":
      `import { defineCollection, field } from "${base}/mod.ts";
export default defineCollection({
  fields: { title: field("text", { max: 100 }) },
  api: { read: "public", create: true },
});
`,
    "api/hello.get.ts": `import { defineHandler } from "${base}/mod.ts";
import { useUser } from "${base}/auth/mod.ts";
export default defineHandler(async () => ({ user: (await useUser())?.email ?? null }));
`,
    "boot.ts": `import { createApp } from "${base}/mod.ts";
// A file database: reads that wait on the connection go to reader threads, whose worker
// module loads from the same URL.
const app = await createApp({ root: import.meta.dirname!, database: import.meta.dirname + "/app.db" });
const results: Record<string, unknown> = {};
async function call(name: string, path: string, init?: RequestInit) {
  const response = await app.fetch(new Request("http://localhost" + path, init));
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? await response.json() : await response.text();
  results[name] = { status: response.status, type, body };
  return response;
}
const json = { "content-type": "application/json" };
await call("installStatus", "/auth/install");
const install = await call("install", "/auth/install", {
  method: "POST",
  headers: json,
  body: JSON.stringify({ email: "admin@example.com", password: "correct horse" }),
});
const cookie = install.headers.getSetCookie()[0]?.split(";")[0] ?? "";
await call("hello", "/hello", { headers: { cookie } });
await call("create", "/collections/notes", {
  method: "POST",
  headers: { ...json, cookie },
  body: JSON.stringify({ title: "From a URL" }),
});
await call("list", "/collections/notes");
// While a transaction holds the connection, a read is answered by a reader thread (and sees
// only what is committed).
let release = () => {};
const held = new Promise<void>((resolve) => release = resolve);
const pending = app.data.transaction(async () => {
  await app.query("Notes").create({ title: "Not yet committed" });
  await held;
});
await new Promise((resolve) => setTimeout(resolve, 50));
await call("listDuringTransaction", "/collections/notes");
release();
await pending;
await call("dashboard", "/dashboard");
await call("messages", "/messages/dashboard/en");
await app.close();
console.log(JSON.stringify(results));
`,
  };
}

interface Result {
  status: number;
  type: string;
  body: unknown;
}

Deno.test("an app boots and serves with Strata imported from an http URL", async () => {
  const requested: string[] = [];
  const server = serveRepository(requested);
  const { port } = server.addr;
  const base = `http://127.0.0.1:${port}`;
  const root = await Deno.makeTempDir({ prefix: "strata_url_app_" });
  try {
    for (const [file, content] of Object.entries(appFiles(base))) {
      await Deno.mkdir(join(root, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, file), content);
    }
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        // Only this host may serve code; -A would conflict with --allow-import.
        `--allow-import=127.0.0.1:${port}`,
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-sys",
        "--no-lock",
        "--config",
        join(root, "deno.json"),
        join(root, "boot.ts"),
      ],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 0, `child failed:\n${err}\n${out}`);
    const results = JSON.parse(out.trim().split("\n").at(-1)!) as Record<
      string,
      Result
    >;

    assert.deepEqual(results.installStatus.body, { required: true });
    assert.equal(results.install.status, 200);
    assert.deepEqual(
      (results.install.body as { roles: string[] }).roles,
      ["admin"],
    );
    assert.deepEqual(results.hello.body, { user: "admin@example.com" });
    assert.equal(results.create.status, 201);
    assert.deepEqual(
      (results.list.body as { title: string }[]).map((n) => n.title),
      ["From a URL"],
    );
    assert.deepEqual(
      (results.listDuringTransaction.body as { title: string }[]).map((n) =>
        n.title
      ),
      ["From a URL"],
    );
    assert.ok(
      requested.includes("/collections/db/_sqlite_reader_worker.ts"),
      "the reader thread's module came from the URL",
    );
    assert.equal(results.dashboard.status, 200);
    assert.match(results.dashboard.type, /^text\/html/);
    assert.match(String(results.dashboard.body), /<html/i);
    assert.equal(results.messages.status, 200);
    assert.ok(
      Object.keys(results.messages.body as object).some((key) =>
        key.startsWith("dashboard.")
      ),
      "the dashboard's messages ship inside the package",
    );

    // The package came over HTTP, file by file, and nothing asked for a folder.
    assert.ok(requested.includes("/mod.ts"));
    assert.ok(requested.includes("/auth/mod.ts"));
    assert.ok(requested.some((path) => path.endsWith(".json")));
    assert.ok(
      requested.every((path) => /\.(ts|js|json)$/.test(path)),
      `only module files were fetched: ${
        requested.filter((p) => !/\.(ts|js|json)$/.test(p))
      }`,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});
