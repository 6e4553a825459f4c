// GET /openapi.json (design "OpenAPI 3.1"): the document of the example app and of a fixture
// with every field type validates with an independent OpenAPI 3.1 validator, TypeScript
// generated from it type-checks a program against the posts routes, and real answers of each
// operation validate against their response schemas (Ajv).
import assert from "node:assert/strict";
import { validate } from "npm:@readme/openapi-parser@^9.0.0";
import openapiTS, { astToString } from "npm:openapi-typescript@^7.6.0";
import { createApp } from "../../mod.ts";
import { createTestApp } from "../../testing/mod.ts";
import { DEMO_PASSWORD } from "../../examples/blog/seed.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import {
  assertTypeChecks,
  assertValidOpenApi,
  BLOG,
  blogTest,
  documentOf,
  type Operation,
  operationIds,
  responseValidator,
} from "./_openapi.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test("the validator refuses a broken document (it can fail)", async () => {
  const app = await createTestApp({ root: BLOG });
  try {
    const doc = await documentOf(app);
    doc.paths["/collections/posts"].get.parameters![0].in = "body";
    const result = await validate(structuredClone(doc) as never);
    assert.equal(result.valid, false);
  } finally {
    await app.close();
  }
});

blogTest("the example app's document is valid OpenAPI 3.1", async (app) => {
  const doc = await documentOf(app);
  await assertValidOpenApi(doc);
  const ids = operationIds(doc);
  assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  for (
    const id of [
      "listPosts",
      "queryPosts",
      "getPosts",
      "createPosts",
      "updatePosts",
      "deletePosts",
      "listPostsTranslations",
      "copyPostsTranslation",
      "deletePostsTranslation",
      "getPostsBySlug",
      "subscribePosts",
      "postAuthLogin",
      "getMessagesByGroupByLanguage",
    ]
  ) assert.ok(ids.includes(id), id);
  // Neither the dashboard nor the document itself is described.
  assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith("/dashboard")));
  assert.ok(!("/openapi.json" in doc.paths));
  // Comments expose read and delete only: no create, update or translations.
  assert.ok(!ids.includes("createComments"));
  assert.ok(!ids.includes("updateComments"));
  // Tags per collection; security on guarded operations only.
  assert.deepEqual(doc.paths["/collections/posts"].get.tags, ["Posts"]);
  const guarded = doc.paths["/collections/posts"].post as Operation & {
    security?: unknown;
  };
  assert.deepEqual(guarded.security, [{ sessionCookie: [] }, {
    bearerToken: [],
  }]);
  assert.equal(
    (doc.paths["/collections/posts"].get as { security?: unknown }).security,
    undefined,
  );
  // Error statuses per operation, only those that apply.
  const statuses = (path: string, method: string) =>
    Object.keys(doc.paths[path][method].responses);
  assert.deepEqual(statuses("/auth/login", "post"), [
    "200",
    "400",
    "401",
    "413",
    "415",
    "422",
    "429",
    "503",
  ]);
  assert.ok(statuses("/collections/authors/{uuid}", "delete").includes("409"));
  assert.ok(!statuses("/collections/tags/{uuid}", "delete").includes("409"));
  assert.ok(!statuses("/collections/posts", "get").includes("422"));
  assert.ok(statuses("/collections/posts", "post").includes("422"));
  assert.ok(statuses("/collections/posts/{uuid}", "get").includes("404"));
  // The realtime stream of each readable collection, as server-sent events.
  assert.ok(
    "text/event-stream" in
      (doc.paths["/collections/posts/events"].get.responses["200"]
        .content as Record<string, unknown>),
  );
  assert.ok(statuses("/collections/posts/events", "get").includes("429"));
  // Create and update bodies from the collection's input shapes.
  const create = doc.components.schemas.PostsCreate as {
    required: string[];
    properties: Record<string, unknown>;
  };
  assert.deepEqual(create.required, ["title", "slug", "author"]);
  const update = doc.components.schemas.PostsUpdate as {
    properties: Record<string, unknown>;
  };
  assert.ok(!("slug" in update.properties), "immutable slug is not updatable");
  assert.ok("slug" in create.properties);
  // The write-only password is written, never read.
  assert.ok(
    "password" in
      (doc.components.schemas.UsersCreate.properties as Record<
        string,
        unknown
      >),
  );
  assert.ok(
    !("password" in
      (doc.components.schemas.Users.properties as Record<string, unknown>)),
  );
});

Deno.test("the document is the same across boots (stable operationIds)", async () => {
  const first = await createTestApp({ root: BLOG });
  const second = await createTestApp({ root: BLOG });
  try {
    assert.deepEqual(await documentOf(first), await documentOf(second));
  } finally {
    await first.close();
    await second.close();
  }
});

Deno.test("a fixture with every field type, validated routes and a catch-all is valid", async () => {
  const app = await createTestApp({ root: fixturePath("openapi_app") });
  try {
    const doc = await documentOf(app);
    await assertValidOpenApi(doc);
    const paths = Object.keys(doc.paths);
    assert.ok(
      !paths.some((p) => p.includes("hidden")),
      "Hidden and hidden.get.ts stay out",
    );
    const record = doc.components.schemas.Everything.properties as Record<
      string,
      Record<string, unknown>
    >;
    assert.deepEqual(record.kind, { type: "string", enum: ["a", "b"] });
    assert.deepEqual(record.note.type, ["string", "null"]);
    assert.equal(record.at.type?.toString(), "integer,null");
    assert.equal(record.day.format, "date");
    assert.ok(!("secret" in record), "write-only fields are not read");
    assert.ok("_translations" in record);
    const create = doc.components.schemas.EverythingCreate as {
      properties: Record<string, unknown>;
      required: string[];
    };
    assert.ok("secret" in create.properties);
    assert.ok(!("computed" in create.properties), "writable: false is absent");
    assert.deepEqual(create.required, ["title"]);
    const update = doc.components.schemas.EverythingUpdate as {
      properties: Record<string, unknown>;
    };
    assert.ok(!("code" in update.properties), "immutable is absent on update");
    // Owners: update is closed, and Pinned's restrict reference gives delete a 409.
    assert.equal(doc.paths["/collections/owners/{uuid}"].patch, undefined);
    assert.ok(
      "409" in doc.paths["/collections/owners/{uuid}"].delete.responses,
    );
    // Pinned exposes read only.
    assert.deepEqual(Object.keys(doc.paths["/collections/pinned/{uuid}"]), [
      "get",
    ]);
    // zod's own JSON Schema describes params, query, headers and the answer.
    const thing = doc.paths["/things/{id}"].get;
    assert.equal(thing.operationId, "getThingsById");
    assert.deepEqual(
      thing.parameters?.map((p) => [p.name, p.in, p.required]),
      [["id", "path", true], ["page", "query", false], ["q", "query", true], [
        "x-api-version",
        "header",
        false,
      ]],
    );
    assert.ok(
      JSON.stringify(thing.responses["200"]).includes('"q"'),
      "the response schema is documented",
    );
    const body = doc.paths["/things"].post.requestBody!.content[
      "application/json"
    ].schema as { required: string[] };
    assert.deepEqual(body.required, ["name", "size"]);
    // A transform (conversion throws) and valibot (no converter) fall back to free-form.
    for (
      const [path, method] of [["/things/transform", "post"], [
        "/valibot/{slug}",
        "put",
      ]]
    ) {
      assert.deepEqual(
        doc.paths[path][method].requestBody!.content["application/json"].schema,
        {},
      );
    }
    assert.deepEqual(
      Object.keys(doc.paths["/things/transform"].post.responses["200"]),
      ["description"],
      "an answer schema that cannot convert is left undescribed",
    );
    assert.deepEqual(
      doc.paths["/valibot/{slug}"].put.parameters?.map((p) => p.name),
      ["slug"],
    );
    // A suffixless catch-all: five methods, one {path} parameter.
    assert.deepEqual(Object.keys(doc.paths["/files/{path}"]).sort(), [
      "delete",
      "get",
      "patch",
      "post",
      "put",
    ]);
    assert.equal(doc.paths["/files/{path}"].get.operationId, "getFilesByPath");
    // A body without a schema: free-form, still under the size limit (413), never a 422.
    assert.deepEqual(Object.keys(doc.paths["/files/{path}"].post.responses), [
      "200",
      "413",
      "503",
    ]);
    assert.equal(doc.paths["/files/{path}"].get.requestBody, undefined);
    // A route's own openapi option is laid over the generated operation.
    assert.equal(
      (doc.paths["/"].get as { summary?: string }).summary,
      "Says hello",
    );
  } finally {
    await app.close();
  }
});

Deno.test("api.openapi: a path of its own, or false for none; basePath goes to servers", async () => {
  const moved = await createApp({
    root: fixturePath("openapi_app"),
    database: ":memory:",
    config: {
      api: { openapi: "/docs/api.json", basePath: "/v1" },
      collections: { locales: ["en", "de"] },
    },
  });
  try {
    const doc = await documentOf(moved, "/v1/docs/api.json");
    assert.deepEqual(doc.servers, [{ url: "/v1" }]);
    const old = await moved.fetch(
      new Request("http://localhost/v1/openapi.json"),
    );
    assert.equal(old.status, 404);
    await old.body?.cancel();
  } finally {
    await moved.close();
  }
  const off = await createApp({
    root: fixturePath("openapi_app"),
    database: ":memory:",
    config: { api: { openapi: false }, collections: { locales: ["en", "de"] } },
  });
  try {
    const response = await off.fetch(
      new Request("http://localhost/openapi.json"),
    );
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await off.close();
  }
  await assert.rejects(
    () =>
      createApp({
        root: fixturePath("openapi_app"),
        database: ":memory:",
        config: { api: { openapi: "openapi" as never } },
      }),
    /api\.openapi must be true, false or a path/,
  );
});

Deno.test("disable.routes drops collections operations from the document", async () => {
  const app = await createApp({
    root: fixturePath("openapi_app"),
    database: ":memory:",
    config: {
      disable: { routes: ["/collections/**"] },
      collections: { locales: ["en", "de"] },
    },
  });
  try {
    const doc = await documentOf(app);
    assert.ok(
      !Object.keys(doc.paths).some((p) => p.startsWith("/collections")),
    );
    await assertValidOpenApi(doc);
  } finally {
    await app.close();
  }
});

Deno.test("TypeScript generated by openapi-typescript type-checks a call against the posts routes", async () => {
  const app = await createTestApp({ root: BLOG });
  const dir = await Deno.makeTempDir({ dir: `${root}tests/http` });
  try {
    const doc = await documentOf(app);
    const types = astToString(await openapiTS(structuredClone(doc) as never));
    await Deno.writeTextFile(`${dir}/blog_api.ts`, types);
    await Deno.writeTextFile(
      `${dir}/program.ts`,
      `import type { components, operations, paths } from "./blog_api.ts";
type Post = components["schemas"]["Posts"];
type ListAnswer =
  paths["/collections/posts"]["get"]["responses"]["200"]["content"]["application/json"];
type CreateBody = NonNullable<
  operations["createPosts"]["requestBody"]
>["content"]["application/json"];
export function titles(answer: ListAnswer): (string | undefined)[] {
  const records: Post[] = Array.isArray(answer) ? answer : answer.records;
  return records.map((post) => post.title);
}
export const input: CreateBody = { title: "T", slug: "t", author: "x" };
// @ts-expect-error views is not a field of Posts
export const wrong: CreateBody = { title: "T", slug: "t", author: "x", views: 1 };
// @ts-expect-error slug is required on create
export const missing: CreateBody = { title: "T", author: "x" };
`,
    );
    await assertTypeChecks(`${dir}/program.ts`);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await app.close();
  }
});

blogTest(
  "real answers of each operation validate against their response schemas",
  async (app) => {
    const doc = await documentOf(app);
    const check = responseValidator(doc);
    const admin = await app.signIn("admin@example.com", DEMO_PASSWORD);
    const call = async (
      method: string,
      url: string,
      template: string,
      body?: unknown,
    ): Promise<{ status: number; body: unknown }> => {
      const response = await admin.request(url, {
        method: method.toUpperCase(),
        headers: body === undefined
          ? {}
          : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : undefined;
      check(template, method, response.status, parsed);
      return { status: response.status, body: parsed };
    };
    assert.throws(
      () => check("/collections/posts", "get", 200, [{ title: 5 }]),
      /title/,
      "the response check can fail",
    );
    const list = await call("get", "/collections/posts", "/collections/posts");
    assert.equal(list.status, 200);
    await call(
      "get",
      "/collections/posts?page=1&perPage=2&populate=[author,tags]",
      "/collections/posts",
    );
    await call("post", "/collections/posts/query", "/collections/posts/query", {
      where: { published: true },
    });
    const author = (list.body as { author: string }[])[0].author;
    const created = await call(
      "post",
      "/collections/posts",
      "/collections/posts",
      {
        title: "OpenAPI",
        slug: "openapi-post",
        author,
      },
    );
    assert.equal(created.status, 201);
    const uuid = (created.body as { UUID: string }).UUID;
    const one = `/collections/posts/${uuid}`;
    await call("get", `${one}?populate=[author]`, "/collections/posts/{uuid}");
    await call("patch", `${one}?locale=de`, "/collections/posts/{uuid}", {
      title: "Auf Deutsch",
    });
    await call(
      "get",
      `${one}/translations`,
      "/collections/posts/{uuid}/translations",
    );
    await call(
      "delete",
      `${one}/translations?locale=de`,
      "/collections/posts/{uuid}/translations",
    );
    await call(
      "post",
      `${one}/translations/copy?locale=de`,
      "/collections/posts/{uuid}/translations/copy",
      { source: "en" },
    );
    // Errors answer with the wire error schema.
    const invalid = await call(
      "post",
      "/collections/posts",
      "/collections/posts",
      { title: "" },
    );
    assert.equal(invalid.status, 422);
    const malformed = await call(
      "get",
      "/collections/posts?where={nope:1}",
      "/collections/posts",
    );
    assert.equal(malformed.status, 400);
    const missing = await call(
      "get",
      `/collections/posts/${crypto.randomUUID()}`,
      "/collections/posts/{uuid}",
    );
    assert.equal(missing.status, 404);
    const restricted = await call(
      "delete",
      `/collections/authors/${author}`,
      "/collections/authors/{uuid}",
    );
    assert.equal(restricted.status, 409);
    assert.equal(
      (await call("delete", one, "/collections/posts/{uuid}")).status,
      204,
    );
    await call("get", "/auth/me", "/auth/me");
    await call("get", "/messages/errors/de", "/messages/{group}/{language}");
    await call("get", "/auth/install", "/auth/install");
    await call("post", "/auth/logout", "/auth/logout");
    const signedOut = await app.request("/auth/me");
    check("/auth/me", "get", signedOut.status, await signedOut.json());
    assert.equal(signedOut.status, 401);
  },
);

Deno.test("answers of a collection with every field type validate against their schemas", async () => {
  const app = await createTestApp({ root: fixturePath("openapi_app") });
  try {
    const doc = await documentOf(app);
    const check = responseValidator(doc);
    const send = async (method: string, url: string, body?: unknown) => {
      const response = await app.request(url, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? JSON.parse(text) : undefined,
      };
    };
    const owner = await send("POST", "/collections/owners", { name: "o" });
    check("/collections/owners", "post", owner.status, owner.body);
    const created = await send("POST", "/collections/everything", {
      title: "t",
      note: null,
      secret: "s",
      count: 3,
      ratio: 0.5,
      active: true,
      day: "2026-01-02",
      at: 1700000000000,
      clock: "10:11:12",
      kind: "b",
      labels: ["x", "y"],
      owner: owner.body.UUID,
      friends: [owner.body.UUID],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    check("/collections/everything", "post", 201, created.body);
    const listed = await send(
      "GET",
      "/collections/everything?populate=[owner,friends]",
    );
    check("/collections/everything", "get", listed.status, listed.body);
    assert.equal(listed.body[0].owner.name, "o");
    const refused = await send("POST", "/collections/everything", {
      computed: "no",
    });
    check("/collections/everything", "post", refused.status, refused.body);
    assert.equal(refused.status, 422);
  } finally {
    await app.close();
  }
});

Deno.test("the document over a real socket", async () => {
  const app = await createTestApp({ root: fixturePath("openapi_app") });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    app.fetch,
  );
  try {
    const response = await fetch(
      `http://127.0.0.1:${server.addr.port}/openapi.json`,
    );
    assert.equal(response.status, 200);
    await assertValidOpenApi(await response.json());
  } finally {
    await server.shutdown();
    await app.close();
  }
});

Deno.test("search: the search param, _relevance and GET /search are described, answers validate", async () => {
  const app = await createTestApp({ root: fixturePath("search_app") });
  try {
    const doc = await documentOf(app);
    await assertValidOpenApi(doc);
    const params = (path: string, method = "get") =>
      (doc.paths[path][method].parameters ?? []).map((p) => p.name);
    assert.ok(params("/collections/articles").includes("search"));
    assert.ok(!params("/collections/plain").includes("search"));
    const query = doc.paths["/collections/articles/query"].post.requestBody!
      .content["application/json"].schema as {
        properties: Record<string, unknown>;
      };
    assert.ok("search" in query.properties);
    const search = doc.paths["/search"].get;
    assert.equal(search.operationId, "search");
    assert.deepEqual(search.parameters?.map((p) => [p.name, p.required]), [
      ["q", true],
      ["collections", false],
      ["limit", false],
      ["locale", false],
    ]);
    const answer = (search.responses["200"].content as Record<
      string,
      { schema: { properties: Record<string, unknown> } }
    >)["application/json"].schema;
    assert.deepEqual(Object.keys(answer.properties).sort(), [
      "articles",
      "comments",
      "guarded",
    ]);
    const check = responseValidator(doc);
    const created = await app.request("/collections/articles", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "Deno", body: "routes" }),
    });
    assert.equal(created.status, 201);
    for (const url of ["/collections/articles?search=deno", "/search?q=deno"]) {
      const response = await app.request(url);
      const body = await response.json();
      assert.equal(response.status, 200);
      check(url.split("?")[0], "get", 200, body);
    }
    const bad = await app.request("/search?q=");
    check("/search", "get", 400, await bad.json());
  } finally {
    await app.close();
  }
});
