import assert from "node:assert/strict";
import { parseListQuery } from "../../../collections/wire/parse.ts";
import { parseRelaxedLiteral } from "../../../collections/wire/literal.ts";
import { HTTPError } from "../../../router/errors.ts";
import {
  assertWireError,
  type ContextOptions,
  makeContext,
} from "./_fixtures.ts";
import { USERS } from "./_fixtures.ts";

/** One malformed list query in URL form and the error it must answer. */
interface Row {
  query: string;
  code: string;
  path: string;
  ctx?: ContextOptions;
}

const list = (n: number, item: (i: number) => string) =>
  `[${Array.from({ length: n }, (_, i) => item(i))}]`;

function nestedHas(levels: number): { query: string; path: string } {
  let inner = "{name:x}";
  let path = "where.author.has";
  for (let i = 1; i < levels; i++) {
    inner = `{manager:{has:${inner}}}`;
    path += ".manager.has";
  }
  return { query: `where={author:{has:${inner}}}`, path };
}

const tooManyHas = nestedHas(9);

const ROWS: Row[] = [
  // Param names and repetition.
  { query: "foo=1", code: "unknownParam", path: "foo" },
  { query: "Where={}", code: "unknownParam", path: "Where" },
  { query: "__proto__=1", code: "unknownParam", path: "__proto__" },
  { query: "constructor=1", code: "unknownParam", path: "constructor" },
  { query: "where={}&where={}", code: "invalidShape", path: "where" },
  { query: "limit=1&limit=2", code: "invalidShape", path: "limit" },
  { query: "where=[&foo=1", code: "unknownParam", path: "foo" },
  // Literal syntax and the shape of `where`.
  { query: "where=[", code: "invalidShape", path: "where" },
  { query: "where={views:}", code: "invalidShape", path: "where" },
  { query: "where={views:1,views:2}", code: "invalidShape", path: "where" },
  { query: 'where={title:"\\u00"}', code: "invalidShape", path: "where" },
  { query: "where=", code: "invalidShape", path: "where" },
  { query: "where=title", code: "invalidShape", path: "where" },
  { query: "where=[1]", code: "invalidShape", path: "where" },
  { query: "where=null", code: "invalidShape", path: "where" },
  { query: "where={views:1e999}", code: "invalidValue", path: "where" },
  {
    query: "where=" + "{not:".repeat(33) + "{}" + "}".repeat(33),
    code: "tooDeep",
    path: "where",
  },
  // Fields: unknown, write-only, prototype names, disallowed operators.
  { query: "where={nosuch:1}", code: "invalidField", path: "where.nosuch" },
  { query: "where={secret:x}", code: "invalidField", path: "where.secret" },
  {
    query: "where={secret:{equalsTo:x}}",
    code: "invalidField",
    path: "where.secret",
  },
  {
    query: "where={__proto__:{equalsTo:1}}",
    code: "invalidField",
    path: "where.__proto__",
  },
  {
    query: "where={constructor:1}",
    code: "invalidField",
    path: "where.constructor",
  },
  { query: "where={toString:x}", code: "invalidField", path: "where.toString" },
  {
    query: "where={hasOwnProperty:x}",
    code: "invalidField",
    path: "where.hasOwnProperty",
  },
  { query: "where={and:[]}", code: "invalidField", path: "where.and" },
  {
    query: "where={views:{contains:1}}",
    code: "invalidField",
    path: "where.views.contains",
  },
  {
    query: "where={title:{includes:x}}",
    code: "invalidField",
    path: "where.title.includes",
  },
  {
    query: "where={views:{isNull:true}}",
    code: "invalidField",
    path: "where.views.isNull",
  },
  {
    query: "where={UUID:{contains:a}}",
    code: "invalidField",
    path: "where.UUID.contains",
  },
  {
    query: "where={UUID:{isNull:true}}",
    code: "invalidField",
    path: "where.UUID.isNull",
  },
  { query: "where={tags:a}", code: "invalidField", path: "where.tags" },
  {
    query: "where={views:{has:{}}}",
    code: "invalidField",
    path: "where.views.has",
  },
  {
    query: "where={ghost:{has:{}}}",
    code: "invalidField",
    path: "where.ghost.has",
  },
  // Operators that do not exist at all.
  {
    query: "where={views:{foo:1}}",
    code: "unknownOperator",
    path: "where.views.foo",
  },
  {
    query: "where={views:{constructor:1}}",
    code: "unknownOperator",
    path: "where.views.constructor",
  },
  {
    query: "where={title:{or:[]}}",
    code: "unknownOperator",
    path: "where.title.or",
  },
  // Null equality.
  { query: "where={rating:null}", code: "nullEquality", path: "where.rating" },
  {
    query: "where={rating:{equalsTo:null}}",
    code: "nullEquality",
    path: "where.rating.equalsTo",
  },
  {
    query: "where={views:{in:[1,null]}}",
    code: "nullEquality",
    path: "where.views.in[1]",
  },
  // Values of the wrong type for their kind.
  { query: "where={views:1.5}", code: "invalidValue", path: "where.views" },
  { query: "where={views:`007}", code: "invalidValue", path: "where.views" },
  { query: 'where={views:"7"}', code: "invalidValue", path: "where.views" },
  {
    query: "where={views:{atLeast:ten}}",
    code: "invalidValue",
    path: "where.views.atLeast",
  },
  { query: "where={title:10}", code: "invalidValue", path: "where.title" },
  {
    query: "where={published:1}",
    code: "invalidValue",
    path: "where.published",
  },
  {
    query: "where={publishedOn:2023-02-29}",
    code: "invalidValue",
    path: "where.publishedOn",
  },
  {
    query: "where={publishedOn:{atLeast:2024-13-01}}",
    code: "invalidValue",
    path: "where.publishedOn.atLeast",
  },
  {
    query: "where={startsAt:{lessThan:24:00:00}}",
    code: "invalidValue",
    path: "where.startsAt.lessThan",
  },
  {
    query: "where={createdAt:{atLeast:1.5}}",
    code: "invalidValue",
    path: "where.createdAt.atLeast",
  },
  { query: "where={author:bob}", code: "invalidValue", path: "where.author" },
  {
    query: "where={UUID:{in:[x]}}",
    code: "invalidValue",
    path: "where.UUID.in[0]",
  },
  {
    query: "where={comments:{includes:1}}",
    code: "invalidValue",
    path: "where.comments.includes",
  },
  {
    query: "where={rating:{isNull:1}}",
    code: "invalidValue",
    path: "where.rating.isNull",
  },
  {
    query: "where={tags:{empty:yes}}",
    code: "invalidValue",
    path: "where.tags.empty",
  },
  {
    query: "where={views:{in:5}}",
    code: "invalidValue",
    path: "where.views.in",
  },
  { query: "where={views:[1,2]}", code: "invalidValue", path: "where.views" },
  {
    query: "where={title:{like:5}}",
    code: "invalidValue",
    path: "where.title.like",
  },
  // The structure of conditions and logic.
  { query: "where={views:{}}", code: "invalidShape", path: "where.views" },
  { query: "where={or:[]}", code: "invalidShape", path: "where.or" },
  { query: "where={or:{views:1}}", code: "invalidShape", path: "where.or" },
  {
    query: "where={or:[{views:1},3]}",
    code: "invalidShape",
    path: "where.or[1]",
  },
  {
    query: "where={or:[{views:1},{nosuch:1}]}",
    code: "invalidField",
    path: "where.or[1].nosuch",
  },
  { query: "where={not:[{views:1}]}", code: "invalidShape", path: "where.not" },
  {
    query: "where={not:{secret:x}}",
    code: "invalidField",
    path: "where.not.secret",
  },
  {
    query: "where={author:{has:x}}",
    code: "invalidShape",
    path: "where.author.has",
  },
  {
    query: "where={author:{has:{password:x}}}",
    code: "invalidField",
    path: "where.author.has.password",
  },
  {
    query: "where={comments:{has:{author:{has:{nosuch:1}}}}}",
    code: "invalidField",
    path: "where.comments.has.author.has.nosuch",
  },
  { query: tooManyHas.query, code: "tooDeep", path: tooManyHas.path },
  // Guards on `where`.
  {
    query: "where={or:" + list(101, () => "{views:1}") + "}",
    code: "tooManyConditions",
    path: "where.or",
  },
  {
    query: "where={views:{atLeast:1,atMost:5},title:x}",
    code: "tooManyConditions",
    path: "where.title",
    ctx: { guards: { maxConditions: 2 } },
  },
  {
    query: "where={views:{in:" + list(2001, (i) => String(i)) + "}}",
    code: "listTooLong",
    path: "where.views.in",
  },
  {
    query: "where={title:" + "x".repeat(4097) + "}",
    code: "valueTooLarge",
    path: "where.title",
  },
  {
    query: "where={title:" + "é".repeat(2049) + "}",
    code: "valueTooLarge",
    path: "where.title",
  },
  {
    query: "where={title:{in:[a," + "x".repeat(4097) + "]}}",
    code: "valueTooLarge",
    path: "where.title.in[1]",
  },
  {
    query: "where={title:{like:" + "a".repeat(513) + "}}",
    code: "valueTooLarge",
    path: "where.title.like",
  },
  {
    query: "where={body:{contains:" + "a".repeat(513) + "}}",
    code: "valueTooLarge",
    path: "where.body.contains",
  },
  // select.
  { query: "select=[]", code: "emptySelect", path: "select" },
  { query: "select=[title,nosuch]", code: "invalidField", path: "select[1]" },
  { query: "select=[secret]", code: "invalidField", path: "select[0]" },
  { query: "select=[__proto__]", code: "invalidField", path: "select[0]" },
  { query: "select=[1]", code: "invalidShape", path: "select[0]" },
  { query: "select={title:1}", code: "invalidShape", path: "select" },
  {
    query: "select=" + list(201, () => "title"),
    code: "tooManyFields",
    path: "select",
  },
  // order.
  {
    query: "order=[views,-views]",
    code: "duplicateOrderField",
    path: "order[1]",
  },
  { query: "order=[tags]", code: "invalidField", path: "order[0]" },
  { query: "order=[-comments]", code: "invalidField", path: "order[0]" },
  { query: "order=[--views]", code: "invalidField", path: "order[0]" },
  { query: "order=[secret]", code: "invalidField", path: "order[0]" },
  { query: "order=[views,{a:1}]", code: "invalidShape", path: "order[1]" },
  {
    query: "order=" + list(11, (i) => `f${i}`),
    code: "tooManyOrderKeys",
    path: "order",
  },
  // populate.
  { query: "populate=[title]", code: "invalidField", path: "populate[0]" },
  {
    query: "populate=[author,author]",
    code: "duplicatePopulateField",
    path: "populate[1]",
  },
  {
    query: "populate=[comments.author,comments,comments.author]",
    code: "duplicatePopulateField",
    path: "populate[2]",
  },
  {
    query: "populate=[comments.author.manager]",
    code: "populateTooDeep",
    path: "populate[0]",
  },
  {
    query: "populate=[comments.nosuch]",
    code: "invalidField",
    path: "populate[0]",
  },
  {
    query: "populate=[author.password]",
    code: "invalidField",
    path: "populate[0]",
  },
  { query: "populate=[ghost]", code: "invalidField", path: "populate[0]" },
  { query: "populate=[.author]", code: "invalidField", path: "populate[0]" },
  { query: "populate=[author,3]", code: "invalidShape", path: "populate[1]" },
  {
    query: "populate=" + list(21, () => "author"),
    code: "tooManyPopulate",
    path: "populate",
  },
  // The window.
  { query: "limit=-1", code: "invalidNumber", path: "limit" },
  { query: "limit=1.5", code: "invalidNumber", path: "limit" },
  { query: "limit=`10", code: "invalidNumber", path: "limit" },
  { query: 'limit="10"', code: "invalidNumber", path: "limit" },
  { query: "limit=", code: "invalidShape", path: "limit" },
  { query: "offset=-5", code: "invalidNumber", path: "offset" },
  { query: "page=0", code: "invalidNumber", path: "page" },
  { query: "page=abc", code: "invalidNumber", path: "page" },
  { query: "perPage=0", code: "invalidNumber", path: "perPage" },
  { query: "perPage=[5]", code: "invalidNumber", path: "perPage" },
  { query: "limit=10&page=2", code: "invalidPagination", path: "page" },
  { query: "offset=10&perPage=5", code: "invalidPagination", path: "perPage" },
  // locale.
  { query: "locale=xx_YY", code: "invalidLocale", path: "locale" },
  { query: "locale=es", code: "invalidLocale", path: "locale" },
  { query: "locale=123", code: "invalidLocale", path: "locale" },
  {
    query: "locale=de",
    code: "localeNotApplicable",
    path: "locale",
    ctx: { collection: USERS },
  },
  // A scope narrows what is reachable, UUID included.
  {
    query: "where={views:1}",
    code: "invalidField",
    path: "where.views",
    ctx: { reachable: { Posts: ["title"] } },
  },
  {
    query: "where={UUID:{in:[]}}",
    code: "invalidField",
    path: "where.UUID",
    ctx: { reachable: { Posts: ["title"] } },
  },
  {
    query: "select=[title,UUID]",
    code: "invalidField",
    path: "select[1]",
    ctx: { reachable: { Posts: ["title"] } },
  },
  {
    query: "order=[-views]",
    code: "invalidField",
    path: "order[0]",
    ctx: { reachable: { Posts: ["title"] } },
  },
  {
    query: "populate=[author]",
    code: "invalidField",
    path: "populate[0]",
    ctx: { reachable: { Posts: ["title"] } },
  },
  {
    query: "where={author:{has:{email:x}}}",
    code: "invalidField",
    path: "where.author.has.email",
    ctx: { reachable: { Users: ["name"] } },
  },
  {
    query: "populate=[comments.author]",
    code: "invalidField",
    path: "populate[0]",
    ctx: { reachable: { Comments: ["text"] } },
  },
  {
    query: "where={secret:x}",
    code: "invalidField",
    path: "where.secret",
    ctx: { reachable: { Posts: ["title", "secret"] } },
  },
  // Checks run in a fixed order: where, select, order, populate, window, locale.
  {
    query: "locale=zz&limit=-1&select=[]&where={nosuch:1}",
    code: "invalidField",
    path: "where.nosuch",
  },
  {
    query: "locale=zz&limit=-1&select=[]",
    code: "emptySelect",
    path: "select",
  },
  { query: "locale=zz&limit=-1", code: "invalidNumber", path: "limit" },
];

Deno.test("malformed queries: the table has at least 60 rows", () => {
  assert.ok(ROWS.length >= 60, `${ROWS.length} rows`);
});

for (const [i, row] of ROWS.entries()) {
  const label = row.query.length > 60
    ? row.query.slice(0, 57) + "..."
    : row.query;
  Deno.test(`malformed #${i}: ${label} -> ${row.code} at ${row.path}`, () => {
    const ctx = makeContext(row.ctx);
    assertWireError(
      () => parseListQuery(new URLSearchParams(row.query), ctx),
      row.code,
      row.path,
    );
    // The same query as a JSON body answers alike, unless the URL form failed
    // on something a body cannot express (a repeated param, literal syntax).
    const body: Record<string, unknown> = {};
    try {
      for (const [name, text] of new URLSearchParams(row.query)) {
        if (Object.hasOwn(body, name)) return;
        Object.defineProperty(body, name, {
          value: parseRelaxedLiteral(text, name),
          enumerable: true,
        });
      }
    } catch (error) {
      assert.ok(error instanceof HTTPError);
      return;
    }
    assertWireError(() => parseListQuery(body, ctx), row.code, row.path);
  });
}
