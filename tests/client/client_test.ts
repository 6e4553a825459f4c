// @strata/strata/client from Deno against the example app served on a real socket, on SQLite
// and PostgreSQL: every method, sign-in with the token kept from the login cookie, and errors
// as StrataError.
import assert from "node:assert/strict";
import { createClient, StrataError } from "../../client/mod.ts";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import { DEMO_PASSWORD, seedBlog } from "../../examples/blog/seed.ts";
import { PG_URL } from "../_helpers/db_apps.ts";

const BLOG = new URL("../../examples/blog/", import.meta.url).pathname;

type Post = {
  UUID: string;
  title: string;
  slug: string;
  author: string | { UUID: string; name: string };
  published: boolean;
  _translations: string[];
};
type Registry = {
  Posts: {
    record: Post;
    create: { title: string; slug: string; author: string };
    update: { title?: string; published?: boolean };
  };
  Authors: {
    record: { UUID: string; name: string };
    create: { name: string };
    update: { name?: string };
  };
};

function served(
  name: string,
  fn: (app: TestApp, baseUrl: string) => Promise<void>,
): void {
  for (const database of [":memory:", PG_URL]) {
    Deno.test({
      name: `${name} [${database === ":memory:" ? "sqlite" : "postgres"}]`,
      ignore: database === undefined,
      async fn() {
        const app = await createTestApp({ root: BLOG, database });
        const server = Deno.serve(
          { port: 0, hostname: "127.0.0.1", onListen() {} },
          app.fetch,
        );
        try {
          await seedBlog(app);
          await fn(app, `http://127.0.0.1:${server.addr.port}`);
        } finally {
          await server.shutdown();
          await app.close();
        }
      },
    });
  }
}

async function refused(
  promise: Promise<unknown>,
  status: number,
): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof StrataError, String(error));
    assert.equal(error.status, status, error.message);
    return error;
  }
  assert.fail(`expected a ${status}`);
}

served(
  "reads: list, paginated list, query, get with select and populate",
  async (_app, baseUrl) => {
    const client = createClient<Registry>({ baseUrl });
    const posts = client.collection("Posts");
    assert.equal(posts.path, "posts");
    const all = await posts.list({ order: ["slug"] });
    assert.ok(Array.isArray(all) && all.length > 0);
    assert.deepEqual(
      all.map((p) => p.slug),
      [...all.map((p) => p.slug)].sort(),
    );
    const page = await posts.list({ page: 1, perPage: 1 });
    assert.equal(page.records.length, 1);
    assert.equal(page.perPage, 1);
    assert.ok(page.total >= 1);
    const filtered = await posts.list({
      where: { slug: { equalsTo: all[0].slug } },
      select: ["slug", "title"],
    });
    assert.ok(filtered[0].slug && filtered[0].title);
    assert.ok(!("body" in filtered[0]), "select narrows the record");

    assert.equal(filtered.length, 1);
    const queried = await posts.query({ where: { slug: all[0].slug } });
    assert.ok(Array.isArray(queried) && queried.length === 1);
    const one = await posts.get(all[0].UUID, {
      populate: ["author"],
      locale: "de",
    });
    assert.equal(typeof one.author, "object");
    const german = await posts.list({
      locale: "de",
      where: { slug: "hello-strata" },
    });
    assert.equal(german[0].title, "Hallo Strata");
  },
);

served(
  "writes and translations, signed in with the token from the login cookie",
  async (_app, baseUrl) => {
    const client = createClient<Registry>({ baseUrl });
    assert.equal(client.token, undefined);
    const user = await client.auth.login({
      email: "admin@example.com",
      password: DEMO_PASSWORD,
    });
    assert.equal(user.email, "admin@example.com");
    assert.ok(client.token, "the token is kept outside browsers");
    assert.equal((await client.auth.me()).email, "admin@example.com");
    const posts = client.collection("Posts");
    const author = (await client.collection("Authors").list({ limit: 1 }))[0];
    const created = await posts.create({
      title: "From the client",
      slug: "from-the-client",
      author: author.UUID,
    });
    assert.equal(created.title, "From the client");
    const updated = await posts.update(created.UUID, { title: "Vom Client" }, {
      locale: "de",
    });
    assert.equal(updated.title, "Vom Client");
    assert.deepEqual((await posts.translations(created.UUID)).locales, [
      "en",
      "de",
    ]);
    await posts.deleteTranslation(created.UUID, "de");
    assert.deepEqual((await posts.translations(created.UUID)).locales, ["en"]);
    const copied = await posts.copyTranslation(created.UUID, {
      locale: "de",
      source: "en",
    });
    assert.equal(copied.title, "From the client");
    assert.equal(await posts.delete(created.UUID), undefined);
    await refused(posts.get(created.UUID), 404);
    await client.auth.logout();
    assert.equal(client.token, undefined);
    await refused(client.auth.me(), 401);
  },
);

served(
  "errors are StrataError with status, code, path and errors",
  async (_app, baseUrl) => {
    const client = createClient<Registry>({ baseUrl });
    const posts = client.collection("Posts");
    const malformed = await refused(
      posts.list({ where: { nope: 1 } as never }),
      400,
    );
    assert.equal(malformed.code, "invalidField");
    assert.equal(malformed.path, "where.nope");
    const unauthorized = await refused(
      posts.create({ title: "x", slug: "x", author: crypto.randomUUID() }),
      401,
    );
    assert.equal(unauthorized.code, undefined);
    const wrong = await refused(
      client.auth.login({ email: "admin@example.com", password: "wrong" }),
      401,
    );
    assert.equal(typeof wrong.message, "string");
    await client.auth.login({
      email: "admin@example.com",
      password: DEMO_PASSWORD,
    });
    const invalid = await refused(
      posts.create({ title: "", slug: "Bad Slug", author: "nope" }),
      422,
    );
    assert.ok(invalid.errors?.slug);
    assert.ok(invalid.errors?.title);
    const raw = await client.request<{ slug: string; comments: unknown[] }>(
      "GET",
      "/posts/hello-strata",
      { query: { locale: "de" } },
    );
    assert.equal(raw.slug, "hello-strata");
    assert.ok(Array.isArray(raw.comments));
    await refused(client.request("GET", "/posts/no-such-post"), 404);
  },
);

Deno.test("an explicit token and headers are sent; a custom fetch is used", async () => {
  const seen: Request[] = [];
  const client = createClient({
    baseUrl: "http://example.test/api/",
    token: "abc",
    headers: () => ({ "accept-language": "de" }),
    fetch: (input, init) => {
      seen.push(new Request(input, init));
      return Promise.resolve(
        new Response(JSON.stringify([{ UUID: "1" }]), {
          headers: { "content-type": "application/json" },
        }),
      );
    },
  });
  const records = await client.collection("UserGroups").list({
    where: { name: { startsWith: "a" } },
    select: ["name"],
    limit: 3,
  });
  assert.deepEqual(records, [{ UUID: "1" }]);
  const url = new URL(seen[0].url);
  assert.equal(url.pathname, "/api/collections/user-groups");
  assert.equal(url.searchParams.get("where"), '{"name":{"startsWith":"a"}}');
  assert.equal(url.searchParams.get("select"), '["name"]');
  assert.equal(url.searchParams.get("limit"), "3");
  assert.equal(seen[0].headers.get("authorization"), "Bearer abc");
  assert.equal(seen[0].headers.get("accept-language"), "de");
});

Deno.test("an error answer without a JSON body still becomes a StrataError", async () => {
  const client = createClient({
    baseUrl: "http://example.test",
    fetch: () =>
      Promise.resolve(
        new Response("oops", { status: 502, statusText: "Bad Gateway" }),
      ),
  });
  const error = await refused(client.auth.me(), 502);
  assert.equal(error.message, "Bad Gateway");
  assert.equal(error.errors, undefined);
});

Deno.test("the token is taken from the session cookie, not from another cookie of the login answer", async () => {
  const loginAnswer = (sessionCookie: string) => () => {
    const headers = new Headers({ "content-type": "application/json" });
    headers.append("set-cookie", "theme=dark; Path=/");
    headers.append("set-cookie", `${sessionCookie}; Path=/; HttpOnly`);
    return Promise.resolve(
      new Response(JSON.stringify({ email: "a@example.com" }), { headers }),
    );
  };
  const client = createClient({
    baseUrl: "http://example.test",
    fetch: loginAnswer("session=abc"),
  });
  await client.auth.login({ email: "a@example.com", password: "p" });
  assert.equal(client.token, "abc");
  const renamed = createClient({
    baseUrl: "http://example.test",
    cookieName: "sid",
    fetch: loginAnswer("sid=xyz"),
  });
  await renamed.auth.login({ email: "a@example.com", password: "p" });
  assert.equal(renamed.token, "xyz");
});
