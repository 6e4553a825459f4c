// Docs that run, beyond app files: every ```ts sample of the README and docs/*.md is either an
// app file (`// collections/Posts.ts`, run by docs_apps_test.ts in its page's app), run here by
// one entry of RUNS, or marked right above its fence as `<!-- fragment: <why> -->`. A new
// sample that is none of these fails the first test.
//
// Each entry of RUNS serves the app its sample talks to (on SQLite, and on PostgreSQL in a
// schema of its own when STRATA_TEST_POSTGRES is set), prepares what the sample needs
// (accounts, a token, records, a file), runs the sample's own text as a module in a
// subprocess, and checks what the page says it prints or does. The only changes to the text:
// its base URL (`http://localhost:8000`, `https://app.example.com`) becomes the served app's,
// and the substitutions an entry lists (a token the page writes as a placeholder; the
// realtime sample's `// … later`, which waits until the harness has seen an event). A browser
// snippet runs with `--location` and the session cookie a signed-in page would send.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { decodeBase32, totpCode } from "../../auth/totp.ts";
import type { TestApp } from "../../testing/mod.ts";
import { sql } from "kysely";
import { createApp } from "../../mod.ts";
import { openDatabase } from "../../collections/db/open_database.ts";
import { pageAppFiles, REPO_ROOT, writeApp } from "./_doc_apps.ts";
import { appPathOf, extractSamples, type Sample } from "./_samples.ts";
import {
  besideApp,
  DATABASES,
  eventually,
  runSample,
  type Served,
  type ServeOptions,
  servePage,
  substitute,
  succeeded,
} from "./_run_sample.ts";
import { startS3 } from "../files/_s3.ts";

/** A way to run one sample: `has` picks it out of its page (exactly one sample contains it). */
interface Run {
  page: string;
  has: string;
  /** False for a sample that opens no served app (it boots its own, or none). */
  perDatabase?: boolean;
  run(code: string, database: string): Promise<void>;
}

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

/** Runs `fn` against the served app of `page`, closing it afterwards. */
async function withServed(
  page: string,
  database: string,
  fn: (served: Served) => Promise<void>,
  options?: ServeOptions,
): Promise<void> {
  const served = await servePage(page, database, options);
  try {
    await fn(served);
  } finally {
    await served.close();
  }
}

/** Creates a user the way app code does (verified at creation). */
async function user(
  app: TestApp,
  email: string,
  password: string,
  roles: string[] = [],
): Promise<string> {
  const created = await app.query("Users").create({ email, password, roles });
  assert.ok(created.ok, JSON.stringify(!created.ok && created.errors));
  return created.record.UUID as string;
}

/** The token of the last mailed link to `email` that contains `path`. */
async function mailedToken(
  app: TestApp,
  email: string,
  path: string,
): Promise<string> {
  await app.mail.settle();
  const mail = app.mail.sent.findLast((m) =>
    JSON.stringify(m.to).includes(email) && m.text.includes(path)
  );
  assert.ok(mail, `no mail with ${path} to ${email}`);
  return new RegExp(`${path}\\?token=([\\w-]+)`).exec(mail.text)![1];
}

/**
 * A preload whose `prompt` is a person at the terminal: it says what was asked and types the
 * current code of the TOTP `secret` (nothing without one).
 */
function typist(secret?: string): string {
  const totp = pathToFileURL(join(REPO_ROOT, "auth", "totp.ts")).href;
  return `import { decodeBase32, totpCode } from ${JSON.stringify(totp)};
const SECRET = ${JSON.stringify(secret ?? "")};
globalThis.prompt = (message) => {
  console.log("prompt: " + message);
  return SECRET ? totpCode(decodeBase32(SECRET), Date.now()) : null;
};
`;
}

/** POST of JSON to the app, in-process. */
function post(app: TestApp, path: string, body: unknown): Promise<Response> {
  return app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Status of a login, its body read. */
async function loginStatus(
  app: TestApp,
  email: string,
  password: string,
): Promise<number> {
  const response = await post(app, "/auth/login", { email, password });
  await response.body?.cancel();
  return response.status;
}

/**
 * A PostgreSQL database of its own for one run (main.ts takes its database from
 * DATABASE_URL, where a schema cannot be named): its URL, and how to drop it.
 */
async function ownPostgresDatabase(
  url: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `strata_docs_${crypto.randomUUID().slice(0, 8)}`;
  const admin = await openDatabase({ url });
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.db.destroy();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.href,
    async drop() {
      const dropping = await openDatabase({ url });
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`
          .execute(dropping.db);
      } finally {
        await dropping.db.destroy();
      }
    },
  };
}

/**
 * A `main.ts` sample serves: written into its page's app, started with
 * `deno serve -A main.ts` on a free port on `database` (SQLite: a file in the app; PostgreSQL:
 * a database of its own), asked `path`, then stopped with SIGTERM.
 */
async function servesMain(
  page: string,
  code: string,
  database: string,
  prepare: (app: { query: TestApp["query"] }) => Promise<string>,
  check: (response: Response) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "strata_docs_main_" });
  const postgres = database.startsWith("postgres")
    ? await ownPostgresDatabase(database)
    : undefined;
  try {
    await writeApp(
      root,
      new Map([...await pageAppFiles(page), ["main.ts", code]]),
    );
    database = postgres?.url ?? join(root, ".data", "app.db");
    const seeding = await createApp({ root, database });
    let path: string;
    try {
      path = await prepare(seeding);
    } finally {
      await seeding.close();
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: ["serve", "-A", "--host", "127.0.0.1", "--port", "0", "main.ts"],
      cwd: root,
      env: { NO_COLOR: "1", DATABASE_URL: database },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let said = "";
    const collect = (stream: ReadableStream<Uint8Array>) =>
      stream.pipeThrough(new TextDecoderStream()).pipeTo(
        new WritableStream({
          write(chunk) {
            said += chunk;
          },
        }),
      );
    const reading = Promise.all([collect(child.stdout), collect(child.stderr)]);
    try {
      const base = await eventually(`${page}: main.ts listening`, () => {
        assert.ok(!/error/i.test(said), `${page}: main.ts failed:\n${said}`);
        return /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(said)?.[1];
      });
      await check(await fetch(base + path));
    } finally {
      // Stopped as a container or service manager stops it: SIGTERM, then the process exits
      // by itself once the server has shut down (background work must not hold it).
      child.kill("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stopped = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), 60_000);
        }),
      ]);
      clearTimeout(timer);
      if (!stopped) child.kill("SIGKILL");
      await child.status;
      await reading;
      assert.ok(
        stopped,
        `${page}: main.ts still ran 60 s after SIGTERM:\n${said}`,
      );
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await postgres?.drop();
  }
}

const RUNS: Run[] = [
  {
    page: "README.md",
    has: "// main.ts",
    run: (code, database) =>
      servesMain("README.md", code, database, async (app) => {
        const created = await app.query("Posts").create({ title: "Hello" });
        assert.ok(created.ok);
        return `/posts/${created.record.UUID}`;
      }, async (response) => {
        assert.equal(response.status, 200);
        assert.equal((await response.json()).title, "Hello");
      }),
  },
  {
    page: "docs/getting-started.md",
    has: "// main.ts",
    run: (code, database) =>
      servesMain(
        "docs/getting-started.md",
        code,
        database,
        () => Promise.resolve("/hello?name=Ada"),
        async (response) => {
          assert.equal(response.status, 200);
          assert.deepEqual(await response.json(), { hello: "Ada" });
        },
      ),
  },
  {
    page: "docs/getting-started.md",
    has: 'collection("Notes")',
    run: (code, database) =>
      withServed("docs/getting-started.md", database, async ({ app, base }) => {
        for (
          const note of [{ title: "A" }, { title: "B" }, {
            title: "C",
            done: true,
          }]
        ) {
          assert.ok((await app.query("Notes").create(note)).ok);
        }
        const printed = succeeded("notes", await runSample(code, { base }));
        assert.equal(printed, "2\n");
      }),
  },
  {
    page: "docs/getting-started.md",
    has: "runCli(",
    perDatabase: false,
    async run(code) {
      const root = await Deno.makeTempDir({ prefix: "strata_docs_cli_" });
      const beside = await besideApp(root);
      try {
        await writeApp(root, await pageAppFiles("docs/getting-started.md"));
        const printed = succeeded(
          "the CLI sample",
          await runSample(code, {
            cwd: beside,
            env: { DATABASE_URL: ":memory:" },
          }),
        );
        // The route table three times: routeTable, formatRoutes and `routes`.
        assert.equal(printed.match(/GET\s+\/hello/g)?.length, 3, printed);
        assert.equal(printed.match(/GET\s+\/open-notes/g)?.length, 3, printed);
      } finally {
        await Deno.remove(beside, { recursive: true });
        await Deno.remove(root, { recursive: true });
      }
    },
  },
  {
    page: "docs/accounts.md",
    has: '"/auth/signup"',
    run: (code, database) =>
      withServed("docs/accounts.md", database, async ({ app, base }) => {
        await user(app, "admin@example.com", "admin-password-1", ["admin"]);
        succeeded("sign-up", await runSample(code, { base }));
        const ada = await app.query("Users").where({ email: "ada@example.com" })
          .findFirst();
        assert.equal(ada?.emailVerifiedAt, null);
        await mailedToken(app, "ada@example.com", "/dashboard/verify");
      }),
  },
  {
    page: "docs/accounts.md",
    has: '"/auth/verify"',
    run: (code, database) =>
      withServed("docs/accounts.md", database, async ({ app, base }) => {
        await user(app, "admin@example.com", "admin-password-1", ["admin"]);
        const credentials = {
          email: "ada@example.com",
          password: "violet-anchor-47",
        };
        assert.equal(
          (await post(app, "/auth/signup", credentials)).status,
          202,
        );
        const token = await mailedToken(
          app,
          credentials.email,
          "/dashboard/verify",
        );
        assert.equal(
          await loginStatus(app, credentials.email, credentials.password),
          403,
        );
        succeeded(
          "verify",
          await runSample(code, {
            base,
            replace: [["token=abc", `token=${token}`]],
          }),
        );
        assert.equal(
          await loginStatus(app, credentials.email, credentials.password),
          200,
        );
      }),
  },
  {
    page: "docs/accounts.md",
    has: '"/auth/password/reset"',
    run: (code, database) =>
      withServed("docs/accounts.md", database, async ({ app, base }) => {
        await user(app, "ada@example.com", "violet-anchor-47");
        // The token the page leaves to the reader is read from the mail the sample's own
        // forgot request caused, when the sample needs it.
        const link = `"<token from the link>"`;
        const read =
          `await (await fetch("${base}/__harness/reset-token")).text()`;
        succeeded(
          "forgot and reset",
          await runSample(code, { base, replace: [[link, read]] }),
        );
        assert.equal(
          await loginStatus(app, "ada@example.com", "a-new-password-9"),
          200,
        );
      }, {
        routes: {
          "/__harness/reset-token": async (app) =>
            new Response(
              await mailedToken(app, "ada@example.com", "/dashboard/reset"),
            ),
        },
      }),
  },
  {
    page: "docs/accounts.md",
    has: "STRATA_TOKEN",
    run: (code, database) =>
      withServed("docs/accounts.md", database, async ({ app, base }) => {
        await user(app, "admin@example.com", "admin-password-1", ["admin"]);
        const author = await app.query("Authors").create({ name: "Ada" });
        assert.ok(author.ok);
        const created = await app.query("Posts").create({
          title: "Tokens",
          slug: "tokens",
          author: author.record.UUID,
        });
        assert.ok(created.ok, JSON.stringify(!created.ok && created.errors));
        const admin = await app.signIn("admin@example.com", "admin-password-1");
        const answer = await admin.request("/auth/tokens", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://localhost",
          },
          body: JSON.stringify({
            name: "ci",
            capabilities: ["collection.Posts.read"],
          }),
        });
        const { token } = await answer.json();
        assert.equal(answer.status, 201);
        const printed = succeeded(
          "token",
          await runSample(code, { base, env: { STRATA_TOKEN: token } }),
        );
        assert.match(printed, /title: "Tokens"/);
        // It went as the bearer token: its use is recorded.
        const used = await app.query("ApiTokens").findFirst();
        assert.equal(typeof used?.lastUsedAt, "number");
      }),
  },
  {
    page: "docs/accounts.md",
    has: "totpRequired",
    run: (code, database) =>
      withServed("docs/accounts.md", database, async ({ app, base }) => {
        // Without two-factor sign-in the first login succeeds; prompt() is never asked.
        const password = "violet-anchor-47";
        const ada = await user(app, "ada@example.com", password);
        const sessions = () =>
          app.query("Sessions").where({ user: ada }).count();
        assert.equal(
          succeeded(
            "login",
            await runSample(code, { base, preload: typist() }),
          ),
          "",
        );
        assert.equal(await sessions(), 1);
        // With it on, the first login is refused with totpRequired, and the code the person
        // types at prompt("Code?") signs in.
        const signedIn = await app.signIn("ada@example.com", password);
        const setup = await signedIn.request("/auth/totp/setup", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ password }),
        });
        assert.equal(setup.status, 200);
        const { secret } = await setup.json();
        // Enabled with the previous step's code (neighbouring steps count), so the code of
        // the step the sample runs in is one not used yet.
        const enabled = await signedIn.request("/auth/totp/enable", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            code: totpCode(decodeBase32(secret)!, Date.now() - 30_000),
          }),
        });
        assert.equal(enabled.status, 200);
        const before = await sessions();
        const printed = succeeded(
          "login with a code",
          await runSample(code, { base, preload: typist(secret) }),
        );
        assert.equal(printed, "prompt: Code?\n");
        assert.equal(await sessions(), before + 1);
      }),
  },
  {
    page: "docs/auth.md",
    has: "hashPassword",
    perDatabase: false,
    async run(code) {
      assert.equal(succeeded("hashPassword", await runSample(code)), "true\n");
    },
  },
  {
    page: "docs/dashboard.md",
    has: "/permissions?uuids=",
    perDatabase: false,
    async run(code) {
      const root = await Deno.makeTempDir({ prefix: "strata_docs_dash_" });
      const beside = await besideApp(root);
      try {
        await writeApp(root, await pageAppFiles("docs/dashboard.md"));
        const printed = succeeded(
          "permissions",
          await runSample(code, { cwd: beside }),
        );
        assert.match(
          printed,
          /^\{\s*"[0-9a-f-]{36}": \{ update: false, delete: false \}\s*\}\n$/,
        );
      } finally {
        await Deno.remove(beside, { recursive: true });
        await Deno.remove(root, { recursive: true });
      }
    },
  },
  {
    page: "docs/files.md",
    has: "sunset.png",
    run: (code, database) =>
      withServed("docs/files.md", database, async ({ base }) => {
        const cwd = await Deno.makeTempDir({ prefix: "strata_docs_sunset_" });
        try {
          await Deno.writeFile(join(cwd, "sunset.png"), PNG);
          const printed = succeeded(
            "multipart",
            await runSample(code, { base, cwd }),
          );
          const file = await fetch(new URL(printed.trim(), base));
          assert.equal(file.status, 200);
          assert.deepEqual(new Uint8Array(await file.arrayBuffer()), PNG);
        } finally {
          await Deno.remove(cwd, { recursive: true });
        }
      }),
  },
  {
    page: "docs/files.md",
    has: 'fetch("/files?collection=Photos',
    run: (code, database) =>
      withServed("docs/files.md", database, async ({ app, base }) => {
        // As in a page of the app, signed in: relative URLs resolve against its origin and
        // requests carry the session cookie.
        await user(app, "editor@example.com", "correct horse");
        const { cookie } = await app.signIn(
          "editor@example.com",
          "correct horse",
        );
        succeeded(
          "upload first",
          await runSample(code, { location: base, cookie }),
        );
        await assertNotes(app);
      }),
  },
  {
    page: "docs/files.md",
    has: "attachments: [notes.UUID]",
    run: (code, database) =>
      withServed("docs/files.md", database, async ({ app, base }) => {
        await user(app, "editor@example.com", "correct horse");
        succeeded("client upload", await runSample(code, { base }));
        await assertNotes(app);
      }),
  },
  {
    page: "docs/files.md",
    has: "onProgress",
    run: (code, database) =>
      withServed("docs/files.md", database, async ({ app, base }) => {
        await user(app, "editor@example.com", "correct horse");
        const printed = succeeded("progress", await runSample(code, { base }));
        assert.match(printed, /^100%\n[0-9a-f-]{36}\n$/);
      }),
  },
  {
    page: "docs/files.md",
    has: 'driver: "s3"',
    async run(code, database) {
      const s3 = await startS3("my-app-uploads");
      // The config reads its keys from the environment when the app imports it.
      const env = {
        UPLOADS_SECRET: "docs-sample-uploads-secret",
        S3_ACCESS_KEY_ID: s3.storage.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.storage.secretAccessKey,
      };
      for (const [name, value] of Object.entries(env)) {
        Deno.env.set(name, value);
      }
      try {
        const config = substitute(code, [
          ["https://s3.eu-central-1.amazonaws.com", s3.storage.endpoint],
          // A bucket on loopback has no host name of its own: path-style addressing.
          ["forcePathStyle: false", "forcePathStyle: true"],
        ]);
        await withServed("docs/files.md", database, async ({ base, root }) => {
          const form = new FormData();
          form.set("data", JSON.stringify({ title: "Sunset" }));
          form.set("image", new Blob([PNG]), "sunset.png");
          const created = await fetch(base + "/collections/photos", {
            method: "POST",
            body: form,
          });
          const record = await created.json();
          assert.equal(created.status, 201, JSON.stringify(record));
          const file = await fetch(new URL(record.image.url, base));
          assert.equal(file.status, 200);
          assert.deepEqual(new Uint8Array(await file.arrayBuffer()), PNG);
          // The bytes went to the bucket, not to the fs driver's folder.
          await assert.rejects(
            Deno.stat(join(root, ".data")),
            Deno.errors.NotFound,
          );
        }, { extra: { "strata.config.ts": config } });
      } finally {
        for (const name of Object.keys(env)) Deno.env.delete(name);
        await s3.close();
      }
    },
  },
  {
    page: "docs/realtime.md",
    has: ".subscribe(",
    run: (code, database) =>
      withServed(
        "docs/collections-and-fields.md",
        database,
        async ({ app, base }) => {
          await user(app, "admin@example.com", "correct horse", ["admin"]);
          const author = await app.query("Authors").create({ name: "Ada" });
          assert.ok(author.ok);
          let n = 0;
          let last = 0;
          const ran = await runSample(code, {
            base,
            replace: [[
              "// … later",
              "await Deno.stdin.readable.pipeTo(new WritableStream());",
            ]],
            // Publish a post now and then until the subscriber prints one.
            during: (stdout) =>
              eventually("a create event", async () => {
                if (/^create /m.test(stdout())) return true;
                if (Date.now() - last > 3000) {
                  last = Date.now();
                  const created = await app.query("Posts").create({
                    title: `Live ${++n}`,
                    slug: `live-${n}`,
                    author: author.record.UUID,
                    published: true,
                  });
                  assert.ok(
                    created.ok,
                    JSON.stringify(!created.ok && created.errors),
                  );
                }
                return undefined;
              }),
          });
          const printed = succeeded("subscribe", ran);
          assert.match(printed, /^create \S+ \{[^}]*title: "Live \d+"/m);
        },
      ),
  },
  {
    page: "docs/realtime.md",
    has: "changes({",
    run: (code, database) =>
      withServed("docs/hooks.md", database, async ({ app, base }) => {
        const response = await fetch(base + "/orders/feed");
        assert.equal(response.status, 200);
        assert.equal(response.headers.get("content-type"), "text/event-stream");
        const reader = response.body!.pipeThrough(new TextDecoderStream())
          .getReader();
        try {
          const created = await app.query("Orders").create({ item: " Tea " });
          assert.ok(created.ok);
          let text = "";
          while (!text.includes(created.record.UUID as string)) {
            const { value, done } = await reader.read();
            assert.ok(!done, `the feed ended: ${text}`);
            text += value;
          }
          assert.match(
            text,
            new RegExp(
              `id: \\d+\\ndata: \\{"op":"create","uuid":"${created.record.UUID}"\\}\\n\\n`,
            ),
          );
        } finally {
          await reader.cancel();
        }
      }, { extra: { "api/orders/feed.get.ts": code } }),
  },
  {
    page: "docs/testing.md",
    has: "cost: 1024",
    perDatabase: false,
    async run(code) {
      const root = await Deno.makeTempDir({ prefix: "strata_docs_testing_" });
      try {
        await writeApp(root, await pageAppFiles("docs/testing.md"));
        // The sample sits in the app's tests/ folder, as its `new URL("../", …)` expects.
        succeeded(
          "fast passwords",
          await runSample(code, { cwd: join(root, "tests") }),
        );
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  },
  {
    page: "docs/types-and-openapi.md",
    has: "RecordOf<typeof Posts>",
    perDatabase: false,
    async run(code) {
      assert.equal(
        succeeded("typed collections", await runSample(code)),
        '{ title: "Hello", slug: "hello" } { views: 2 } undefined\n',
      );
    },
  },
  {
    page: "docs/types-and-openapi.md",
    has: "createClient<Registry>",
    run: (code, database) =>
      withServed(
        "docs/types-and-openapi.md",
        database,
        async ({ app, base }) => {
          await user(app, "admin@example.com", "correct horse", ["admin"]);
          assert.ok(
            (await app.query("Posts").create({ title: "Popular", views: 12 }))
              .ok,
          );
          const printed = succeeded(
            "typed client",
            await runSample(code, { base }),
          );
          const created = await app.query("Posts").where({ title: "Hello" })
            .findFirst();
          assert.ok(created, "the client created Hello");
          assert.equal(
            printed,
            `1 1 { locales: [ "en", "de" ] }\n422 undefined undefined { title: "Must not be empty" }\n`,
          );
        },
      ),
  },
];

/** The Notes record of the upload-first samples, with its one attachment. */
async function assertNotes(app: TestApp): Promise<void> {
  const notes = await app.query("Photos").where({ title: "Notes" }).findFirst();
  assert.ok(notes, "the sample created Notes");
  assert.equal((notes.attachments as unknown[]).length, 1);
}

async function pages(): Promise<string[]> {
  const names = ["README.md"];
  for await (const entry of Deno.readDir(join(REPO_ROOT, "docs"))) {
    if (entry.name.endsWith(".md")) names.push(`docs/${entry.name}`);
  }
  return names.sort();
}

async function samplesOf(page: string): Promise<Sample[]> {
  return extractSamples(await Deno.readTextFile(join(REPO_ROOT, page)), page);
}

/** The one sample of `run`'s page that contains `run.has`. */
async function sampleOf(run: Run): Promise<Sample> {
  const found = (await samplesOf(run.page)).filter((s) =>
    !appPathOf(s) && s.code.includes(run.has)
  );
  assert.equal(
    found.length,
    1,
    `${run.page}: ${found.length} samples contain ${run.has}`,
  );
  return found[0];
}

/** Why a sample is not run, from its `<!-- fragment: … -->` mark. */
function fragmentReason(sample: Sample): string | undefined {
  return /^fragment:\s*(\S[\s\S]*)$/.exec(sample.note ?? "")?.[1];
}

Deno.test("every ts sample of the docs is an app file, run here, or a marked fragment", async () => {
  const unaccounted: string[] = [];
  let fragments = 0;
  for (const page of await pages()) {
    for (const sample of await samplesOf(page)) {
      if (appPathOf(sample)) continue;
      const runs = RUNS.filter((r) =>
        r.page === page && sample.code.includes(r.has)
      );
      if (fragmentReason(sample)) {
        fragments++;
        assert.equal(runs.length, 0, `${sample.where} is run, not a fragment`);
        continue;
      }
      if (runs.length !== 1) {
        unaccounted.push(`${sample.where} (${runs.length} runs)`);
      }
    }
  }
  assert.deepEqual(
    unaccounted,
    [],
    "run each sample in RUNS of tests/docs/sample_runs_test.ts, or mark it " +
      "`<!-- fragment: <why it cannot run> -->` on the line above its fence",
  );
  assert.ok(
    fragments <= 3,
    `${fragments} fragments: run samples, do not mark them`,
  );
  for (const run of RUNS) await sampleOf(run);
});

Deno.test("a sample with no run and no mark is reported", () => {
  const [sample] = extractSamples(
    ["text", "```ts", 'console.log("new");', "```"].join("\n"),
    "x.md",
  );
  assert.equal(appPathOf(sample), undefined);
  assert.equal(fragmentReason(sample), undefined);
  const [marked] = extractSamples(
    ["<!-- fragment: a type only -->", "", "```ts", "type A = 1;", "```"].join(
      "\n",
    ),
    "x.md",
  );
  assert.equal(fragmentReason(marked), "a type only");
});

for (const run of RUNS) {
  for (const { name, url } of DATABASES) {
    if (run.perDatabase === false && name !== "sqlite") continue;
    Deno.test({
      name: `${run.page}: the sample with ${run.has} runs${
        run.perDatabase === false ? "" : ` [${name}]`
      }`,
      ignore: url === undefined,
      async fn() {
        const sample = await sampleOf(run);
        await run.run(sample.code, url!);
      },
    });
  }
}
