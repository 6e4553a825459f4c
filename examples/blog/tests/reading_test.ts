// Reading the blog: drafts hidden by the query:filter hook, translations, params and the
// catch-all route, the messages endpoint, CORS and the named cache middleware.
import assert from "node:assert/strict";
import { bootBlog, DATABASES, DEMO_PASSWORD } from "./_boot.ts";

type Post = { title: string; slug: string; published: boolean };

for (const { name, url } of DATABASES) {
  Deno.test(`[${name}] anonymous readers never see drafts`, async () => {
    const app = await bootBlog(url);
    try {
      const home = await app.request("/");
      assert.equal(home.status, 200);
      assert.equal(home.headers.get("cache-control"), "public, max-age=60");
      const { posts } = await home.json() as { posts: Post[] };
      assert.deepEqual(posts.map((p) => p.slug), [
        "access-scopes",
        "routes-from-files",
        "hello-strata",
      ]);

      const api = await app.request("/collections/posts?select=[slug]");
      assert.equal(api.status, 200);
      const listed = (await api.json() as Post[]).map((p) => p.slug).sort();
      assert.deepEqual(listed, [
        "access-scopes",
        "hello-strata",
        "routes-from-files",
      ]);

      const draft = await app.request("/posts/draft-ideas");
      assert.equal(draft.status, 404);
      await draft.body?.cancel();

      // Grace wrote the draft: she sees it, and so does the editor; Ada does not.
      const grace = await app.signIn("grace@example.com", DEMO_PASSWORD);
      const mine = await grace.request("/posts/draft-ideas");
      assert.equal(mine.status, 200);
      assert.equal(mine.headers.get("cache-control"), "private, no-store");
      assert.equal((await mine.json()).title, "Draft ideas");
      const editor = await app.signIn("editor@example.com", DEMO_PASSWORD);
      const all = await editor.request("/collections/posts?select=[slug]");
      assert.equal((await all.json() as Post[]).length, 4);
      const ada = await app.signIn("ada@example.com", DEMO_PASSWORD);
      const notHers = await ada.request("/posts/draft-ideas");
      assert.equal(notHers.status, 404);
      await notHers.body?.cancel();
    } finally {
      await app.close();
    }
  });

  Deno.test(`[${name}] posts read in English and German`, async () => {
    const app = await bootBlog(url);
    try {
      const en = await app.request("/posts/hello-strata");
      const de = await app.request("/posts/hello-strata?locale=de");
      const enPost = await en.json();
      const dePost = await de.json();
      assert.equal(enPost.title, "Hello Strata");
      assert.equal(dePost.title, "Hallo Strata");
      assert.deepEqual(dePost._translations, ["en", "de"]);
      assert.equal(dePost.author.name, "Ada");
      assert.deepEqual(dePost.tags.map((t: { name: string }) => t.name), [
        "news",
      ]);
      assert.deepEqual(
        dePost.comments.map((c: { body: string }) => c.body),
        ["Welcome aboard!"],
      );

      const api = await app.request(
        `/collections/posts/${dePost.UUID}?locale=de&select=[title]`,
      );
      assert.equal((await api.json()).title, "Hallo Strata");

      const bad = await app.request("/?locale=fr");
      assert.equal(bad.status, 400);
      assert.match((await bad.json()).message, /Unknown locale "fr"/);
    } finally {
      await app.close();
    }
  });
}

Deno.test("the archive is a catch-all route over years and months", async () => {
  const app = await bootBlog();
  try {
    const year = await (await app.request("/archive/2025")).json();
    assert.deepEqual(year.posts.map((p: Post) => p.slug), [
      "hello-strata",
      "routes-from-files",
      "access-scopes",
    ]);
    const march = await (await app.request("/archive/2025/03?locale=de"))
      .json();
    assert.equal(march.from, "2025-03-01");
    assert.equal(march.until, "2025-04-01");
    assert.deepEqual(march.posts.map((p: Post) => p.title), [
      "Routen aus Dateien",
      "Zugriffsbereiche",
    ]);
    const bad = await app.request("/archive/2025/13");
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const none = await app.request("/archive");
    assert.equal(none.status, 404, "a catch-all needs at least one segment");
    await none.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("comments hide their author from everyone but editors", async () => {
  const app = await bootBlog();
  try {
    const [comment] = await (await app.request("/collections/comments")).json();
    assert.equal(comment.body, "Welcome aboard!");
    assert.equal(comment.author, undefined);
    const editor = await app.signIn("editor@example.com", DEMO_PASSWORD);
    const [full] = await (await editor.request("/collections/comments"))
      .json();
    assert.equal(typeof full.author, "string");
  } finally {
    await app.close();
  }
});

Deno.test("the app's messages are served per language", async () => {
  const app = await bootBlog();
  try {
    const de = await (await app.request("/messages/blog/de")).json();
    assert.equal(de["blog.title"].template, "Strata-Blog");
    assert.equal(de["blog.title"].language, "de");
    const deAt = await (await app.request("/messages/blog/de-AT")).json();
    assert.equal(deAt["blog.readMore"].template, "Weiterlesen");
    const en = await (await app.request("/messages/blog/en")).json();
    assert.equal(en["blog.title"].template, "Strata blog");
  } finally {
    await app.close();
  }
});

Deno.test("CORS: the front-end origin is admitted, others are not", async () => {
  const app = await bootBlog();
  try {
    const preflight = await app.request("/collections/posts", {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "content-type",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(
      preflight.headers.get("access-control-allow-origin"),
      "http://localhost:5173",
    );
    assert.equal(
      preflight.headers.get("access-control-allow-credentials"),
      "true",
    );
    assert.match(
      preflight.headers.get("access-control-allow-methods") ?? "",
      /PATCH/,
    );
    const foreign = await app.request("/", {
      headers: { origin: "https://evil.example" },
    });
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    await foreign.body?.cancel();
  } finally {
    await app.close();
  }
});
