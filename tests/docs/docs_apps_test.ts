// Docs that run: the app files a page shows (```ts samples whose first line names a path such
// as `// collections/Posts.ts` or `// api/posts/[id].get.ts`) are written into an app folder,
// which is booted in a subprocess (with the import map `strata new --strata <checkout>` writes)
// and exercised over HTTP on a real socket: every parameterless GET route and every public
// collection list must answer without a 5xx, plus the checks a page lists below; the page's
// test files (`// tests/…_test.ts`) then pass under `deno test -A` in that folder. Pages that
// use collections defined elsewhere get collections-and-fields.md's collections as a base.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pageAppFiles, REPO_ROOT, writeApp } from "./_doc_apps.ts";

/** HTTP checks run against the booted page app: path → expected status. */
const PAGE_CHECKS: Record<string, string> = {
  // A multipart create stores the image; its URL serves it with the safe headers.
  "docs/files.md": `
    const form = new FormData();
    form.set("data", JSON.stringify({ title: "Dot" }));
    form.set("image", new Blob([Uint8Array.from(atob(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
    ), (c) => c.charCodeAt(0))]), "dot.png");
    const created = await fetch(base + "/collections/photos", { method: "POST", body: form });
    const record = await created.json();
    expect({ path: "POST /collections/photos", status: created.status, text: JSON.stringify(record) }, 201);
    const file = await get(record.image.url);
    expect(file, 200);
    expect(await get(record.image.url + "?w=64&format=webp"), 200);`,
  // A locale the app does not have is the handler's 400, not a 500.
  "docs/routes.md": `
    const post = await app.query("Posts").create({
      title: "Hello", slug: "hello", author: author.UUID,
    });
    if (!post.ok) throw new Error(JSON.stringify(post.errors));
    expect(await get("/posts/" + post.record.UUID + "?locale=de"), 400);
    expect(await get("/posts/" + post.record.UUID), 200);`,
  "docs/collections-and-fields.md": `
    const post = await app.query("Posts").create({
      title: "Hello", slug: "hello", author: author.UUID,
    });
    if (!post.ok) throw new Error(JSON.stringify(post.errors));
    expect(await get("/collections/posts?populate=[author]"), 200);`,
  "docs/accounts.md": `
    const post = (path: string, body: unknown, cookie?: string) =>
      fetch(base + path, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const status = async (label: string, response: Response, want: number) => {
      const text = await response.text();
      if (response.status !== want) failures.push(label + " answered " + response.status + ": " + text.slice(0, 200));
      return text;
    };
    await status("install", await post("/auth/install", { email: "admin@example.com", password: "admin-password-1" }), 200);
    await status("contact", await post("/contact", { message: "Hello" }), 200);
    await status("signup", await post("/auth/signup", { email: "ada@example.com", password: "violet-anchor-47" }), 202);
    await status("short password", await post("/auth/signup", { email: "bob@example.com", password: "short-pw" }), 422);
    await app.mail.settle();
    const mailed = app.mail.sent.map((m) => m.text).join(" ");
    const marker = "https://app.example.com/dashboard/verify?token=";
    const at = mailed.indexOf(marker);
    const token = at < 0 ? "" : mailed.slice(at + marker.length, at + marker.length + 43);
    if (at < 0) failures.push("no verification link in " + mailed);
    await status("unverified login", await post("/auth/login", { email: "ada@example.com", password: "violet-anchor-47" }), 403);
    await status("verify", await post("/auth/verify", { token }), 200);
    await status("login", await post("/auth/login", { email: "ada@example.com", password: "violet-anchor-47" }), 200);
    await status("forgot", await post("/auth/password/forgot", { email: "nobody@example.com" }), 200);`,
  // The validated route answers its typed output, 400 for a bad header, 422 for a bad body;
  // the route option names its OpenAPI operation.
  "docs/types-and-openapi.md": `
    const order = async (version: string | null, body: unknown) => {
      const response = await fetch(base + "/orders/7", {
        method: "POST",
        headers: { "content-type": "application/json", ...(version ? { "x-api-version": version } : {}) },
        body: JSON.stringify(body),
      });
      return { path: "POST /orders/7 (version " + version + ")", status: response.status, text: await response.text() };
    };
    const valid = { title: "Tea", items: [{ qty: 2 }, { qty: 3 }] };
    const ordered = await order("1", valid);
    expect(ordered, 200);
    if (ordered.text !== JSON.stringify({ id: 7, total: 5 })) failures.push("POST /orders/7 gave " + ordered.text);
    expect(await order(null, valid), 400);
    expect(await order("1", { title: "", items: [{ qty: 0 }] }), 422);
    expect(await get("/health"), 200);
    expect(await get("/popular"), 200);
    const doc = JSON.parse((await get("/openapi.json")).text);
    if (doc.paths["/health"]?.get?.summary !== "Health check") failures.push("/health is not described");`,
  "docs/search.md": `
    for (const article of [
      { title: "Café culture", body: "Deno routes in a coffee house" },
      { title: "Deno routes", body: "File based routes", draftNotes: "secret plan" },
      { title: "Node", body: "Express routes" },
    ]) {
      const created = await app.query("Articles").create(article);
      if (!created.ok) throw new Error(JSON.stringify(created.errors));
    }
    const titles = async (path: string) => {
      const answer = await get(path);
      expect(answer, 200);
      const body = JSON.parse(answer.text);
      return JSON.stringify((Array.isArray(body) ? body : body.records ?? body.articles).map((r: { title: string }) => r.title));
    };
    const want = async (path: string, expected: string[]) => {
      const got = await titles(path);
      if (got !== JSON.stringify(expected)) failures.push(path + " gave " + got);
    };
    await want("/collections/articles?search=cafe", ["Café culture"]);
    await want("/collections/articles?search=" + encodeURIComponent('"file based" -express'), ["Deno routes"]);
    await want("/collections/articles?search=rout*&where={title:{startsWith:N}}", ["Node"]);
    await want("/collections/articles?search=house&page=1&perPage=10", ["Café culture"]);
    await want("/collections/articles?search=secret", []);
    await want("/search?q=file&collections=articles&limit=1", ["Deno routes"]);
    await want("/articles/find?q=" + encodeURIComponent("deno -coffee"), ["Deno routes"]);
    expect(await get("/articles/find?q=" + encodeURIComponent("!!!")), 400);
    expect(await get("/collections/articles?search=" + encodeURIComponent("NEAR(a) AND x:y")), 200);
    expect(await get("/collections/articles?order=-_relevance"), 400);`,
};

/** What each docs script prints (scripts/<name>.ts → a pattern of its stdout). */
const SCRIPT_OUTPUT: Record<string, RegExp> = {
  "scripts/translate.ts": /^Hallo \[ "en", "de" \]\n$/,
  "scripts/stats.ts": /^\d+\n$/,
};

const BOOT = (checks: string) => `
import { createApp } from "@strata/strata";
const app = await createApp({ root: import.meta.dirname!, database: ":memory:" });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
const base = "http://127.0.0.1:" + server.addr.port;
const failures: string[] = [];
const get = async (path: string) => {
  const response = await fetch(base + path);
  const text = await response.text();
  return { path, status: response.status, text };
};
const expect = (answer: { path: string; status: number; text: string }, status: number) => {
  if (answer.status !== status) {
    failures.push(answer.path + " answered " + answer.status + ", expected " + status + ": " + answer.text.slice(0, 200));
  }
};
let author: { UUID: string } = { UUID: crypto.randomUUID() };
if (app.config && (await import("node:fs")).existsSync(import.meta.dirname + "/collections/Authors.ts")) {
  const created = await app.query("Authors").create({ name: "Ada" });
  if (created.ok) author = created.record as { UUID: string };
}
for (const route of app.routes) {
  if (route.layer !== "app" || !/^(GET|\\*) /.test(route.id) || route.pattern.includes("[")) continue;
  const answer = await get(route.pattern);
  if (answer.status >= 500) failures.push(route.id + " answered " + answer.status + ": " + answer.text.slice(0, 200));
}
for (const route of app.routes) {
  const match = /^GET (\\/collections\\/[a-z-]+)$/.exec(route.id);
  if (!match) continue;
  const answer = await get(match[1]);
  if (answer.status >= 500) failures.push(route.id + " answered " + answer.status);
}
${checks}
await server.shutdown();
await app.close();
console.log(JSON.stringify({ failures }));
`;

async function runPage(page: string): Promise<void> {
  const files = await pageAppFiles(page);
  if (files.size === 0) return;
  const root = await Deno.makeTempDir({ prefix: "strata_docs_app_" });
  try {
    await writeApp(root, files);
    await Deno.writeTextFile(
      join(root, "boot.ts"),
      BOOT(PAGE_CHECKS[page] ?? ""),
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", "boot.ts"],
      cwd: root,
      env: { NO_COLOR: "1", DATABASE_URL: ":memory:" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 0, `${page}: the app did not boot or run:\n${err}`);
    const report = JSON.parse(out.trim().split("\n").at(-1)!) as {
      failures: string[];
    };
    assert.deepEqual(
      report.failures,
      [],
      `${page} (files: ${[...files.keys()].join(", ")})`,
    );
    // The page's test files (`// tests/…_test.ts`) pass in its app, as `deno test -A` runs them.
    if ([...files.keys()].some((path) => path.startsWith("tests/"))) {
      const tests = await new Deno.Command(Deno.execPath(), {
        args: ["test", "-A", "tests/"],
        cwd: root,
        env: { NO_COLOR: "1", DATABASE_URL: ":memory:" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const said = new TextDecoder().decode(tests.stdout) +
        new TextDecoder().decode(tests.stderr);
      assert.equal(tests.code, 0, `${page}: its tests failed:\n${said}`);
    }
    // The page's scripts (`// scripts/….ts`, which open the app as `./my-app`) run and print
    // what the page says they print.
    await Deno.symlink(root, join(root, "my-app"));
    for (
      const path of [...files.keys()].filter((p) => p.startsWith("scripts/"))
    ) {
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", join("my-app", path)],
        cwd: root,
        env: { NO_COLOR: "1", DATABASE_URL: ":memory:" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const printed = new TextDecoder().decode(run.stdout);
      const said = printed + new TextDecoder().decode(run.stderr);
      assert.equal(run.code, 0, `${page} ${path} failed:\n${said}`);
      const expected = SCRIPT_OUTPUT[path];
      assert.ok(expected, `${page}: say what ${path} prints in SCRIPT_OUTPUT`);
      assert.match(printed, expected, `${page} ${path}`);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const pages = [
  "README.md",
  ...[...Deno.readDirSync(join(REPO_ROOT, "docs"))]
    .filter((entry) => entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`)
    .sort(),
];

for (const page of pages) {
  Deno.test(`docs app of ${page} boots and answers over HTTP`, () =>
    runPage(page));
}
