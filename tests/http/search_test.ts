// Full-text search over HTTP (design search.md), on SQLite and PostgreSQL: the syntax,
// relevance, hostile strings, writes reflected at once, scopes, and GET /search.
import assert from "node:assert/strict";
import { type Client, clientOf, dbAppTest } from "../_helpers/db_apps.ts";
import { serveOnSocket } from "../_helpers/socket.ts";
import { bootFixture } from "../_helpers/fixture_app.ts";
import { createClient } from "../../client/mod.ts";

type Rec = Record<string, unknown>;

const data = (r: { body: unknown }) =>
  (r.body as { data: { code: string; path: string } }).data;

async function create(
  { req }: Client,
  path: string,
  record: Rec,
  locale?: string,
): Promise<string> {
  const r = await req(
    "POST",
    `/collections/${path}${locale ? `?locale=${locale}` : ""}`,
    { json: record },
  );
  assert.equal(r.status, 201, r.text);
  return (r.body as Rec).UUID as string;
}

async function search(
  { req }: Client,
  query: string,
  headers: Record<string, string> = {},
): Promise<Rec[]> {
  const r = await req("GET", `/collections/articles?${query}`, { headers });
  assert.equal(r.status, 200, r.text);
  return r.body as Rec[];
}

const titles = (records: Rec[]) => records.map((r) => r.title);
const sorted = (records: Rec[]) => titles(records).sort();

async function seed(client: Client): Promise<Record<string, string>> {
  return {
    deno: await create(client, "articles", {
      title: "Deno routes",
      body: "File based routes for Deno servers",
      notes: "internal memo",
      secret: "classified",
    }),
    cafe: await create(client, "articles", {
      title: "Café culture",
      body: "Crème brûlée and coffee houses",
    }),
    node: await create(client, "articles", {
      title: "Node servers",
      body: "Express routes, middleware and deno comparisons",
      status: "draft",
    }),
    numbers: await create(client, "articles", {
      title: "Release 10",
      body: "Version 10 ships the routing table",
    }),
  };
}

dbAppTest(
  "words are ANDed across fields, phrases, exclusions, prefixes",
  "search_app",
  async (client) => {
    await seed(client);
    const q = (s: string) => search(client, `search=${encodeURIComponent(s)}`);
    assert.deepEqual(sorted(await q("deno")), ["Deno routes", "Node servers"]);
    // "deno" in the title, "file" in the body: the words may sit in different fields.
    assert.deepEqual(titles(await q("deno file")), ["Deno routes"]);
    assert.deepEqual(titles(await q('"routes for deno"')), ["Deno routes"]);
    assert.deepEqual(titles(await q('"based routes"')), ["Deno routes"]);
    assert.deepEqual(titles(await q('"routes based"')), []);
    assert.deepEqual(titles(await q("deno -express")), ["Deno routes"]);
    assert.deepEqual(titles(await q('deno -"express routes"')), [
      "Deno routes",
    ]);
    assert.deepEqual(sorted(await q("rout*")), [
      "Deno routes",
      "Node servers",
      "Release 10",
    ]);
    assert.deepEqual(titles(await q("middle*")), ["Node servers"]);
    // Case and accents fold alike on both databases.
    assert.deepEqual(titles(await q("cafe")), ["Café culture"]);
    assert.deepEqual(titles(await q("CRÈME brulee")), ["Café culture"]);
    assert.deepEqual(titles(await q("CAFÉ")), ["Café culture"]);
    // The value is raw text: 10 is the word "10", not a number literal.
    assert.deepEqual(titles(await q("10")), ["Release 10"]);
    assert.deepEqual(titles(await q("nothing-like-this")), []);
  },
);

dbAppTest(
  "relevance orders by default; order and paging combine with it",
  "search_app",
  async (client) => {
    await create(client, "articles", { title: "one", body: "deno" });
    await create(client, "articles", {
      title: "many",
      body: "deno deno deno deno deno",
    });
    await create(client, "articles", { title: "none", body: "node" });
    const best = await search(client, "search=deno");
    assert.deepEqual(titles(best), ["many", "one"]);
    assert.deepEqual(
      titles(await search(client, "search=deno&order=-_relevance")),
      ["many", "one"],
    );
    assert.deepEqual(
      titles(await search(client, "search=deno&order=_relevance")),
      ["one", "many"],
    );
    assert.deepEqual(titles(await search(client, "search=deno&order=title")), [
      "many",
      "one",
    ]);
    const page = await client.req(
      "GET",
      "/collections/articles?search=deno&page=2&perPage=1",
    );
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, {
      records: [best[1]],
      total: 2,
      page: 2,
      perPage: 1,
      lastPage: 2,
    });
    const selected = await search(client, "search=deno&select=[title]&limit=1");
    assert.deepEqual(selected, [{
      UUID: best[0].UUID,
      title: "many",
      _translations: ["en"],
    }]);
    const where = await search(
      client,
      `search=deno&where=${encodeURIComponent('{title:"one"}')}`,
    );
    assert.deepEqual(titles(where), ["one"]);
    const posted = await client.req("POST", "/collections/articles/query", {
      json: { search: "deno", order: ["_relevance"] },
    });
    assert.equal(posted.status, 200);
    assert.deepEqual(titles(posted.body as Rec[]), ["one", "many"]);
  },
);

dbAppTest(
  "ties in relevance order by UUID, alike with and without other filters",
  "search_app",
  async (client) => {
    for (let i = 0; i < 6; i++) {
      await create(client, "articles", { title: `t${i}`, body: "same deno" });
    }
    const uuids = (records: Rec[]) => records.map((r) => r.UUID as string);
    const plain = uuids(await search(client, "search=deno"));
    assert.deepEqual(plain, [...plain].sort().reverse());
    const filtered = uuids(
      await search(
        client,
        `search=deno&where=${encodeURIComponent("{views:{atLeast:0}}")}`,
      ),
    );
    assert.deepEqual(filtered, plain);
    const ascending = uuids(
      await search(client, "search=deno&order=_relevance"),
    );
    assert.deepEqual(ascending, [...plain].reverse());
    const second = await client.req(
      "GET",
      "/collections/articles?search=deno&page=2&perPage=4",
    );
    assert.deepEqual(
      uuids((second.body as { records: Rec[] }).records),
      plain.slice(4),
    );
    assert.equal((second.body as Rec).total, 6);
    const scoped = await search(client, "search=deno&limit=2&offset=1", {
      "x-scope-articles": JSON.stringify({ where: { views: 0 } }),
    });
    assert.deepEqual(uuids(scoped), plain.slice(1, 3));
  },
);

dbAppTest(
  "malformed and hostile searches answer 400 or a plain result, never 500",
  "search_app",
  async (client) => {
    await seed(client);
    const { req } = client;
    const refused = async (query: string, code: string, path = "search") => {
      const r = await req("GET", `/collections/articles?${query}`);
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      assert.deepEqual(data(r), { code, path });
    };
    await refused("search=", "invalidValue");
    await refused(`search=${encodeURIComponent("!!! ... ()")}`, "invalidValue");
    await refused(
      `search=${encodeURIComponent("-deno -node")}`,
      "invalidValue",
    );
    await refused(`search=${encodeURIComponent('""')}`, "invalidValue");
    await refused(`search=${"a".repeat(257)}`, "valueTooLarge");
    await refused(`search=${"é".repeat(129)}`, "valueTooLarge");
    await refused("search=deno&search=node", "invalidShape");
    await refused("order=-_relevance", "invalidField", "order[0]");
    const plain = await req("GET", "/collections/plain?search=deno");
    assert.equal(plain.status, 400);
    assert.deepEqual(data(plain), {
      code: "searchNotAvailable",
      path: "search",
    });
    const body = await req("POST", "/collections/articles/query", {
      json: { search: 10 },
    });
    assert.equal(body.status, 400);
    assert.deepEqual(data(body), { code: "invalidShape", path: "search" });
    const hostile = [
      '"',
      '"deno',
      'deno"',
      "(deno",
      "deno)",
      "NEAR(deno routes)",
      "deno AND routes",
      "deno OR node",
      "NOT deno",
      "title:deno",
      "{title}: deno",
      "*",
      "**deno",
      "deno**",
      "*deno*",
      "de*no",
      "\\",
      "deno\\",
      '\'; drop table "Articles"; --',
      "deno' or '1'='1",
      "deno & routes | !node <-> x:*",
      "^deno",
      "deno + routes",
      "-",
      "- deno",
      "deno -",
      "a".repeat(256),
      "\u0000deno",
      "deno\u0000",
      "🦕 deno",
      "ﬁle", // a ligature: NFKD makes it "file"
    ];
    for (const text of hostile) {
      const r = await req(
        "GET",
        `/collections/articles?search=${encodeURIComponent(text)}`,
      );
      assert.ok(
        r.status === 200 || r.status === 400,
        `${text}: ${r.status} ${r.text}`,
      );
      if (r.status === 400) assert.equal(data(r).path, "search", text);
    }
    const near = await search(
      client,
      `search=${encodeURIComponent("NEAR(deno routes)")}`,
    );
    // NEAR is a word here, not an operator: no article holds it.
    assert.deepEqual(near, []);
    // OR is a word too: every word must be found, and no article holds "zebra".
    const or = await search(
      client,
      `search=${encodeURIComponent("deno OR zebra")}`,
    );
    assert.deepEqual(or, []);
    assert.deepEqual(
      titles(await search(client, `search=${encodeURIComponent("(deno")}`))
        .sort(),
      ["Deno routes", "Node servers"],
    );
    assert.deepEqual(
      titles(
        await search(client, `search=${encodeURIComponent("title:deno")}`),
      ),
      [],
    );
    assert.deepEqual(
      titles(await search(client, `search=${encodeURIComponent("ﬁle")}`)),
      ["Deno routes"],
    );
  },
);

dbAppTest(
  "the very next search sees creates, updates, deletes, translations and cascades",
  "search_app",
  async (client) => {
    const { req } = client;
    const ids = await seed(client);
    const comment = await create(client, "comments", {
      article: ids.deno,
      text: "lovely penguins",
    });
    const comments = async (q: string) =>
      ((await req("GET", `/collections/comments?search=${q}`)).body as Rec[])
        .map((r) => r.UUID);
    assert.deepEqual(await comments("penguins"), [comment]);
    assert.deepEqual(titles(await search(client, "search=espresso")), []);
    const patched = await req("PATCH", `/collections/articles/${ids.cafe}`, {
      json: { body: "Espresso bars" },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(titles(await search(client, "search=espresso")), [
      "Café culture",
    ]);
    assert.deepEqual(titles(await search(client, "search=coffee")), []);
    // A translation is searched at its locale only.
    const de = await req(
      "PATCH",
      `/collections/articles/${ids.cafe}?locale=de`,
      {
        json: { title: "Kaffeehaus Kultur" },
      },
    );
    assert.equal(de.status, 200);
    assert.deepEqual(
      titles(await search(client, "search=kaffeehaus&locale=de")),
      ["Kaffeehaus Kultur"],
    );
    assert.deepEqual(titles(await search(client, "search=kaffeehaus")), []);
    assert.deepEqual(
      titles(await search(client, "search=culture&locale=de")),
      [],
    );
    const gone = await req(
      "DELETE",
      `/collections/articles/${ids.cafe}/translations?locale=de`,
    );
    assert.equal(gone.status, 204);
    assert.deepEqual(
      titles(await search(client, "search=kaffeehaus&locale=de")),
      [],
    );
    // Plain fields answer at every locale.
    assert.deepEqual(
      titles(await search(client, "search=espresso&locale=de")),
      [null],
    );
    const deleted = await req("DELETE", `/collections/articles/${ids.deno}`);
    assert.equal(deleted.status, 204);
    assert.deepEqual(titles(await search(client, "search=deno")), [
      "Node servers",
    ]);
    // The cascade took the comment, and its index entry with it.
    assert.deepEqual(await comments("penguins"), []);
    await create(client, "articles", { title: "Fresh", body: "penguins" });
    assert.deepEqual(titles(await search(client, "search=penguins")), [
      "Fresh",
    ]);
  },
);

dbAppTest(
  "a scope's hidden rows are never found nor counted, hidden fields never matched",
  "search_app",
  async (client) => {
    const { req } = client;
    await seed(client);
    const published = {
      "x-scope-articles": JSON.stringify({ where: { status: "published" } }),
    };
    assert.deepEqual(titles(await search(client, "search=deno", published)), [
      "Deno routes",
    ]);
    const page = await req(
      "GET",
      "/collections/articles?search=servers&page=1",
      { headers: published },
    );
    assert.deepEqual((page.body as Rec).total, 1);
    assert.deepEqual(titles((page.body as { records: Rec[] }).records), [
      "Deno routes",
    ]);
    // A field outside the scope's select is neither matched nor ranked.
    assert.deepEqual(titles(await search(client, "search=memo")), [
      "Deno routes",
    ]);
    const narrow = {
      "x-scope-articles": JSON.stringify({ select: ["title", "body"] }),
    };
    assert.deepEqual(await search(client, "search=memo", narrow), []);
    const mixed = await search(client, "search=deno%20memo", narrow);
    assert.deepEqual(mixed, []);
    // A write-only field is never matched.
    assert.deepEqual(await search(client, "search=classified"), []);
    // Nothing searchable left to the caller.
    const none = { "x-scope-articles": JSON.stringify({ select: ["views"] }) };
    const r = await req("GET", "/collections/articles?search=deno", {
      headers: none,
    });
    assert.equal(r.status, 400);
    assert.deepEqual(data(r), { code: "searchNotAvailable", path: "search" });
    const refused = { "x-scope-articles": "false" };
    assert.equal(
      (await req("GET", "/collections/articles?search=deno", {
        headers: refused,
      })).status,
      404,
    );
  },
);

dbAppTest(
  "stemming follows the locale where the database has a stemmer",
  "search_app",
  async (client, dialect) => {
    const id = await create(client, "articles", {
      title: "Coffee houses",
      body: null,
    });
    const de = await client.req(
      "PATCH",
      `/collections/articles/${id}?locale=de`,
      {
        json: { title: "Die Häuser am See" },
      },
    );
    assert.equal(de.status, 200);
    // English: FTS5's porter and PostgreSQL's english stemmer alike.
    assert.deepEqual(titles(await search(client, "search=house")), [
      "Coffee houses",
    ]);
    const haus = titles(await search(client, "search=Haus&locale=de"));
    // German stemming is PostgreSQL's; SQLite has plain tokens there.
    assert.deepEqual(haus, dialect === "postgres" ? ["Die Häuser am See"] : []);
    assert.deepEqual(titles(await search(client, "search=hauser&locale=de")), [
      "Die Häuser am See",
    ]);
    // On PostgreSQL a stop word of the field's language asks nothing of that field.
    assert.deepEqual(
      titles(await search(client, "search=the%20houses")),
      dialect === "postgres" ? ["Coffee houses"] : [],
    );
    assert.deepEqual(
      titles(await search(client, "search=houses%20-the")),
      ["Coffee houses"],
    );
    // A non-translatable field uses plain tokens: no stemming.
    await create(client, "articles", { title: "Other", body: "houses" });
    const plain = await search(client, "search=house&select=[body]");
    assert.deepEqual(plain.map((r) => r.body), [null]);
  },
);

dbAppTest(
  "GET /search answers per collection under each one's scope",
  "search_app",
  async (client) => {
    const { req } = client;
    await seed(client);
    await create(client, "comments", {
      article: (await search(client, "search=cafe"))[0].UUID as string,
      text: "deno fans were here",
    });
    const all = await req("GET", "/search?q=deno");
    assert.equal(all.status, 200, all.text);
    const body = all.body as Record<string, Rec[]>;
    assert.deepEqual(Object.keys(body).sort(), ["articles", "comments"]);
    assert.deepEqual(sorted(body.articles), ["Deno routes", "Node servers"]);
    assert.deepEqual(body.comments.map((r) => r.text), ["deno fans were here"]);
    const named = await req(
      "GET",
      "/search?q=deno&collections=comments&limit=1",
    );
    assert.deepEqual(Object.keys(named.body as Rec), ["comments"]);
    const limited = await req(
      "GET",
      "/search?q=rout*&collections=articles&limit=2",
    );
    assert.equal((limited.body as Record<string, Rec[]>).articles.length, 2);
    const scoped = await req("GET", "/search?q=deno&collections=articles", {
      headers: {
        "x-scope-articles": JSON.stringify({ where: { status: "published" } }),
      },
    });
    assert.deepEqual(titles((scoped.body as Record<string, Rec[]>).articles), [
      "Deno routes",
    ]);
    // Unknown, guarded, unexposed and refused collections answer alike.
    const unknown = await req(
      "GET",
      "/search?q=deno&collections=articles,nowhere",
    );
    assert.equal(unknown.status, 400);
    assert.deepEqual(data(unknown), {
      code: "invalidField",
      path: "collections[1]",
    });
    for (const name of ["guarded", "internal"]) {
      const r = await req("GET", `/search?q=deno&collections=articles,${name}`);
      assert.equal(r.text, unknown.text, name);
    }
    const refused = await req(
      "GET",
      "/search?q=deno&collections=articles,comments",
      {
        headers: { "x-scope-articles": "false" },
      },
    );
    assert.deepEqual(data(refused), {
      code: "invalidField",
      path: "collections[0]",
    });
    // A caller with the capability reaches the guarded collection.
    await client.app.query("Guarded").create({ body: "deno guarded" });
    const caps = {
      "x-test-user": "u",
      "x-test-caps": "collection.Guarded.read",
    };
    const guarded = await req("GET", "/search?q=deno&collections=guarded", {
      headers: caps,
    });
    assert.equal(guarded.status, 200, guarded.text);
    const everything = await req("GET", "/search?q=deno", { headers: caps });
    assert.deepEqual(Object.keys(everything.body as Rec).sort(), [
      "articles",
      "comments",
      "guarded",
    ]);
    const plain = await req("GET", "/search?q=deno&collections=plain");
    assert.deepEqual(data(plain), {
      code: "searchNotAvailable",
      path: "collections[0]",
    });
    const bad = async (query: string, code: string, path: string) => {
      const r = await req("GET", `/search?${query}`);
      assert.equal(r.status, 400, `${query}: ${r.text}`);
      assert.deepEqual(data(r), { code, path });
    };
    await bad("", "invalidValue", "q");
    await bad("q=", "invalidValue", "q");
    await bad("q=-deno", "invalidValue", "q");
    await bad(`q=${"x".repeat(300)}`, "valueTooLarge", "q");
    await bad("q=deno&limit=-1", "invalidNumber", "limit");
    await bad("q=deno&limit=x", "invalidNumber", "limit");
    await bad("q=deno&locale=xx", "invalidLocale", "locale");
    await bad("q=deno&page=1", "unknownParam", "page");
    await bad("q=deno&q=node", "invalidShape", "q");
    await bad("q=deno&collections=", "invalidField", "collections[0]");
    const de = await req(
      "GET",
      "/search?q=deno&locale=de&collections=articles,comments&limit=100",
    );
    assert.equal(de.status, 200);
  },
);

Deno.test("search over a real socket", async () => {
  const app = await bootFixture("search_app");
  const served = serveOnSocket(app);
  try {
    const client = clientOf(app);
    await create(client, "articles", { title: "Socket", body: "über sockets" });
    const r = await fetch(`${served.url}/collections/articles?search=UBER`);
    assert.equal(r.status, 200);
    assert.deepEqual(((await r.json()) as Rec[]).map((x) => x.title), [
      "Socket",
    ]);
    const all = await fetch(
      `${served.url}/search?q=${encodeURIComponent('"uber sockets"')}`,
    );
    assert.deepEqual(
      ((await all.json()) as Record<string, Rec[]>).articles.map((x) =>
        x.title
      ),
      ["Socket"],
    );
  } finally {
    await served.close();
    await app.close();
  }
});

Deno.test("the client lists with search and _relevance", async () => {
  const app = await bootFixture("search_app");
  const served = serveOnSocket(app);
  try {
    await create(clientOf(app), "articles", { title: "one", body: "deno" });
    await create(clientOf(app), "articles", {
      title: "two",
      body: "deno deno",
    });
    const client = createClient({ baseUrl: served.url });
    const articles = client.collection("Articles");
    const found = await articles.list({
      search: "DENO",
      order: ["_relevance"],
    });
    assert.deepEqual(found.map((r) => r.title), ["one", "two"]);
    const page = await articles.list({ search: "deno", page: 1, perPage: 1 });
    assert.deepEqual([page.total, page.records[0].title], [2, "two"]);
  } finally {
    await served.close();
    await app.close();
  }
});

dbAppTest(
  "GET /search answers 5 records per collection by default, at most 50",
  "search_app",
  async (client) => {
    for (let i = 0; i < 55; i++) {
      const article = await client.app.query("Articles").create({
        title: `a${i}`,
        body: "penguin",
      });
      assert.ok(article.ok);
      await client.app.query("Comments").create({
        article: article.record.UUID,
        text: "penguin",
      });
    }
    const count = async (query: string) => {
      const r = await client.req("GET", `/search?${query}`);
      assert.equal(r.status, 200, r.text);
      const body = r.body as Record<string, Rec[]>;
      return Object.fromEntries(
        Object.entries(body).map(([name, records]) => [name, records.length]),
      );
    };
    assert.deepEqual(await count("q=penguin"), { articles: 5, comments: 5 });
    assert.deepEqual(await count("q=penguin&limit=100"), {
      articles: 50,
      comments: 50,
    });
    assert.deepEqual(await count("q=penguin&limit=0&collections=comments"), {
      comments: 0,
    });
  },
);

dbAppTest(
  "query.guards.maxSearchBytes bounds search and q",
  "search_app",
  async ({ req }) => {
    for (const path of ["/collections/articles?search=", "/search?q="]) {
      assert.equal((await req("GET", `${path}abcdefgh`)).status, 200);
      const r = await req("GET", `${path}abcdefghi`);
      assert.equal(r.status, 400);
      assert.equal(data(r).code, "valueTooLarge");
    }
  },
  { config: { query: { guards: { maxSearchBytes: 8 } } } },
);
