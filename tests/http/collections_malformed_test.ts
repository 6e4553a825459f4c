// A table of malformed list queries over HTTP: each answers 400 with its stable code and path,
// identically as URL params and (where the values are JSON-expressible) as a POST …/query body.
import assert from "node:assert/strict";
import { clientOf } from "../_helpers/db_apps.ts";
import { bootFixture } from "../_helpers/fixture_app.ts";

const app = await bootFixture("api_app");
globalThis.addEventListener("unload", () => app.close());
const { req } = clientOf(app);

const deep = (n: number) => "{not:".repeat(n) + "{}" + "}".repeat(n);
const list = (n: number, item: (i: number) => string) =>
  `[${Array.from({ length: n }, (_, i) => item(i))}]`;

const ROWS: [query: string, code: string, path: string][] = [
  ["foo=1", "unknownParam", "foo"],
  ["Where={}", "unknownParam", "Where"],
  ["__proto__=1", "unknownParam", "__proto__"],
  ["where={}&where={}", "invalidShape", "where"],
  ["limit=1&limit=2", "invalidShape", "limit"],
  ["where=[", "invalidShape", "where"],
  ["where={views:}", "invalidShape", "where"],
  ["where={views:1,views:2}", "invalidShape", "where"],
  ["where=", "invalidShape", "where"],
  ["where=title", "invalidShape", "where"],
  ["where=[1]", "invalidShape", "where"],
  ["where=null", "invalidShape", "where"],
  ["where=" + deep(33), "tooDeep", "where"],
  ["where={nosuch:1}", "invalidField", "where.nosuch"],
  ["where={secret:x}", "invalidField", "where.secret"],
  ["where={__proto__:1}", "invalidField", "where.__proto__"],
  ["where={constructor:1}", "invalidField", "where.constructor"],
  ["where={toString:1}", "invalidField", "where.toString"],
  ["where={views:{contains:1}}", "invalidField", "where.views.contains"],
  [
    "where={published:{atLeast:true}}",
    "invalidField",
    "where.published.atLeast",
  ],
  ["where={views:{isNull:true}}", "invalidField", "where.views.isNull"],
  ["where={UUID:{contains:a}}", "invalidField", "where.UUID.contains"],
  ["where={tags:{atLeast:1}}", "invalidField", "where.tags.atLeast"],
  ["where={views:{bogus:1}}", "unknownOperator", "where.views.bogus"],
  ["where={rating:null}", "nullEquality", "where.rating"],
  ["where={views:{equalsTo:null}}", "nullEquality", "where.views.equalsTo"],
  ["where={views:1.5}", "invalidValue", "where.views"],
  ["where={views:`007}", "invalidValue", "where.views"],
  ["where={views:007}", "invalidValue", "where.views"],
  ["where={views:{atLeast:x}}", "invalidValue", "where.views.atLeast"],
  ["where={published:yes}", "invalidValue", "where.published"],
  ["where={rating:{isNull:1}}", "invalidValue", "where.rating.isNull"],
  ["where={title:5}", "invalidValue", "where.title"],
  ["where={views:{in:5}}", "invalidValue", "where.views.in"],
  ["where={UUID:nope}", "invalidValue", "where.UUID"],
  ["where={author:{has:5}}", "invalidShape", "where.author.has"],
  ["where={author:{empty:1}}", "invalidValue", "where.author.empty"],
  ["where={or:{}}", "invalidShape", "where.or"],
  ["where={or:[]}", "invalidShape", "where.or"],
  ["where={not:[]}", "invalidShape", "where.not"],
  [
    "where={author:{has:{nosuch:1}}}",
    "invalidField",
    "where.author.has.nosuch",
  ],
  ["where={author:{has:{pin:1}}}", "invalidField", "where.author.has.pin"],
  [
    "where={views:{in:" + list(2001, (i) => String(i)) + "}}",
    "listTooLong",
    "where.views.in",
  ],
  ["where={title:`" + "x".repeat(4097) + "}", "valueTooLarge", "where.title"],
  [
    "where={title:{like:`" + "x".repeat(513) + "}}",
    "valueTooLarge",
    "where.title.like",
  ],
  [
    "where={or:" + list(9, (i) => `{title:{contains:p${i}}}`) + "}",
    "tooManyPatterns",
    "where.or[8].title.contains",
  ],
  [
    "where={or:" +
    list(3, (i) => `{title:{contains:\`${"x".repeat(400)}${i}}}`) +
    "}",
    "patternsTooLarge",
    "where.or[2].title.contains",
  ],
  [
    "where={or:" + list(101, () => "{views:1}") + "}",
    "tooManyConditions",
    "where.or",
  ],
  ["select=[]", "emptySelect", "select"],
  ["select=[title,nosuch]", "invalidField", "select[1]"],
  ["select=[secret]", "invalidField", "select[0]"],
  ["select=5", "invalidShape", "select"],
  ["order=[nosuch]", "invalidField", "order[0]"],
  ["order=[tags]", "invalidField", "order[0]"],
  ["order=[views,-views]", "duplicateOrderField", "order[1]"],
  [
    "order=" + list(11, (i) =>
      [
        "views",
        "title",
        "rating",
        "published",
        "UUID",
        "status",
        "slug",
        "computed",
        "author",
        "-x",
        "y",
      ][i]),
    "tooManyOrderKeys",
    "order",
  ],
  ["populate=[title]", "invalidField", "populate[0]"],
  ["populate=[author,author]", "duplicatePopulateField", "populate[1]"],
  ["populate=[author.x.y]", "populateTooDeep", "populate[0]"],
  ["populate=[nosuch]", "invalidField", "populate[0]"],
  ["limit=-1", "invalidNumber", "limit"],
  ["limit=1.5", "invalidNumber", "limit"],
  ["limit=x", "invalidNumber", "limit"],
  ["offset=-3", "invalidNumber", "offset"],
  ["page=0", "invalidNumber", "page"],
  ["perPage=0", "invalidNumber", "perPage"],
  ["page=x", "invalidNumber", "page"],
  ["limit=5&perPage=5", "invalidPagination", "perPage"],
  ["offset=5&page=2", "invalidPagination", "page"],
  ["locale=xx-invalid-tag-!!", "invalidLocale", "locale"],
  ["locale=it", "invalidLocale", "locale"],
  ["locale=5", "invalidLocale", "locale"],
];

Deno.test(`${ROWS.length} malformed list queries answer 400 with their code and path`, async () => {
  assert.ok(ROWS.length >= 60);
  const mismatches: string[] = [];
  for (const [query, code, path] of ROWS) {
    const response = await req(
      "GET",
      `/collections/posts?${query.replaceAll("%", "%25")}`,
    );
    const data =
      (response.body as { data?: { code: string; path: string } }).data;
    if (response.status !== 400 || data?.code !== code || data?.path !== path) {
      mismatches.push(
        `${
          query.slice(0, 60)
        } → ${response.status} ${data?.code} ${data?.path}`,
      );
    }
  }
  assert.deepEqual(mismatches, []);
});

Deno.test("a locale on a collection without translatable fields is localeNotApplicable", async () => {
  const response = await req("GET", "/collections/authors?locale=de");
  assert.deepEqual((response.body as { data: unknown }).data, {
    code: "localeNotApplicable",
    path: "locale",
  });
});

Deno.test("the POST …/query body answers the same codes", async () => {
  const cases: [unknown, string, string][] = [
    [{ where: { nosuch: 1 } }, "invalidField", "where.nosuch"],
    [{ where: { rating: null } }, "nullEquality", "where.rating"],
    [{ limit: -1 }, "invalidNumber", "limit"],
    [{ foo: 1 }, "unknownParam", "foo"],
    [{ where: "{views:1}" }, "invalidShape", "where"],
  ];
  for (const [body, code, path] of cases) {
    const response = await req("POST", "/collections/posts/query", {
      json: body,
    });
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.deepEqual(
      (response.body as { data: unknown }).data,
      { code, path },
      JSON.stringify(body),
    );
  }
});

Deno.test("a POST …/query body that is not an object is a plain 400", async () => {
  const response = await req("POST", "/collections/posts/query", { json: [1] });
  assert.equal(response.status, 400);
  assert.equal((response.body as { data?: unknown }).data, undefined);
});
