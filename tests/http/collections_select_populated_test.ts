// `select` narrows populated records over the wire: `select=[title,author.name]&populate=[author]`
// on the list, `…/query` and the by-UUID read, under the target's read scope, with the
// grammar's codes for bad paths.
import assert from "node:assert/strict";
import { type Client, dbAppTest } from "../_helpers/db_apps.ts";

type Rec = Record<string, unknown>;
const codeOf = (r: { body: unknown }) => (r.body as { data?: unknown }).data;

// Seeded through trusted code: Tags is guarded, and the reads are what is under test.
async function seed({ app }: Client): Promise<{ post: Rec; author: Rec }> {
  const create = async (name: string, input: Rec) => {
    const result = await app.query(name).create(input);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.record as Rec;
  };
  const author = await create("Authors", {
    name: "Ada",
    email: "ada@example.com",
  });
  const tag = await create("Tags", { name: "deno" });
  const post = await create("Posts", {
    title: "Hello",
    author: author.UUID,
    tags: [tag.UUID],
  });
  return { post, author };
}

dbAppTest(
  "select narrows a populated record on the list, the query route and the by-UUID read",
  "api_app",
  async (client) => {
    const { req } = client;
    const { post, author } = await seed(client);
    const expected = {
      UUID: post.UUID,
      _translations: ["en"],
      title: "Hello",
      author: { UUID: author.UUID, name: "Ada" },
    };
    const list = await req(
      "GET",
      "/collections/posts?select=[title,author.name]&populate=[author]",
    );
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body, [expected]);
    const query = await req("POST", "/collections/posts/query", {
      json: { select: ["title", "author.name"], populate: ["author"] },
    });
    assert.equal(query.status, 200, query.text);
    assert.deepEqual(query.body, list.body);
    const one = await req(
      "GET",
      `/collections/posts/${post.UUID}?select=[title,author.name,author.UUID]&populate=[author]`,
    );
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, expected);
    // A records field narrows each populated record.
    const tags = await req(
      "GET",
      `/collections/posts/${post.UUID}?select=[tags.name]&populate=[tags]`,
      {
        headers: { "x-test-user": "u", "x-test-caps": "collection.Tags.read" },
      },
    );
    assert.equal(tags.status, 200, tags.text);
    assert.deepEqual(
      ((tags.body as Rec).tags as Rec[]).map((tag) => Object.keys(tag).sort()),
      [["UUID", "name"]],
    );
  },
);

dbAppTest(
  "a select path into records the query does not populate, or into no field, is invalidField",
  "api_app",
  async (client) => {
    const { req } = client;
    const { post } = await seed(client);
    const cases: [string, string][] = [
      ["select=[title,author.name]", "select[1]"],
      ["select=[author.nope]&populate=[author]", "select[0]"],
      ["select=[author.pin]&populate=[author]", "select[0]"],
      ["select=[title.name]&populate=[author]", "select[0]"],
      ["select=[views,author.]&populate=[author]", "select[1]"],
      ["select=[author.name.x]&populate=[author]", "select[0]"],
    ];
    for (const [params, path] of cases) {
      const list = await req("GET", `/collections/posts?${params}`);
      assert.equal(list.status, 400, params);
      assert.deepEqual(codeOf(list), { code: "invalidField", path }, params);
      const one = await req("GET", `/collections/posts/${post.UUID}?${params}`);
      assert.deepEqual(codeOf(one), { code: "invalidField", path }, params);
    }
  },
);

dbAppTest(
  "a populated record is narrowed under the target's read scope",
  "api_app",
  async (client) => {
    const { req } = client;
    const { post } = await seed(client);
    const onlyName = {
      "x-scope-authors-read": JSON.stringify({ select: ["name"] }),
    };
    const inside = await req(
      "GET",
      "/collections/posts?select=[title,author.name]&populate=[author]",
      { headers: onlyName },
    );
    // The target's scope leaves its UUID out, as it would on a read of Authors.
    assert.deepEqual(inside.body, [{
      UUID: post.UUID,
      _translations: ["en"],
      title: "Hello",
      author: { name: "Ada" },
    }]);
    const outside = await req(
      "GET",
      "/collections/posts?select=[title,author.email]&populate=[author]",
      { headers: onlyName },
    );
    assert.deepEqual(codeOf(outside), {
      code: "invalidField",
      path: "select[1]",
    });
    // A target the caller may not read has no reachable fields: naming one is invalidField,
    // while populating it alone gives null.
    const refusedScope = { headers: { "x-scope-authors-read": "false" } };
    const refused = await req(
      "GET",
      "/collections/posts?select=[title,author.name]&populate=[author]",
      refusedScope,
    );
    assert.deepEqual(codeOf(refused), {
      code: "invalidField",
      path: "select[1]",
    });
    const bare = await req(
      "GET",
      "/collections/posts?select=[title]&populate=[author]",
      refusedScope,
    );
    assert.deepEqual(bare.body, [{
      UUID: post.UUID,
      _translations: ["en"],
      title: "Hello",
      author: null,
    }]);
  },
);
