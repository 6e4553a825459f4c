// Exposure and access rules 1–12 of SPEC.md over HTTP, on tests/fixtures/api_app.
import assert from "node:assert/strict";
import { dbAppTest } from "../_helpers/db_apps.ts";
import { accessCalls } from "../fixtures/api_app/scope.ts";

type Rec = Record<string, unknown>;
const scope = (collection: string, operation: string, value: unknown) => ({
  [`x-scope-${collection}-${operation}`]: JSON.stringify(value),
});
const errors = (r: { body: unknown }) =>
  (r.body as { data: { errors: Rec } }).data.errors;
const code = (r: { body: unknown }) =>
  (r.body as { data: { code: string; path: string } }).data;

dbAppTest(
  "rule 1: unknown, unexposed and closed answer byte-identical 404s",
  "api_app",
  async ({ req }) => {
    const unknown = await req("GET", "/collections/nothing-here");
    const unexposed = await req("GET", "/collections/secrets");
    const closed = await req(
      "PATCH",
      `/collections/comments/${crypto.randomUUID()}`,
      { json: { body: "x" } },
    );
    const closedTranslations = await req(
      "GET",
      `/collections/authors/${crypto.randomUUID()}/translations`,
    );
    for (const response of [unknown, unexposed, closed, closedTranslations]) {
      assert.equal(response.status, 404);
      assert.equal(response.text, unknown.text);
      assert.deepEqual([...response.headers], [...unknown.headers]);
    }
  },
);

dbAppTest(
  "rule 2: a guarded operation needs a user (401) with the capability (403)",
  "api_app",
  async ({ req }) => {
    assert.equal((await req("GET", "/collections/tags")).status, 401);
    assert.equal(
      (await req("GET", "/collections/tags", {
        headers: { "x-test-user": "u" },
      })).status,
      403,
    );
    const wrong = {
      "x-test-user": "u",
      "x-test-caps": "collection.Tags.create",
    };
    assert.equal(
      (await req("GET", "/collections/tags", { headers: wrong })).status,
      403,
    );
    for (
      const caps of [
        "collection.Tags.read",
        "collection.Tags.*",
        "collection.*",
        "*",
      ]
    ) {
      const response = await req("GET", "/collections/tags", {
        headers: { "x-test-user": "u", "x-test-caps": caps },
      });
      assert.equal(response.status, 200, caps);
    }
    const almost = {
      "x-test-user": "u",
      "x-test-caps": "collection.Tag.*,collection.Tags",
    };
    assert.equal(
      (await req("GET", "/collections/tags", { headers: almost })).status,
      403,
    );
  },
);

dbAppTest(
  "rule 3: operation middleware runs after guard and globals; an answer stops the operation",
  "api_app",
  async ({ req }) => {
    const tagged = await req("GET", "/collections/posts");
    assert.equal(tagged.headers.get("x-tag-read"), "1");
    const denied = await req("GET", "/collections/posts", {
      headers: { "x-deny-posts": "1" },
    });
    assert.deepEqual(denied.body, { deniedBy: "tag-read" });
    const before = accessCalls.length;
    await req("GET", "/collections/posts", {
      headers: { "x-deny-posts": "1" },
    });
    assert.equal(accessCalls.length, before); // access never ran
  },
);

dbAppTest(
  "rule 4: public with require-auth needs a user but no capability",
  "api_app",
  async ({ req }) => {
    assert.equal((await req("GET", "/collections/members")).status, 401);
    assert.equal(
      (await req("GET", "/collections/members", {
        headers: { "x-test-user": "u" },
      })).status,
      200,
    );
  },
);

dbAppTest(
  "rule 5: access runs once per request with the operation and the input",
  "api_app",
  async ({ req }) => {
    let before = accessCalls.length;
    await req("GET", "/collections/posts?where={views:1}");
    assert.deepEqual(accessCalls.slice(before), [{
      collection: "Posts",
      operation: "read",
      input: undefined,
    }]);
    before = accessCalls.length;
    const created = await req("POST", "/collections/posts", {
      json: { title: "T" },
    });
    assert.deepEqual(accessCalls.slice(before), [{
      collection: "Posts",
      operation: "create",
      input: { title: "T" },
    }]);
    before = accessCalls.length;
    await req("PATCH", `/collections/posts/${(created.body as Rec).UUID}`, {
      json: { views: 9 },
    });
    assert.deepEqual(accessCalls.slice(before), [{
      collection: "Posts",
      operation: "update",
      input: { views: 9 },
    }]);
    before = accessCalls.length;
    await req("DELETE", `/collections/posts/${(created.body as Rec).UUID}`);
    assert.deepEqual(accessCalls.slice(before), [{
      collection: "Posts",
      operation: "delete",
      input: undefined,
    }]);
  },
);

dbAppTest(
  "a false verdict is 404; the scope where is ANDed into every read",
  "api_app",
  async ({ req }) => {
    for (const views of [1, 5, 10]) {
      await req("POST", "/collections/posts", {
        json: { title: `v${views}`, views },
      });
    }
    const refused = await req("GET", "/collections/posts", {
      headers: scope("posts", "read", false),
    });
    assert.equal(refused.status, 404);
    const scoped = scope("posts", "read", { where: { views: { atLeast: 5 } } });
    const list = await req("GET", "/collections/posts?order=[views]", {
      headers: scoped,
    });
    assert.deepEqual((list.body as Rec[]).map((r) => r.views), [5, 10]);
    const widen = await req(
      "GET",
      "/collections/posts?where={or:[{views:1},{views:10}]}",
      { headers: scoped },
    );
    assert.deepEqual((widen.body as Rec[]).map((r) => r.views), [10]);
    const counted = await req("GET", "/collections/posts?page=1", {
      headers: scoped,
    });
    assert.equal((counted.body as { total: number }).total, 2);
  },
);

dbAppTest(
  "the order of checks: a refused caller learns nothing from a malformed request",
  "api_app",
  async ({ req }) => {
    const malformed = "/collections/tags?where={nope:{bad";
    assert.equal((await req("GET", malformed)).status, 401);
    const refusedPosts = await req("GET", "/collections/posts?where={nope", {
      headers: scope("posts", "read", false),
    });
    assert.equal(refusedPosts.status, 404);
    const refusedBody = await req("POST", "/collections/posts", {
      body: "{not json",
      headers: {
        "content-type": "application/json",
        ...scope("posts", "create", false),
      },
    });
    assert.equal(refusedBody.status, 404);
    const refusedHuge = await req("POST", "/collections/posts", {
      body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
      headers: {
        "content-type": "application/json",
        ...scope("posts", "create", false),
      },
    });
    assert.equal(refusedHuge.status, 404);
    const allowedHuge = await req("POST", "/collections/posts", {
      body: JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    assert.equal(allowedHuge.status, 413);
  },
);

dbAppTest(
  "rule 6: a field outside the scope select is refused like a non-existent one, UUID included",
  "api_app",
  async ({ req }) => {
    await req("POST", "/collections/posts", { json: { title: "T", views: 3 } });
    const narrow = scope("posts", "read", { select: ["title"] });
    const nonexistent = await req("GET", "/collections/posts?where={nope:1}", {
      headers: narrow,
    });
    for (
      const [param, path] of [
        ["where={views:1}", "where.views"],
        ["where={UUID:{in:[]}}", "where.UUID"],
        ["order=[views]", "order[0]"],
        ["select=[title,UUID]", "select[1]"],
      ]
    ) {
      const response = await req("GET", `/collections/posts?${param}`, {
        headers: narrow,
      });
      assert.equal(response.status, 400, param);
      assert.deepEqual(code(response), { code: "invalidField", path }, param);
      assert.equal(
        (response.body as Rec).message,
        (nonexistent.body as Rec).message,
      );
    }
    const list = await req("GET", "/collections/posts", { headers: narrow });
    assert.deepEqual(Object.keys((list.body as Rec[])[0]).sort(), [
      "_translations",
      "title",
    ]);
  },
);

dbAppTest(
  "rule 7: on update only fields inside select write; the answer carries them alone",
  "api_app",
  async ({ req }) => {
    const post = (await req("POST", "/collections/posts", {
      json: { title: "T", views: 1 },
    })).body as Rec;
    const narrow = scope("posts", "update", { select: ["UUID", "views"] });
    const outside = await req("PATCH", `/collections/posts/${post.UUID}`, {
      json: { title: "New" },
      headers: narrow,
    });
    assert.equal(outside.status, 422);
    assert.ok(errors(outside).title);
    const inside = await req("PATCH", `/collections/posts/${post.UUID}`, {
      json: { views: 7 },
      headers: narrow,
    });
    assert.equal(inside.status, 200);
    assert.deepEqual(Object.keys(inside.body as Rec).sort(), [
      "UUID",
      "_translations",
      "views",
    ]);
    assert.equal((inside.body as Rec).views, 7);
    const reread = (await req("GET", `/collections/posts/${post.UUID}`))
      .body as Rec;
    assert.equal(reread.title, "T");
  },
);

dbAppTest(
  "rule 8: update or delete of a row outside the scope where is the 404 of a missing record",
  "api_app",
  async ({ req }) => {
    const low = (await req("POST", "/collections/posts", {
      json: { title: "low", views: 1 },
    })).body as Rec;
    const onlyHigh = { where: { views: { atLeast: 5 } } };
    const update = await req("PATCH", `/collections/posts/${low.UUID}`, {
      json: { views: 2 },
      headers: scope("posts", "update", onlyHigh),
    });
    const missing = await req(
      "PATCH",
      `/collections/posts/${crypto.randomUUID()}`,
      {
        json: { views: 2 },
        headers: scope("posts", "update", onlyHigh),
      },
    );
    assert.equal(update.status, 404);
    assert.equal(update.text, missing.text);
    const del = await req("DELETE", `/collections/posts/${low.UUID}`, {
      headers: scope("posts", "delete", onlyHigh),
    });
    assert.equal(del.status, 404);
    assert.equal(
      ((await req("GET", `/collections/posts/${low.UUID}`)).body as Rec).views,
      1,
    );
    // The filter reads the row as stored: a body may move a row out of the scope.
    const high = (await req("POST", "/collections/posts", {
      json: { title: "high", views: 9 },
    })).body as Rec;
    const moved = await req("PATCH", `/collections/posts/${high.UUID}`, {
      json: { views: 0 },
      headers: scope("posts", "update", onlyHigh),
    });
    assert.equal(moved.status, 200);
    assert.equal((moved.body as Rec).views, 0);
  },
);

dbAppTest(
  "rule 9: a create takes only the verdict",
  "api_app",
  async ({ req }) => {
    const refused = await req("POST", "/collections/posts", {
      json: { title: "T" },
      headers: scope("posts", "create", false),
    });
    assert.equal(refused.status, 404);
    const scoped = await req("POST", "/collections/posts", {
      json: { title: "T", views: 1 },
      headers: scope("posts", "create", {
        where: { views: { atLeast: 100 } },
        select: ["title"],
      }),
    });
    assert.equal(scoped.status, 201);
    assert.equal((scoped.body as Rec).views, 1);
  },
);

dbAppTest(
  "scope limit caps the window; a request's limit only lowers it; scope locale is the default",
  "api_app",
  async ({ req }) => {
    for (let i = 0; i < 6; i++) {
      await req("POST", "/collections/posts", {
        json: { title: `p${i}`, views: i },
      });
    }
    const capped = scope("posts", "read", { limit: 3 });
    assert.equal(
      ((await req("GET", "/collections/posts?order=[views]", {
        headers: capped,
      })).body as Rec[]).length,
      3,
    );
    assert.equal(
      ((await req("GET", "/collections/posts?limit=100", { headers: capped }))
        .body as Rec[]).length,
      3,
    );
    assert.equal(
      ((await req("GET", "/collections/posts?limit=2", { headers: capped }))
        .body as Rec[]).length,
      2,
    );
    assert.deepEqual(
      ((await req("GET", "/collections/posts?order=[views]&offset=2&limit=5", {
        headers: capped,
      })).body as Rec[])
        .map((r) => r.views),
      [2],
    );
    const page =
      (await req("GET", "/collections/posts?perPage=2&page=2&order=[views]", {
        headers: capped,
      }))
        .body as { records: Rec[]; total: number; lastPage: number };
    assert.equal(page.total, 3);
    assert.equal(page.lastPage, 2);
    assert.deepEqual(page.records.map((r) => r.views), [2]);
    const de = await req("GET", "/collections/posts?limit=1", {
      headers: scope("posts", "read", { locale: "de" }),
    });
    assert.equal((de.body as Rec[])[0].title, null);
  },
);

dbAppTest(
  "rule 10: a where over translatable fields matches per locale and narrows _translations",
  "api_app",
  async ({ req }) => {
    const post = (await req("POST", "/collections/posts", {
      json: { title: "Hello", status: "published" },
    })).body as Rec;
    await req("PATCH", `/collections/posts/${post.UUID}?locale=de`, {
      json: { title: "Hallo", status: "draft" },
    });
    const published = scope("posts", "read", {
      where: { status: "published" },
    });
    const en = await req("GET", `/collections/posts/${post.UUID}`, {
      headers: published,
    });
    assert.deepEqual((en.body as Rec)._translations, ["en"]);
    const de = await req("GET", `/collections/posts/${post.UUID}?locale=de`, {
      headers: published,
    });
    assert.equal(de.status, 404);
    const locales = await req(
      "GET",
      `/collections/posts/${post.UUID}/translations`,
      { headers: published },
    );
    assert.deepEqual(locales.body, { locales: ["en"] });
    const all = await req(
      "GET",
      `/collections/posts/${post.UUID}/translations`,
    );
    assert.deepEqual(all.body, { locales: ["en", "de"] });
    const plain = scope("posts", "read", { where: { views: 0 } });
    assert.deepEqual(
      ((await req("GET", `/collections/posts/${post.UUID}?locale=de`, {
        headers: plain,
      })).body as Rec)._translations,
      ["en", "de"],
    );
  },
);

dbAppTest(
  "rule 7 (populate): another collection's read policy decides what comes back",
  "api_app",
  async ({ req }) => {
    const ada = (await req("POST", "/collections/authors", {
      json: { name: "Ada", email: "ada@x" },
    })).body as Rec;
    const bob =
      (await req("POST", "/collections/authors", { json: { name: "Bob" } }))
        .body as Rec;
    await req("POST", "/collections/posts", {
      json: { title: "by ada", author: ada.UUID },
    });
    await req("POST", "/collections/posts", {
      json: { title: "by bob", author: bob.UUID },
    });
    const onlyAda = scope("authors", "read", {
      where: { name: "Ada" },
      select: ["UUID", "name"],
    });
    const list =
      (await req("GET", "/collections/posts?populate=[author]&order=[title]", {
        headers: onlyAda,
      })).body as Rec[];
    assert.deepEqual(list.map((p) => p.author && (p.author as Rec).name), [
      "Ada",
      null,
    ]);
    assert.equal("email" in (list[0].author as Rec), false);
    const probe = await req(
      "GET",
      "/collections/posts?where={author:{has:{name:Bob}}}",
      { headers: onlyAda },
    );
    assert.deepEqual(probe.body, []);
    const count = await req(
      "GET",
      "/collections/posts?page=1&where={author:{has:{}}}",
      { headers: onlyAda },
    );
    assert.equal((count.body as { total: number }).total, 1);
    const outside = await req(
      "GET",
      "/collections/posts?where={author:{has:{email:x}}}",
      { headers: onlyAda },
    );
    assert.deepEqual(code(outside), {
      code: "invalidField",
      path: "where.author.has.email",
    });
    // A middleware that answers makes the target unreachable.
    const denied = (await req("GET", "/collections/posts?populate=[author]", {
      headers: { "x-deny-authors": "1" },
    })).body as Rec[];
    assert.ok(denied.every((p) => p.author === null));
    // Writing a link to a record the caller may not read is the 422 of a missing one.
    const link = await req("POST", "/collections/posts", {
      json: { title: "x", author: bob.UUID },
      headers: onlyAda,
    });
    assert.equal(link.status, 422);
    const missing = await req("POST", "/collections/posts", {
      json: { title: "x", author: crypto.randomUUID() },
    });
    assert.equal(errors(link).author, errors(missing).author);
  },
);

dbAppTest(
  "a guarded target is unreachable without the capability",
  "api_app",
  async ({ req }) => {
    const admin = { "x-test-user": "a", "x-test-caps": "*" };
    const tag = (await req("POST", "/collections/tags", {
      json: { name: "deno" },
      headers: admin,
    })).body as Rec;
    const anonymousLink = await req("POST", "/collections/posts", {
      json: { title: "x", tags: [tag.UUID] },
    });
    assert.equal(anonymousLink.status, 422);
    assert.ok(errors(anonymousLink)["tags[0]"]);
    await req("POST", "/collections/posts", {
      json: { title: "tagged", tags: [tag.UUID] },
      headers: admin,
    });
    const anonymous = (await req("GET", "/collections/posts?populate=[tags]"))
      .body as Rec[];
    assert.deepEqual(anonymous[0].tags, []);
    const allowed = (await req("GET", "/collections/posts?populate=[tags]", {
      headers: admin,
    })).body as Rec[];
    assert.equal((allowed[0].tags as Rec[])[0].name, "deno");
  },
);

dbAppTest(
  "rule 11: the translation copy calls the update access twice",
  "api_app",
  async ({ req }) => {
    const post = (await req("POST", "/collections/posts", {
      json: { title: "Hello", status: "published" },
    })).body as Rec;
    const before = accessCalls.length;
    const copied = await req(
      "POST",
      `/collections/posts/${post.UUID}/translations/copy?locale=de`,
      {
        json: { source: "en" },
      },
    );
    assert.equal(copied.status, 200);
    assert.equal((copied.body as Rec).title, "Hello");
    assert.deepEqual((copied.body as Rec)._translations, ["en", "de"]);
    assert.deepEqual(accessCalls.slice(before), [
      { collection: "Posts", operation: "update", input: {} },
      {
        collection: "Posts",
        operation: "update",
        input: { title: "Hello", status: "published" },
      },
    ]);
  },
);

dbAppTest(
  "a kept query plan is reused only where nothing but the query string decides it",
  "api_app",
  async ({ req }) => {
    for (const views of [1, 5, 10]) {
      await req("POST", "/collections/posts", {
        json: { title: `v${views}`, views },
      });
    }
    const path = "/collections/posts?where={views:{atLeast:5}}&order=[views]";
    const views = (r: { body: unknown }) =>
      (r.body as Rec[]).map((record) => record.views);
    // Parsed once unscoped (and kept), then asked again by callers the scope narrows.
    assert.deepEqual(views(await req("GET", path)), [5, 10]);
    assert.deepEqual(views(await req("GET", path)), [5, 10]);
    const narrow = await req("GET", path, {
      headers: scope("posts", "read", { select: ["title"] }),
    });
    assert.equal(narrow.status, 400, "the scope's select refuses views");
    assert.deepEqual(code(narrow), {
      code: "invalidField",
      path: "where.views",
    });
    const scoped = await req("GET", path, {
      headers: scope("posts", "read", { where: { views: { atMost: 5 } } }),
    });
    assert.deepEqual(views(scoped), [5], "the scope's where still applies");
    const one = (await req("GET", path)).body as Rec[];
    const read = await req("GET", `/collections/posts/${one[0].UUID}`, {
      headers: scope("posts", "read", { where: { views: 1 } }),
    });
    assert.equal(read.status, 404, "a kept by-UUID plan keeps the scope too");
    assert.deepEqual(views(await req("GET", path)), [5, 10]);
  },
);
