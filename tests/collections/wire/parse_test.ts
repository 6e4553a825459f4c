import assert from "node:assert/strict";
import {
  assertNoParams,
  type ListPlan,
  parseListQuery,
  parseLocaleParam,
  parseReadOneQuery,
  parseWriteParams,
} from "../../../collections/wire/parse.ts";
import {
  assertWireError,
  makeContext,
  USERS,
  UUID_A,
  UUID_B,
} from "./_fixtures.ts";

const list = (query: string, ctx = makeContext()): ListPlan =>
  parseListQuery(new URLSearchParams(query), ctx);

Deno.test("list: no params is an unpaginated read capped at maxLimit", () => {
  assert.deepEqual(list(""), {
    order: [],
    populate: [],
    paginated: false,
    limit: 2000,
  });
});

Deno.test("list: where keeps equality shorthand and validates every kind", () => {
  const plan = list(
    "where=" + encodeURIComponent(
      `{title:Hello world, views:{atLeast:10,lessThan:1e3}, rating:{isNull:true},` +
        `published:false, publishedOn:{atMost:2024-02-29}, createdAt:{greaterThan:-5},` +
        `startsAt:{in:[09:30:00,23:59:59]}, status:{in:[draft,whatever]},` +
        `tags:{includesAny:[a,z]}, author:${UUID_A.toUpperCase()},` +
        `comments:{includes:${UUID_B}}, UUID:{in:[${UUID_A}]},` +
        `body:{contains:"50%_off", like:"a%", startsWith:x, endsWith:y}}`,
    ),
  );
  assert.deepEqual(plan.where, {
    title: "Hello world",
    views: { atLeast: 10, lessThan: 1000 },
    rating: { isNull: true },
    published: false,
    publishedOn: { atMost: "2024-02-29" },
    createdAt: { greaterThan: -5 },
    startsAt: { in: ["09:30:00", "23:59:59"] },
    status: { in: ["draft", "whatever"] },
    tags: { includesAny: ["a", "z"] },
    author: UUID_A,
    comments: { includes: UUID_B },
    UUID: { in: [UUID_A] },
    body: { contains: "50%_off", like: "a%", startsWith: "x", endsWith: "y" },
  });
});

Deno.test("list: or, not, has and empty nest and normalise", () => {
  const plan = list(
    "where={or:[{views:{atLeast:10}},{not:{title:x}}]," +
      "author:{has:{name:Ann,manager:{has:{email:a@b.c}}}}," +
      "comments:{has:{author:{has:{groups:{empty:false}}}}},tags:{empty:true}}",
  );
  assert.deepEqual(plan.where, {
    or: [{ views: { atLeast: 10 } }, { not: { title: "x" } }],
    author: { has: { name: "Ann", manager: { has: { email: "a@b.c" } } } },
    comments: { has: { author: { has: { groups: { empty: false } } } } },
    tags: { empty: true },
  });
});

Deno.test("list: has may nest exactly maxHasDepth levels", () => {
  const ctx = makeContext({ guards: { maxHasDepth: 3 } });
  const ok = "where={author:{has:{manager:{has:{manager:{has:{name:x}}}}}}}";
  assert.ok(list(ok, ctx).where);
  assertWireError(
    () =>
      list(
        "where={author:{has:{manager:{has:{manager:{has:{manager:{has:{}}}}}}}}}",
        ctx,
      ),
    "tooDeep",
    "where.author.has.manager.has.manager.has.manager.has",
  );
});

Deno.test("list: guards admit their exact limit and refuse one more", () => {
  const ctx = makeContext({
    guards: {
      maxConditions: 3,
      maxInLength: 2,
      maxValueBytes: 4,
      maxPatternBytes: 2,
    },
  });
  assert.ok(list("where={views:{in:[1,2],atLeast:0,atMost:9}}", ctx).where);
  assert.ok(list("where={views:{in:[1,2],atLeast:0},title:a€}", ctx).where);
  assertWireError(
    () => list("where={views:{in:[1,2],atLeast:0},title:ab€}", ctx),
    "valueTooLarge",
    "where.title",
  );
  assertWireError(
    () => list("where={views:{in:[1,2,3]}}", ctx),
    "listTooLong",
    "where.views.in",
  );
  assertWireError(
    () => list("where={views:{in:[1,2],atLeast:0,atMost:9},title:x}", ctx),
    "tooManyConditions",
    "where.title",
  );
  assert.ok(list("where={title:{contains:ab}}", ctx).where);
  assertWireError(
    () => list("where={title:{contains:abc}}", ctx),
    "valueTooLarge",
    "where.title.contains",
  );
  // A surrogate pair is 4 bytes; a lone surrogate counts as U+FFFD (3).
  assert.ok(list(`where={title:${encodeURIComponent("😀")}}`, ctx).where);
  assertWireError(
    () => list(`where={title:a${encodeURIComponent("😀")}}`, ctx),
    "valueTooLarge",
    "where.title",
  );
});

Deno.test("list: dates, times and numbers are range checked", () => {
  assert.ok(list("where={publishedOn:2024-02-29}").where);
  assert.ok(list("where={publishedOn:2000-02-29}").where);
  assertWireError(
    () => list("where={publishedOn:1900-02-29}"),
    "invalidValue",
    "where.publishedOn",
  );
  assertWireError(
    () => list("where={publishedOn:2024-04-31}"),
    "invalidValue",
    "where.publishedOn",
  );
  assertWireError(
    () => list("where={publishedOn:2024-1-01}"),
    "invalidValue",
    "where.publishedOn",
  );
  assert.ok(list("where={startsAt:00:00:00}").where);
  assertWireError(
    () => list("where={startsAt:12:60:00}"),
    "invalidValue",
    "where.startsAt",
  );
  assert.ok(list("where={rating:{atLeast:-1.5}}").where);
  assertWireError(
    () => list("where={views:9007199254740993}"),
    "invalidValue",
    "where.views",
  );
  assertWireError(
    () => list("where={status:1}"),
    "invalidValue",
    "where.status",
  );
});

Deno.test("list: translatable fields filter like any other", () => {
  const plan = list("where={title:{startsWith:Hal}}&locale=de");
  assert.deepEqual(plan.where, { title: { startsWith: "Hal" } });
  assert.equal(plan.locale, "de");
});

Deno.test("list: hidden fields and disallowed operators are indistinguishable", () => {
  const ctx = makeContext({
    reachable: { Posts: ["title", "views", "stale"] },
  });
  const messages = [
    "where={nosuch:{equalsTo:x}}",
    "where={secret:{equalsTo:x}}",
    "where={rating:{equalsTo:1}}",
    "where={stale:{equalsTo:x}}",
    "where={views:{contains:x}}",
    "where={views:{isNull:true}}",
  ].map((query) => {
    try {
      list(query, ctx);
    } catch (error) {
      return [
        (error as { message: string }).message,
        (error as { data: { code: string } }).data.code,
      ];
    }
    throw new Error(`${query} was accepted`);
  });
  for (const m of messages) assert.deepEqual(m, messages[0]);
  assert.deepEqual(messages[0][1], "invalidField");
  // A write-only field with a valid operator answers exactly as a missing one.
  const a = assertWireError(
    () => list("where={secret:{equalsTo:x}}"),
    "invalidField",
    "where.secret",
  );
  const b = assertWireError(
    () => list("where={secreT:{equalsTo:x}}"),
    "invalidField",
    "where.secreT",
  );
  assert.deepEqual(a.toJSON().message, b.toJSON().message);
  // Even with an operator that does not exist, nothing about the field leaks.
  assertWireError(
    () => list("where={secret:{nope:x}}"),
    "invalidField",
    "where.secret",
  );
});

Deno.test("list: a scope admits UUID only when it names it", () => {
  const ctx = makeContext({ reachable: { Posts: ["UUID", "title"] } });
  assert.deepEqual(
    list(`where={UUID:${UUID_A}}&select=[UUID]&order=[-UUID]`, ctx).order,
    [{ field: "UUID", descending: true }],
  );
});

Deno.test("list: select dedupes, keeps order and takes a single name", () => {
  assert.deepEqual(
    list("select=[views,title,views,UUID,author,comments]").select,
    [
      "views",
      "title",
      "UUID",
      "author",
      "comments",
    ],
  );
  assert.deepEqual(list("select=title").select, ["title"]);
  assert.equal(
    list("select=" + JSON.stringify(Array(200).fill("title"))).select?.length,
    1,
  );
});

Deno.test("list: order keys", () => {
  assert.deepEqual(list("order=[-views,title,author,-UUID]").order, [
    { field: "views", descending: true },
    { field: "title", descending: false },
    { field: "author", descending: false },
    { field: "UUID", descending: true },
  ]);
  assert.deepEqual(list("order=-createdAt").order, [
    { field: "createdAt", descending: true },
  ]);
  assert.deepEqual(list("order=[]").order, []);
});

Deno.test("list: populate builds a tree in first-seen order", () => {
  assert.deepEqual(
    list(
      "populate=[comments.author,author,comments.post,comments,author.groups]",
    )
      .populate,
    [
      {
        field: "comments",
        populate: [
          { field: "author", populate: [] },
          { field: "post", populate: [] },
        ],
      },
      { field: "author", populate: [{ field: "groups", populate: [] }] },
    ],
  );
  assert.deepEqual(list("populate=author").populate, [
    { field: "author", populate: [] },
  ]);
  const deep = makeContext({ guards: { maxPopulateDepth: 3 } });
  assert.deepEqual(list("populate=[comments.author.manager]", deep).populate, [
    {
      field: "comments",
      populate: [{
        field: "author",
        populate: [{ field: "manager", populate: [] }],
      }],
    },
  ]);
});

Deno.test("list: limit and offset, clamped to maxLimit", () => {
  assert.deepEqual(pick(list("limit=10&offset=20")), {
    paginated: false,
    limit: 10,
    offset: 20,
  });
  assert.deepEqual(pick(list("limit=5000")), { paginated: false, limit: 2000 });
  assert.deepEqual(pick(list("limit=1e30")), { paginated: false, limit: 2000 });
  assert.deepEqual(pick(list("limit=0")), { paginated: false, limit: 0 });
  assert.deepEqual(pick(list("offset=3")), {
    paginated: false,
    limit: 2000,
    offset: 3,
  });
  assertWireError(() => list("offset=1e30"), "invalidNumber", "offset");
});

Deno.test("list: page and perPage select the paginated envelope", () => {
  assert.deepEqual(pick(list("page=3")), {
    paginated: true,
    page: 3,
    perPage: 20,
  });
  assert.deepEqual(pick(list("perPage=50")), {
    paginated: true,
    page: 1,
    perPage: 50,
  });
  assert.deepEqual(pick(list("page=2&perPage=10000")), {
    paginated: true,
    page: 2,
    perPage: 500,
  });
  const small = makeContext({ guards: { maxPerPage: 5 } });
  assert.deepEqual(pick(list("page=1", small)), {
    paginated: true,
    page: 1,
    perPage: 5,
  });
});

function pick(plan: ListPlan) {
  const { limit, offset, page, perPage, paginated } = plan;
  return Object.fromEntries(
    Object.entries({ limit, offset, page, perPage, paginated }).filter((
      [, v],
    ) => v !== undefined),
  );
}

Deno.test("list: locale is canonicalised and must be configured", () => {
  assert.equal(list("locale=DE").locale, "de");
  assert.equal(list("locale=fr-ca").locale, "fr-CA");
  assert.equal(list('locale="en"').locale, "en");
  assertWireError(() => list("locale=fr"), "invalidLocale", "locale");
  assertWireError(() => list("locale=true"), "invalidLocale", "locale");
  assertWireError(() => list("locale=[de]"), "invalidLocale", "locale");
  assertWireError(
    () => list("locale=" + "a".repeat(300)),
    "invalidLocale",
    "locale",
  );
  assertWireError(
    () => list("locale=de", makeContext({ collection: USERS })),
    "localeNotApplicable",
    "locale",
  );
  assertWireError(
    () => list("locale=n0t_a_tag", makeContext({ collection: USERS })),
    "invalidLocale",
    "locale",
  );
});

Deno.test("list: a body must be a plain object", () => {
  const ctx = makeContext();
  for (const body of [null, [], "where", 5]) {
    assertWireError(
      () => parseListQuery(body as unknown as Record<string, unknown>, ctx),
      "invalidShape",
      "",
    );
  }
  assert.deepEqual(parseListQuery({ where: undefined }, ctx), list(""));
  assertWireError(
    () => parseListQuery(JSON.parse('{"__proto__": {}}'), ctx),
    "unknownParam",
    "__proto__",
  );
});

Deno.test("read one: select, populate and locale only", () => {
  const ctx = makeContext();
  assert.deepEqual(
    parseReadOneQuery(
      new URLSearchParams("select=[title,author]&populate=author&locale=de"),
      ctx,
    ),
    {
      select: ["title", "author"],
      populate: [{ field: "author", populate: [] }],
      locale: "de",
    },
  );
  assert.deepEqual(parseReadOneQuery(new URLSearchParams(""), ctx), {
    populate: [],
  });
  for (const name of ["where", "order", "limit", "offset", "page", "perPage"]) {
    assertWireError(
      () =>
        parseReadOneQuery(new URLSearchParams(`select=[title]&${name}=1`), ctx),
      "unknownParam",
      name,
    );
  }
  assertWireError(
    () => parseReadOneQuery(new URLSearchParams("select=[]"), ctx),
    "emptySelect",
    "select",
  );
  assertWireError(
    () => parseReadOneQuery(new URLSearchParams("locale=de&locale=en"), ctx),
    "invalidShape",
    "locale",
  );
});

Deno.test("write params: locale only", () => {
  const ctx = makeContext();
  assert.deepEqual(parseWriteParams(new URLSearchParams(""), ctx), {});
  assert.deepEqual(
    parseWriteParams(new URLSearchParams("locale=FR-ca"), ctx),
    { locale: "fr-CA" },
  );
  assertWireError(
    () => parseWriteParams(new URLSearchParams("locale=de&select=[a]"), ctx),
    "unknownParam",
    "select",
  );
  assertWireError(
    () => parseWriteParams(new URLSearchParams("locale=it"), ctx),
    "invalidLocale",
    "locale",
  );
  assertWireError(
    () =>
      parseWriteParams(
        new URLSearchParams("locale=de"),
        makeContext({ collection: USERS }),
      ),
    "localeNotApplicable",
    "locale",
  );
});

Deno.test("assertNoParams refuses any param", () => {
  assertNoParams(new URLSearchParams(""));
  assertWireError(
    () => assertNoParams(new URLSearchParams("force=true")),
    "unknownParam",
    "force",
  );
  assertWireError(
    () => assertNoParams(new URLSearchParams("a")),
    "unknownParam",
    "a",
  );
});

Deno.test("parseLocaleParam validates plain text", () => {
  const ctx = makeContext();
  assert.equal(parseLocaleParam(null, ctx), undefined);
  assert.equal(parseLocaleParam("DE", ctx), "de");
  assertWireError(() => parseLocaleParam("", ctx), "invalidLocale", "locale");
  assertWireError(
    () => parseLocaleParam("de_DE", ctx, "from"),
    "invalidLocale",
    "from",
  );
  assertWireError(
    () => parseLocaleParam("de", makeContext({ collection: USERS }), "from"),
    "localeNotApplicable",
    "from",
  );
});

Deno.test("list: deep bodies are bounded without recursion limits", () => {
  const ctx = makeContext();
  let filter: Record<string, unknown> = { title: "x" };
  for (let i = 0; i < 40; i++) filter = { not: filter };
  assertWireError(
    () => parseListQuery({ where: filter }, ctx),
    "tooDeep",
    "where" + ".not".repeat(33),
  );
  let nested: unknown = 1;
  for (let i = 0; i < 10_000; i++) nested = [nested];
  assertWireError(
    () => parseListQuery({ where: { views: { in: [nested] } } }, ctx),
    "invalidValue",
    "where.views.in[0]",
  );
  assertWireError(
    () => parseListQuery({ select: [nested] }, ctx),
    "invalidShape",
    "select[0]",
  );
  const wide = Array.from({ length: 100_000 }, () => ({ title: "x" }));
  assertWireError(
    () => parseListQuery({ where: { or: wide } }, ctx),
    "tooManyConditions",
    "where.or",
  );
});
