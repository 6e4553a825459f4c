// GET /dashboard/api/collections/<path>/permissions: per record, whether the caller's update
// and delete would pass the guard and the access scope. Runs on SQLite and PostgreSQL, through
// the app and over a real socket.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../../testing/mod.ts";

const ADMIN_APP =
  new URL("../fixtures/dashboard_admin_app/", import.meta.url).pathname;
const PG_URL = Deno.env.get("STRATA_TEST_POSTGRES") || undefined;
const PASSWORD = "correct horse";

function dbTest(name: string, fn: (app: TestApp) => Promise<void>): void {
  for (const dialect of ["sqlite", "postgres"] as const) {
    Deno.test({
      name: `${name} (${dialect})`,
      ignore: dialect === "postgres" && PG_URL === undefined,
      async fn() {
        const app = await createTestApp({
          root: ADMIN_APP,
          database: dialect === "postgres" ? PG_URL : ":memory:",
        });
        try {
          await fn(app);
        } finally {
          await app.close();
        }
      },
    });
  }
}

async function seed(app: TestApp): Promise<Record<string, string>> {
  const install = await app.request("/auth/install", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: PASSWORD }),
  });
  assert.equal(install.status, 200);
  const ids: Record<string, string> = {};
  for (
    const [email, roles] of [
      ["ann@example.com", ["author"]],
      ["bob@example.com", ["author"]],
      ["eve@example.com", ["editor"]],
    ] as const
  ) {
    const user = await app.query("Users").create({
      email,
      password: PASSWORD,
      roles: [...roles],
    });
    assert.ok(user.ok);
    ids[email] = String(user.record.UUID);
  }
  for (
    const [title, author] of [["Ann's", "ann@example.com"], [
      "Bob's",
      "bob@example.com",
    ]]
  ) {
    const post = await app.query("Posts").create({
      title,
      author: ids[author],
    });
    assert.ok(post.ok, JSON.stringify(post));
    ids[title] = String(post.record.UUID);
  }
  return ids;
}

async function permissions(
  app: TestApp,
  email: string,
  query: string,
  path = "posts",
): Promise<Response> {
  const client = await app.signIn(email, PASSWORD);
  return await client.request(
    `/dashboard/api/collections/${path}/permissions?${query}`,
  );
}

dbTest(
  "an author may change only their own posts; an editor any",
  async (app) => {
    const ids = await seed(app);
    const both = `uuids=${ids["Ann's"]},${ids["Bob's"]}`;
    const ann = await permissions(app, "ann@example.com", both);
    assert.equal(ann.status, 200);
    assert.equal(ann.headers.get("cache-control"), "no-store");
    assert.deepEqual(await ann.json(), {
      [ids["Ann's"]]: { update: true, delete: true },
      [ids["Bob's"]]: { update: false, delete: false },
    });
    const eve = await permissions(app, "eve@example.com", both);
    assert.deepEqual(await eve.json(), {
      [ids["Ann's"]]: { update: true, delete: true },
      [ids["Bob's"]]: { update: true, delete: true },
    });
    // Upper-case UUIDs are the same records; an unknown one is allowed nothing.
    const unknown = crypto.randomUUID();
    const mixed = await permissions(
      app,
      "bob@example.com",
      `uuids=${ids["Bob's"].toUpperCase()},${unknown}`,
    );
    assert.deepEqual(await mixed.json(), {
      [ids["Bob's"]]: { update: true, delete: true },
      [unknown]: { update: false, delete: false },
    });
    // Authors read tags but may not change them: the guard refuses both.
    const tag = await app.query("BlogTags").create({ name: "deno" });
    assert.ok(tag.ok);
    const tags = await permissions(
      app,
      "ann@example.com",
      `uuids=${tag.record.UUID}`,
      "blog-tags",
    );
    assert.deepEqual(await tags.json(), {
      [String(tag.record.UUID)]: { update: false, delete: false },
    });
  },
);

dbTest(
  "bad lists are 400, unreadable collections 404, signed out 401",
  async (app) => {
    const ids = await seed(app);
    for (
      const query of [
        "",
        "uuids=",
        "uuids=nope",
        `uuids=${ids["Ann's"]},x`,
        "uuids=" +
        Array.from({ length: 101 }, () => crypto.randomUUID()).join(","),
      ]
    ) {
      const response = await permissions(app, "ann@example.com", query);
      assert.equal(response.status, 400, query.slice(0, 60));
      assert.equal((await response.json()).statusCode, 400);
    }
    const sessions = await permissions(
      app,
      "ann@example.com",
      `uuids=${ids["Ann's"]}`,
      "ratings",
    );
    assert.equal(sessions.status, 404);
    await sessions.body?.cancel();
    const missing = await permissions(
      app,
      "ann@example.com",
      `uuids=${ids["Ann's"]}`,
      "nothing-here",
    );
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const anonymous = await app.request(
      `/dashboard/api/collections/posts/permissions?uuids=${ids["Ann's"]}`,
    );
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  },
);

Deno.test("the permissions answer over a real socket", async () => {
  const app = await createTestApp({ root: ADMIN_APP, database: ":memory:" });
  const ids = await seed(app);
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    app.fetch,
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const login = await fetch(`${base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ann@example.com", password: PASSWORD }),
    });
    assert.equal(login.status, 200);
    await login.body?.cancel();
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0])
      .join("; ");
    const response = await fetch(
      `${base}/dashboard/api/collections/posts/permissions?uuids=${
        ids["Bob's"]
      }`,
      { headers: { cookie } },
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      [ids["Bob's"]]: { update: false, delete: false },
    });
  } finally {
    await server.shutdown();
    await app.close();
  }
});
