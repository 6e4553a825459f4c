// The translation routes and ?locale= writes (SPEC.md "Collections endpoints" rules 4–6).
import assert from "node:assert/strict";
import { dbAppTest } from "../_helpers/db_apps.ts";
import { serveOnSocket } from "../_helpers/socket.ts";

type Rec = Record<string, unknown>;
const scope = (operation: string, value: unknown) => ({
  [`x-scope-posts-${operation}`]: JSON.stringify(value),
});
const codeOf = (r: { body: unknown }) => (r.body as { data?: unknown }).data;

async function bilingual(
  req: Parameters<Parameters<typeof dbAppTest>[2]>[0]["req"],
) {
  const post = (await req("POST", "/collections/posts", {
    json: { title: "Hello", status: "published", views: 4 },
  })).body as Rec;
  const de = await req("PATCH", `/collections/posts/${post.UUID}?locale=de`, {
    json: { title: "Hallo" },
  });
  assert.equal(de.status, 200);
  return post.UUID as string;
}

dbAppTest(
  "?locale= on create and update writes that locale only",
  "api_app",
  async ({ req }) => {
    const created = await req("POST", "/collections/posts?locale=de", {
      json: { title: "Nur Deutsch" },
    });
    assert.equal(created.status, 201);
    assert.equal((created.body as Rec).title, "Nur Deutsch");
    assert.deepEqual((created.body as Rec)._translations, ["de"]);
    const uuid = (created.body as Rec).UUID;
    const en = (await req("GET", `/collections/posts/${uuid}`)).body as Rec;
    assert.equal(en.title, null);
    const updated = await req("PATCH", `/collections/posts/${uuid}?locale=en`, {
      json: { title: "English" },
    });
    assert.deepEqual((updated.body as Rec)._translations, ["en", "de"]);
    assert.equal(
      ((await req("GET", `/collections/posts/${uuid}?locale=de`)).body as Rec)
        .title,
      "Nur Deutsch",
    );
    const bad = await req("POST", "/collections/posts?locale=it", {
      json: { title: "x" },
    });
    assert.deepEqual(codeOf(bad), { code: "invalidLocale", path: "locale" });
    const extra = await req("POST", "/collections/posts?x=1", {
      json: { title: "x" },
    });
    assert.deepEqual(codeOf(extra), { code: "unknownParam", path: "x" });
  },
);

dbAppTest(
  "the translation list answers { locales } in configured order",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    await req("PATCH", `/collections/posts/${uuid}?locale=fr`, {
      json: { title: "Bonjour" },
    });
    assert.deepEqual(
      (await req("GET", `/collections/posts/${uuid}/translations`)).body,
      { locales: ["en", "de", "fr"] },
    );
    assert.equal(
      (await req(
        "GET",
        `/collections/posts/${crypto.randomUUID()}/translations`,
      )).status,
      404,
    );
    const param = await req(
      "GET",
      `/collections/posts/${uuid}/translations?x=1`,
    );
    assert.deepEqual(codeOf(param), { code: "unknownParam", path: "x" });
  },
);

dbAppTest(
  "the copy projects the source locale onto the target and answers its new state",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    const copied = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      { json: { source: "de" } },
    );
    assert.equal(copied.status, 200);
    assert.equal((copied.body as Rec).title, "Hallo");
    assert.deepEqual((copied.body as Rec)._translations, ["en", "de", "fr"]);
    // The source defaults to the default locale; an empty body is fine.
    const fromDefault = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=de`,
    );
    assert.equal((fromDefault.body as Rec).title, "Hello");
    assert.equal(
      ((await req("GET", `/collections/posts/${uuid}?locale=en`)).body as Rec)
        .title,
      "Hello",
    );
  },
);

dbAppTest(
  "over a real socket, a copy with no body (Content-Length: 0) copies from the default locale",
  "api_app",
  async ({ app, req }) => {
    const uuid = await bilingual(req);
    const served = serveOnSocket(app);
    try {
      const path = `/collections/posts/${uuid}/translations/copy`;
      for (
        const headers of [
          "Content-Length: 0",
          "Content-Length: 0\r\nContent-Type: application/json",
        ]
      ) {
        const answer = await served.raw(
          `POST ${path}?locale=fr HTTP/1.1\r\n${headers}`,
        );
        assert.equal(answer.status, 200, answer.body);
        assert.match(answer.body, /"title":"Hello"/);
      }
      const viaFetch = await fetch(`${served.url}${path}?locale=de`, {
        method: "POST",
      });
      assert.equal(viaFetch.status, 200);
      assert.equal(((await viaFetch.json()) as Rec).title, "Hello");
    } finally {
      await served.close();
    }
  },
);

dbAppTest(
  "copy refusals: same locale, missing target, unknown body keys, empty source",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    const same = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=de`,
      { json: { source: "de" } },
    );
    assert.deepEqual(codeOf(same), { code: "sameLocale", path: "locale" });
    const noTarget = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy`,
      { json: { source: "de" } },
    );
    assert.deepEqual(codeOf(noTarget), {
      code: "invalidLocale",
      path: "locale",
    });
    const unknownKey = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      { json: { from: "de" } },
    );
    assert.deepEqual(codeOf(unknownKey), {
      code: "unknownParam",
      path: "from",
    });
    const nothing = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=de`,
      { json: { source: "fr" } },
    );
    assert.equal(nothing.status, 404);
  },
);

dbAppTest(
  "the translation delete removes one locale whole; 404 when nothing was there",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    const deleted = await req(
      "DELETE",
      `/collections/posts/${uuid}/translations?locale=de`,
    );
    assert.equal(deleted.status, 204);
    assert.deepEqual(
      (await req("GET", `/collections/posts/${uuid}/translations`)).body,
      { locales: ["en"] },
    );
    assert.equal(
      ((await req("GET", `/collections/posts/${uuid}`)).body as Rec).title,
      "Hello",
    );
    assert.equal(
      (await req("DELETE", `/collections/posts/${uuid}/translations?locale=de`))
        .status,
      404,
    );
    const missing = await req(
      "DELETE",
      `/collections/posts/${uuid}/translations`,
    );
    assert.deepEqual(codeOf(missing), {
      code: "invalidLocale",
      path: "locale",
    });
  },
);

dbAppTest(
  "translation routes on a non-translatable collection are the unknown collection's 404",
  "api_app",
  async ({ req }) => {
    const author =
      (await req("POST", "/collections/authors", { json: { name: "Ada" } }))
        .body as Rec;
    const unknown = await req(
      "GET",
      `/collections/nope/${author.UUID}/translations`,
    );
    for (
      const [method, path] of [
        ["GET", `/collections/authors/${author.UUID}/translations`],
        [
          "DELETE",
          `/collections/authors/${author.UUID}/translations?locale=en`,
        ],
        [
          "POST",
          `/collections/authors/${author.UUID}/translations/copy?locale=de`,
        ],
      ]
    ) {
      const response = await req(method, path);
      assert.equal(response.status, 404, path);
      assert.equal(response.text, unknown.text, path);
    }
  },
);

dbAppTest(
  "rule 6: copy gates on update, translation delete on delete, the list on read",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    assert.equal(
      (await req("GET", `/collections/posts/${uuid}/translations`, {
        headers: scope("read", false),
      })).status,
      404,
    );
    assert.equal(
      (await req("GET", `/collections/posts/${uuid}/translations`, {
        headers: scope("update", false),
      })).status,
      200,
    );
    const copyRefused = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      {
        headers: scope("update", false),
      },
    );
    assert.equal(copyRefused.status, 404);
    const copyReadRefused = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      {
        headers: scope("read", false),
      },
    );
    assert.equal(copyReadRefused.status, 200);
    const deleteRefused = await req(
      "DELETE",
      `/collections/posts/${uuid}/translations?locale=fr`,
      {
        headers: scope("delete", false),
      },
    );
    assert.equal(deleteRefused.status, 404);
    assert.equal(
      (await req(
        "DELETE",
        `/collections/posts/${uuid}/translations?locale=fr`,
        { headers: scope("update", false) },
      )).status,
      204,
    );
  },
);

dbAppTest(
  "the copy's second access call may narrow what writes",
  "api_app",
  async ({ req }) => {
    const uuid = await bilingual(req);
    const onlyTitle = scope("update", { select: ["title"] });
    const copied = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      {
        json: { source: "de" },
        headers: onlyTitle,
      },
    );
    assert.equal(copied.status, 200);
    assert.deepEqual(Object.keys(copied.body as Rec).sort(), [
      "_translations",
      "title",
    ]);
    const outside = await req(
      "POST",
      `/collections/posts/${uuid}/translations/copy?locale=fr`,
      {
        headers: scope("update", { where: { views: { atLeast: 100 } } }),
      },
    );
    assert.equal(outside.status, 404);
  },
);
