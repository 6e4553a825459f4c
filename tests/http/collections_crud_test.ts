// Collections endpoints (SPEC.md "Collections endpoints" rules 1–8) over HTTP.
import assert from "node:assert/strict";
import { dbAppTest } from "../_helpers/db_apps.ts";

type Rec = Record<string, unknown>;

dbAppTest(
  "create answers 201 with the stored record, equal to a re-read",
  "api_app",
  async ({ req }) => {
    const created = await req("POST", "/collections/posts", {
      json: { title: "Hello", views: 3 },
    });
    assert.equal(created.status, 201);
    const record = created.body as Rec;
    assert.equal(record.title, "Hello");
    assert.equal(record.views, 3);
    assert.equal(record.status, "draft"); // default filled
    assert.equal(record.published, false);
    assert.equal("secret" in record, false); // write-only never returned
    assert.deepEqual(record._translations, ["en"]);
    const reread = await req("GET", `/collections/posts/${record.UUID}`);
    assert.equal(reread.status, 200);
    assert.deepEqual(reread.body, record);
  },
);

dbAppTest(
  "list answers a plain array, or the paginated envelope",
  "api_app",
  async ({ req }) => {
    for (let i = 0; i < 25; i++) {
      await req("POST", "/collections/posts", {
        json: { title: `Post ${i}`, views: i },
      });
    }
    const plain = await req("GET", "/collections/posts?order=[views]&limit=3");
    assert.equal(plain.status, 200);
    assert.deepEqual((plain.body as Rec[]).map((r) => r.views), [0, 1, 2]);
    const paged = await req("GET", "/collections/posts?page=2&order=[-views]");
    const envelope = paged.body as {
      records: Rec[];
      total: number;
      page: number;
      perPage: number;
      lastPage: number;
    };
    assert.equal(envelope.total, 25);
    assert.equal(envelope.page, 2);
    assert.equal(envelope.perPage, 20);
    assert.equal(envelope.lastPage, 2);
    assert.deepEqual(envelope.records.map((r) => r.views), [4, 3, 2, 1, 0]);
    const perPageOnly = await req("GET", "/collections/posts?perPage=10");
    assert.equal((perPageOnly.body as { page: number }).page, 1);
  },
);

dbAppTest(
  "the where grammar filters lists; POST …/query reads identically",
  "api_app",
  async ({ req }) => {
    for (const [title, views] of [["a", 5], ["b", 15], ["c", 25]] as const) {
      await req("POST", "/collections/posts", { json: { title, views } });
    }
    const url = await req(
      "GET",
      "/collections/posts?where={views:{atLeast:10}}&order=[-views]&select=[title,views]",
    );
    assert.equal(url.status, 200);
    const body = await req("POST", "/collections/posts/query", {
      json: {
        where: { views: { atLeast: 10 } },
        order: ["-views"],
        select: ["title", "views"],
      },
    });
    assert.equal(body.status, 200);
    assert.deepEqual(url.body, body.body);
    assert.deepEqual((url.body as Rec[]).map((r) => r.title), ["c", "b"]);
    const either = await req(
      "GET",
      "/collections/posts?where={or:[{views:5},{views:25}]}&order=[views]",
    );
    assert.deepEqual((either.body as Rec[]).map((r) => r.views), [5, 25]);
  },
);

dbAppTest(
  "a malformed query is a 400 with a stable code and path",
  "api_app",
  async ({ req }) => {
    const cases: [string, string, string][] = [
      [
        "/collections/posts?where={views:{atLeast:`x}}",
        "invalidValue",
        "where.views.atLeast",
      ],
      ["/collections/posts?where={nope:1}", "invalidField", "where.nope"],
      ["/collections/posts?where={secret:1}", "invalidField", "where.secret"],
      ["/collections/posts?bogus=1", "unknownParam", "bogus"],
      ["/collections/posts?limit=1&page=1", "invalidPagination", "page"],
      [
        "/collections/posts?where={rating:null}",
        "nullEquality",
        "where.rating",
      ],
    ];
    for (const [path, code, at] of cases) {
      const response = await req("GET", path);
      assert.equal(response.status, 400, path);
      assert.deepEqual((response.body as { data: unknown }).data, {
        code,
        path: at,
      }, path);
    }
  },
);

dbAppTest(
  "read one accepts only select, populate and locale",
  "api_app",
  async ({ req }) => {
    const { body } = await req("POST", "/collections/posts", {
      json: { title: "One" },
    });
    const uuid = (body as Rec).UUID;
    const filtered = await req(
      "GET",
      `/collections/posts/${uuid}?where={views:1}`,
    );
    assert.equal(filtered.status, 400);
    assert.deepEqual((filtered.body as { data: unknown }).data, {
      code: "unknownParam",
      path: "where",
    });
    const windowed = await req("GET", `/collections/posts/${uuid}?limit=1`);
    assert.equal(windowed.status, 400);
    const selected = await req(
      "GET",
      `/collections/posts/${uuid}?select=[title]`,
    );
    assert.equal(selected.status, 200);
    assert.equal((selected.body as Rec).title, "One");
    assert.equal("views" in (selected.body as Rec), false);
    const missing = await req(
      "GET",
      `/collections/posts/${crypto.randomUUID()}`,
    );
    assert.equal(missing.status, 404);
    const malformed = await req("GET", "/collections/posts/not-a-uuid");
    assert.equal(malformed.status, 404);
  },
);

dbAppTest(
  "update answers the final state; delete answers 204",
  "api_app",
  async ({ req }) => {
    const { body } = await req("POST", "/collections/posts", {
      json: { title: "Draft", views: 1 },
    });
    const uuid = (body as Rec).UUID;
    const updated = await req("PATCH", `/collections/posts/${uuid}`, {
      json: { views: 2, published: true },
    });
    assert.equal(updated.status, 200);
    assert.equal((updated.body as Rec).views, 2);
    assert.equal((updated.body as Rec).published, true);
    assert.equal((updated.body as Rec).title, "Draft");
    const deleted = await req("DELETE", `/collections/posts/${uuid}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, "");
    assert.equal((await req("GET", `/collections/posts/${uuid}`)).status, 404);
    assert.equal(
      (await req("DELETE", `/collections/posts/${uuid}`)).status,
      404,
    );
    assert.equal(
      (await req("PATCH", `/collections/posts/${uuid}`, { json: { views: 3 } }))
        .status,
      404,
    );
  },
);

dbAppTest("DELETE takes no params", "api_app", async ({ req }) => {
  const { body } = await req("POST", "/collections/posts", {
    json: { title: "Keep" },
  });
  const uuid = (body as Rec).UUID;
  const response = await req("DELETE", `/collections/posts/${uuid}?force=1`);
  assert.equal(response.status, 400);
  assert.deepEqual((response.body as { data: unknown }).data, {
    code: "unknownParam",
    path: "force",
  });
  assert.equal((await req("GET", `/collections/posts/${uuid}`)).status, 200);
});

dbAppTest(
  "a delete blocked by a restrict reference is 409",
  "api_app",
  async ({ req }) => {
    const post = (await req("POST", "/collections/posts", {
      json: { title: "Referenced" },
    })).body as Rec;
    const comment = await req("POST", "/collections/comments", {
      json: { body: "Nice", post: post.UUID },
    });
    assert.equal(comment.status, 201);
    const blocked = await req("DELETE", `/collections/posts/${post.UUID}`);
    assert.equal(blocked.status, 409);
    assert.equal(
      (await req("GET", `/collections/posts/${post.UUID}`)).status,
      200,
    );
  },
);

dbAppTest(
  "validation failures are 422 with every field at once",
  "api_app",
  async ({ req }) => {
    const response = await req("POST", "/collections/posts", {
      json: { views: -1, rating: "high", nope: 1, UUID: "x" },
    });
    assert.equal(response.status, 422);
    const errors = (response.body as { data: { errors: Rec } }).data.errors;
    assert.deepEqual(Object.keys(errors).sort(), [
      "UUID",
      "nope",
      "rating",
      "title",
      "views",
    ]);
  },
);

dbAppTest(
  "write-only, immutable and writable:false fields are refused like unknown ones",
  "api_app",
  async ({ req }) => {
    const created = await req("POST", "/collections/posts", {
      json: { title: "T", slug: "t", secret: "s" },
    });
    assert.equal(created.status, 201);
    const uuid = (created.body as Rec).UUID;
    const unknown = await req("PATCH", `/collections/posts/${uuid}`, {
      json: { nope: 1 },
    });
    const immutable = await req("PATCH", `/collections/posts/${uuid}`, {
      json: { slug: "u" },
    });
    const computed = await req("PATCH", `/collections/posts/${uuid}`, {
      json: { computed: "x" },
    });
    const messageOf = (r: { body: unknown }, key: string) =>
      (r.body as { data: { errors: Rec } }).data.errors[key];
    assert.equal(immutable.status, 422);
    assert.equal(computed.status, 422);
    assert.equal(messageOf(immutable, "slug"), messageOf(unknown, "nope"));
    assert.equal(messageOf(computed, "computed"), messageOf(unknown, "nope"));
  },
);

dbAppTest(
  "a malformed or non-JSON body is a plain 400 / 415",
  "api_app",
  async ({ req }) => {
    const malformed = await req("POST", "/collections/posts", {
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    assert.equal(malformed.status, 400);
    assert.equal((malformed.body as { data?: unknown }).data, undefined);
    const form = await req("POST", "/collections/posts", {
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(form.status, 415);
    const array = await req("POST", "/collections/posts", { json: [1] });
    assert.equal(array.status, 400);
  },
);

dbAppTest(
  "populate loads relations; links to missing records are invalidReference",
  "api_app",
  async ({ req }) => {
    const author =
      (await req("POST", "/collections/authors", { json: { name: "Ada" } }))
        .body as Rec;
    const bad = await req("POST", "/collections/posts", {
      json: { title: "X", author: crypto.randomUUID() },
    });
    assert.equal(bad.status, 422);
    assert.ok((bad.body as { data: { errors: Rec } }).data.errors.author);
    const post = (await req("POST", "/collections/posts", {
      json: { title: "X", author: author.UUID },
    })).body as Rec;
    assert.equal(post.author, author.UUID);
    const populated = await req(
      "GET",
      `/collections/posts/${post.UUID}?populate=[author]`,
    );
    assert.equal(((populated.body as Rec).author as Rec).name, "Ada");
    const has = await req(
      "GET",
      "/collections/posts?where={author:{has:{name:Ada}}}",
    );
    assert.equal((has.body as Rec[]).length, 1);
  },
);

dbAppTest(
  "unpaged lists clamp to maxLimit and perPage to maxPerPage (query.guards)",
  "api_app",
  async ({ req }) => {
    for (let i = 0; i < 5; i++) {
      await req("POST", "/collections/authors", { json: { name: `a${i}` } });
    }
    assert.equal(
      ((await req("GET", "/collections/authors")).body as Rec[]).length,
      3,
    );
    assert.equal(
      ((await req("GET", "/collections/authors?limit=100")).body as Rec[])
        .length,
      3,
    );
    const page = (await req("GET", "/collections/authors?perPage=100"))
      .body as {
        records: Rec[];
        perPage: number;
        lastPage: number;
      };
    assert.equal(page.records.length, 2);
    assert.equal(page.perPage, 2);
    assert.equal(page.lastPage, 3);
  },
  {
    config: {
      collections: { locales: ["en", "de", "fr"] },
      query: { guards: { maxLimit: 3, maxPerPage: 2 } },
    },
  },
);

// PostgreSQL cannot store or even bind U+0000 in text; both databases refuse it alike, as a
// 422 on writes and a 400 in filters, never a 500.
dbAppTest(
  "U+0000 in a value is a 422 on writes and a 400 in filters, on every database",
  "api_app",
  async ({ req }) => {
    const nul = "a\u0000b";
    const created = await req("POST", "/collections/posts", {
      json: { title: nul, slug: "x" },
    });
    assert.equal(created.status, 422);
    assert.deepEqual(
      Object.keys(
        (created.body as { data: { errors: Rec } }).data.errors,
      ),
      ["title"],
    );
    const good = await req("POST", "/collections/posts", {
      json: { title: "fine" },
    });
    const uuid = (good.body as Rec).UUID;
    const updated = await req("PATCH", `/collections/posts/${uuid}`, {
      json: { title: nul },
    });
    assert.equal(updated.status, 422);
    for (
      const where of [
        { title: nul },
        { title: { contains: nul } },
        { title: { in: ["ok", nul] } },
      ]
    ) {
      const listed = await req(
        "GET",
        `/collections/posts?where=${encodeURIComponent(JSON.stringify(where))}`,
      );
      assert.equal(listed.status, 400, JSON.stringify(where));
      assert.equal(
        (listed.body as { data: { code: string } }).data.code,
        "invalidValue",
      );
      const queried = await req("POST", "/collections/posts/query", {
        json: { where },
      });
      assert.equal(queried.status, 400);
    }
    const reread = await req("GET", `/collections/posts/${uuid}`);
    assert.equal((reread.body as Rec).title, "fine");
  },
);

dbAppTest(
  "a lone surrogate is stored as U+FFFD and the create answer equals a re-read",
  "api_app",
  async ({ req }) => {
    const created = await req("POST", "/collections/posts", {
      json: { title: "a\ud800b", slug: "x\udc00" },
    });
    assert.equal(created.status, 201);
    const record = created.body as Rec;
    assert.equal(record.title, "a\ufffdb");
    assert.equal(record.slug, "x\ufffd");
    const reread = await req("GET", `/collections/posts/${record.UUID}`);
    assert.deepEqual(reread.body, record);
  },
);
