import assert from "node:assert/strict";
import { parseListQuery } from "../../../collections/wire/parse.ts";
import { parseRelaxedLiteral } from "../../../collections/wire/literal.ts";
import { assertWireError, makeContext, UUID_A } from "./_fixtures.ts";

/** URL queries and the JSON bodies a client would send for the same read. */
const PAIRS: [string, Record<string, unknown>][] = [
  ["", {}],
  ["where={views:{atLeast:10}}", { where: { views: { atLeast: 10 } } }],
  [
    "where={title:`007,views:7}&select=[title,views]&order=[-views,title]",
    {
      where: { title: "007", views: 7 },
      select: ["title", "views"],
      order: ["-views", "title"],
    },
  ],
  [
    'where={or:[{title:"a,b"},{not:{rating:{isNull:true}}}]}&limit=50&offset=10',
    {
      where: { or: [{ title: "a,b" }, { not: { rating: { isNull: true } } }] },
      limit: 50,
      offset: 10,
    },
  ],
  [
    `where={author:{has:{name:{startsWith:An}}},UUID:{in:[${UUID_A}]}}&populate=[author,comments.author]&page=2`,
    {
      where: {
        author: { has: { name: { startsWith: "An" } } },
        UUID: { in: [UUID_A] },
      },
      populate: ["author", "comments.author"],
      page: 2,
    },
  ],
  [
    "where={publishedOn:{atLeast:2024-01-01},startsAt:{atMost:18:00:00}}&perPage=1000&locale=FR-ca",
    {
      where: {
        publishedOn: { atLeast: "2024-01-01" },
        startsAt: { atMost: "18:00:00" },
      },
      perPage: 1000,
      locale: "fr-CA",
    },
  ],
  [
    "select=title&order=-views&populate=author&limit=1e4",
    { select: "title", order: "-views", populate: "author", limit: 10000 },
  ],
  [
    "where={tags:{includesAll:[a,b]},published:true,rating:{lessThan:-0.5}}",
    {
      where: {
        tags: { includesAll: ["a", "b"] },
        published: true,
        rating: { lessThan: -0.5 },
      },
    },
  ],
];

Deno.test("equivalence: URL and JSON forms give identical plans", () => {
  const ctx = makeContext();
  for (const [query, body] of PAIRS) {
    const fromUrl = parseListQuery(new URLSearchParams(query), ctx);
    const fromBody = parseListQuery(structuredClone(body), ctx);
    assert.deepStrictEqual(fromUrl, fromBody, query);
  }
});

Deno.test("equivalence: a body built from the parsed URL literals matches", () => {
  const ctx = makeContext();
  for (const [query] of PAIRS) {
    const params = new URLSearchParams(query);
    const body = Object.fromEntries(
      [...params].map(([k, v]) => [k, parseRelaxedLiteral(v, k)]),
    );
    // Through JSON text, as `POST …/query` receives it.
    const viaJson = JSON.parse(JSON.stringify(body));
    assert.deepStrictEqual(
      parseListQuery(viaJson, ctx),
      parseListQuery(params, ctx),
      query,
    );
  }
});

Deno.test("equivalence: JSON in the URL is the same as relaxed syntax", () => {
  const ctx = makeContext();
  const relaxed = parseListQuery(
    new URLSearchParams("where={views:{in:[1,2]},title:x}&order=[-views]"),
    ctx,
  );
  const json = parseListQuery(
    new URLSearchParams(
      'where={"views":{"in":[1,2]},"title":"x"}&order=["-views"]',
    ),
    ctx,
  );
  assert.deepStrictEqual(json, relaxed);
});

Deno.test("equivalence: body strings are JSON values, never relaxed literals", () => {
  const ctx = makeContext();
  assertWireError(
    () => parseListQuery({ where: "{views:{atLeast:10}}" }, ctx),
    "invalidShape",
    "where",
  );
  assertWireError(
    () => parseListQuery({ select: "[title]" }, ctx),
    "invalidField",
    "select[0]",
  );
  assertWireError(
    () => parseListQuery({ limit: "10" }, ctx),
    "invalidNumber",
    "limit",
  );
  // "007" in a body is the string it looks like, with no backtick needed.
  assert.deepStrictEqual(
    parseListQuery({ where: { title: "007", status: "`x" } }, ctx).where,
    { title: "007", status: "`x" },
  );
  assertWireError(
    () => parseListQuery({ where: { views: "10" } }, ctx),
    "invalidValue",
    "where.views",
  );
});

Deno.test("equivalence: plans carry no prototype surprises", () => {
  const ctx = makeContext();
  const plan = parseListQuery(
    new URLSearchParams("where={or:[{title:x}],views:1}"),
    ctx,
  );
  assert.equal(Object.getPrototypeOf(plan.where), Object.prototype);
  assert.deepStrictEqual(Object.keys(plan.where ?? {}), ["or", "views"]);
});
