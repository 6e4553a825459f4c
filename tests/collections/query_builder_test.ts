import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import {
  type DataLayer,
  defineCollection,
  field,
  QueryError,
  type WhereFilter,
} from "./_imports.ts";
import { created, dataTest, refused } from "./_helpers.ts";

const collections = {
  Users: defineCollection({
    fields: {
      name: field("text"),
      role: field("select", {
        choices: ["admin", "member"],
        default: "member",
      }),
    },
  }),
  Tags: defineCollection({
    fields: {
      label: field("text"),
      owner: field("record", { collection: "Users", nullable: true }),
    },
  }),
  Posts: defineCollection({
    fields: {
      title: field("text"),
      subtitle: field("text", { nullable: true }),
      views: field("integer"),
      score: field("number", { nullable: true }),
      published: field("boolean"),
      day: field("date"),
      at: field("dateTime"),
      slot: field("time"),
      status: field("select", { choices: ["draft", "live"] }),
      kinds: field("multiSelect", { choices: ["a", "b", "c"], default: [] }),
      author: field("record", { collection: "Users", nullable: true }),
      tags: field("records", { collection: "Tags", default: [] }),
    },
  }),
};

interface Seeded {
  users: Record<string, string>;
  tags: Record<string, string>;
}

async function seed(data: DataLayer): Promise<Seeded> {
  const users: Record<string, string> = {};
  for (const [name, role] of [["ann", "admin"], ["bob", "member"]]) {
    users[name] =
      created(await data.query("Users").create({ name, role })).UUID;
  }
  const tags: Record<string, string> = {};
  for (
    const [label, owner] of [
      ["red", "ann"],
      ["green", "bob"],
      ["blue", null],
    ] as const
  ) {
    tags[label] = created(
      await data.query("Tags").create({
        label,
        owner: owner ? users[owner] : null,
      }),
    ).UUID;
  }
  const rows = [
    [
      "Alpha",
      null,
      10,
      1.5,
      true,
      "2024-01-01",
      1000,
      "08:00:00",
      "live",
      ["a"],
      "ann",
      ["red", "green"],
    ],
    [
      "beta 50%",
      "sub",
      20,
      null,
      false,
      "2024-02-01",
      2000,
      "09:30:00",
      "draft",
      ["a", "b"],
      "bob",
      ["blue"],
    ],
    [
      "Gamma_x",
      "Übung",
      30,
      3,
      true,
      "2024-03-01",
      3000,
      "10:00:00",
      "live",
      [],
      null,
      [],
    ],
    [
      "delta",
      "sub",
      40,
      -1,
      false,
      "2023-12-31",
      4000,
      "23:59:59",
      "draft",
      ["c"],
      "ann",
      ["green"],
    ],
  ] as const;
  for (
    const [
      title,
      subtitle,
      views,
      score,
      published,
      day,
      at,
      slot,
      status,
      kinds,
      author,
      tagList,
    ] of rows
  ) {
    created(
      await data.query("Posts").create({
        title,
        subtitle,
        views,
        score,
        published,
        day,
        at,
        slot,
        status,
        kinds: [...kinds],
        author: author ? users[author] : null,
        tags: tagList.map((t) => tags[t]),
      }),
    );
  }
  return { users, tags };
}

async function titles(data: DataLayer, where: WhereFilter): Promise<string[]> {
  const rows = await data.query("Posts").where(where).order("views").findMany();
  return rows.map((r) => r.title as string);
}

dataTest("scalar operators", { collections }, async (data) => {
  await seed(data);
  const cases: [WhereFilter, string[]][] = [
    [{ title: "Alpha" }, ["Alpha"]],
    [{ title: { equalsTo: "alpha" } }, []],
    [{ views: { in: [10, 40, 99] } }, ["Alpha", "delta"]],
    [{ views: { in: [] } }, []],
    [{ views: { greaterThan: 20 } }, ["Gamma_x", "delta"]],
    [{ views: { atLeast: 20 } }, ["beta 50%", "Gamma_x", "delta"]],
    [{ views: { lessThan: 20 } }, ["Alpha"]],
    [{ views: { atMost: 20 } }, ["Alpha", "beta 50%"]],
    [{ views: { atLeast: 20, lessThan: 40 } }, ["beta 50%", "Gamma_x"]],
    [{ score: { greaterThan: 0 } }, ["Alpha", "Gamma_x"]],
    [{ score: { isNull: true } }, ["beta 50%"]],
    [{ score: { isNull: false } }, ["Alpha", "Gamma_x", "delta"]],
    [{ published: true }, ["Alpha", "Gamma_x"]],
    [{ published: { equalsTo: false } }, ["beta 50%", "delta"]],
    [{ day: { atLeast: "2024-02-01" } }, ["beta 50%", "Gamma_x"]],
    [{ day: { lessThan: "2024-01-01" } }, ["delta"]],
    [{ at: { greaterThan: 2500 } }, ["Gamma_x", "delta"]],
    [{ slot: { atLeast: "09:30:00", atMost: "10:00:00" } }, [
      "beta 50%",
      "Gamma_x",
    ]],
    [{ status: "live" }, ["Alpha", "Gamma_x"]],
    [{ status: { in: ["draft"] } }, ["beta 50%", "delta"]],
    [{ title: { contains: "MM" } }, ["Gamma_x"]],
    [{ title: { contains: "50%" } }, ["beta 50%"]],
    [{ title: { contains: "%" } }, ["beta 50%"]],
    [{ title: { contains: "_" } }, ["Gamma_x"]],
    [{ title: { startsWith: "al" } }, ["Alpha"]],
    [{ title: { endsWith: "TA" } }, ["delta"]],
    [{ subtitle: { startsWith: "üb" } }, ["Gamma_x"]],
    [{ title: { like: "%a" } }, ["Alpha", "delta"]],
    [{ title: { like: "_eta%" } }, ["beta 50%"]],
    [{ title: { like: "gamma\\_x" } }, []],
    [{ title: { greaterThan: "beta" } }, ["beta 50%", "delta"]],
    [{ UUID: { in: [] } }, []],
    [{ _updatedAt: { atLeast: 0 } }, ["Alpha", "beta 50%", "Gamma_x", "delta"]],
  ];
  for (const [where, expected] of cases) {
    assert.deepEqual(
      await titles(data, where),
      expected,
      JSON.stringify(where),
    );
  }
});

dataTest("or, not, nesting and shorthands", { collections }, async (data) => {
  await seed(data);
  const cases: [WhereFilter, string[]][] = [
    [{ or: [{ views: 10 }, { views: 40 }] }, ["Alpha", "delta"]],
    [{ or: [] }, []],
    [{ not: { published: true } }, ["beta 50%", "delta"]],
    [{ not: { subtitle: "sub" } }, ["Alpha", "Gamma_x"]],
    [{ not: { score: { greaterThan: 0 } } }, ["beta 50%", "delta"]],
    [{ published: true, or: [{ views: 10 }, { status: "draft" }] }, ["Alpha"]],
    [{ not: { or: [{ views: 10 }, { not: { published: true } }] } }, [
      "Gamma_x",
    ]],
    [{}, ["Alpha", "beta 50%", "Gamma_x", "delta"]],
  ];
  for (const [where, expected] of cases) {
    assert.deepEqual(
      await titles(data, where),
      expected,
      JSON.stringify(where),
    );
  }
  const posts = data.query("Posts").order("views");
  const names = async (q: typeof posts) =>
    (await q.findMany()).map((r) => r.title);
  assert.deepEqual(await names(posts.where("views", "=", 10)), ["Alpha"]);
  assert.deepEqual(await names(posts.where("views", "!=", 10)), [
    "beta 50%",
    "Gamma_x",
    "delta",
  ]);
  assert.deepEqual(await names(posts.where("subtitle", "!=", "sub")), [
    "Alpha",
    "Gamma_x",
  ]);
  assert.deepEqual(await names(posts.where("views", ">", 30)), ["delta"]);
  assert.deepEqual(await names(posts.where("views", ">=", 30)), [
    "Gamma_x",
    "delta",
  ]);
  assert.deepEqual(await names(posts.where("views", "<", 20)), ["Alpha"]);
  assert.deepEqual(await names(posts.where("views", "<=", 20)), [
    "Alpha",
    "beta 50%",
  ]);
  assert.deepEqual(await names(posts.where("views", "in", [20, 30])), [
    "beta 50%",
    "Gamma_x",
  ]);
  assert.deepEqual(await names(posts.where("title", "like", "%ta%")), [
    "beta 50%",
    "delta",
  ]);
  assert.deepEqual(await names(posts.where("title", "startsWith", "g")), [
    "Gamma_x",
  ]);
  assert.deepEqual(await names(posts.where("score", "=", null)), ["beta 50%"]);
  assert.deepEqual(await names(posts.where("score", "!=", null)), [
    "Alpha",
    "Gamma_x",
    "delta",
  ]);
  assert.deepEqual(
    await names(
      posts.where("published", "=", true).where({ views: { atLeast: 30 } }),
    ),
    ["Gamma_x"],
    "where calls AND",
  );
});

dataTest("list and relation operators", { collections }, async (data) => {
  const { users, tags } = await seed(data);
  const cases: [WhereFilter, string[]][] = [
    [{ kinds: { includes: "a" } }, ["Alpha", "beta 50%"]],
    [{ kinds: { includesAll: ["a", "b"] } }, ["beta 50%"]],
    [{ kinds: { includesAll: [] } }, ["Alpha", "beta 50%", "Gamma_x", "delta"]],
    [{ kinds: { includesAny: ["b", "c"] } }, ["beta 50%", "delta"]],
    [{ kinds: { includesAny: ["c"] } }, ["delta"]],
    [{ kinds: { includesAny: [] } }, []],
    [{ kinds: { empty: true } }, ["Gamma_x"]],
    [{ kinds: { empty: false } }, ["Alpha", "beta 50%", "delta"]],
    [{ author: users.ann }, ["Alpha", "delta"]],
    [{ author: { in: [users.bob] } }, ["beta 50%"]],
    [{ author: { isNull: true } }, ["Gamma_x"]],
    [{ author: { empty: true } }, ["Gamma_x"]],
    [{ author: { empty: false } }, ["Alpha", "beta 50%", "delta"]],
    [{ author: { has: { role: "admin" } } }, ["Alpha", "delta"]],
    [{ author: { has: {} } }, ["Alpha", "beta 50%", "delta"]],
    [{ tags: { includes: tags.green } }, ["Alpha", "delta"]],
    [{ tags: { includesAll: [tags.red, tags.green] } }, ["Alpha"]],
    [{ tags: { includesAny: [tags.blue, tags.red] } }, ["Alpha", "beta 50%"]],
    [{ tags: { empty: true } }, ["Gamma_x"]],
    [{ tags: { empty: false } }, ["Alpha", "beta 50%", "delta"]],
    [{ tags: { has: { label: "blue" } } }, ["beta 50%"]],
    [{ tags: { has: { owner: { has: { name: "bob" } } } } }, [
      "Alpha",
      "delta",
    ]],
    [{ tags: { has: { owner: { isNull: true } } } }, ["beta 50%"]],
    [{ not: { tags: { has: { label: "green" } } } }, ["beta 50%", "Gamma_x"]],
    [{ UUID: { in: [tags.red] } }, []],
  ];
  for (const [where, expected] of cases) {
    assert.deepEqual(
      await titles(data, where),
      expected,
      JSON.stringify(where),
    );
  }
});

dataTest("malformed filters throw QueryError with code and path", {
  collections,
}, async (data) => {
  const posts = data.query("Posts");
  const cases: [WhereFilter, string, string][] = [
    [{ nope: 1 }, "invalidField", "where.nope"],
    [{ views: { around: 1 } }, "unknownOperator", "where.views.around"],
    [{ views: { contains: "1" } }, "invalidField", "where.views.contains"],
    [{ views: "10" }, "invalidValue", "where.views"],
    [{ views: { in: [1, "2"] } }, "invalidValue", "where.views.in[1]"],
    [{ published: 1 }, "invalidValue", "where.published"],
    [{ title: null }, "nullEquality", "where.title"],
    [{ UUID: { greaterThan: "a" } }, "invalidField", "where.UUID.greaterThan"],
    [{ tags: { has: { nope: 1 } } }, "invalidField", "where.tags.has.nope"],
    [{ or: {} as never }, "invalidShape", "where.or"],
    // U+0000 is never stored, and PostgreSQL cannot bind it: refused alike everywhere.
    [{ title: "a\u0000" }, "invalidValue", "where.title"],
    [
      { title: { startsWith: "\u0000" } },
      "invalidValue",
      "where.title.startsWith",
    ],
    [
      { kinds: { includesAny: ["a", "\u0000"] } },
      "invalidValue",
      "where.kinds.includesAny[1]",
    ],
  ];
  for (const [where, code, path] of cases) {
    await assert.rejects(
      () => posts.where(where).findMany(),
      (error: unknown) => {
        assert.ok(error instanceof QueryError, String(error));
        assert.deepEqual(
          [error.code, error.path],
          [code, path],
          JSON.stringify(where),
        );
        return true;
      },
    );
  }
  await assert.rejects(() => posts.order("nope").findMany(), QueryError);
  await assert.rejects(() => posts.order("kinds").findMany(), QueryError);
  await assert.rejects(() => posts.select("nope").findMany(), QueryError);
  await assert.rejects(() => posts.populate("title").findMany(), QueryError);
  assert.throws(() => posts.limit(-1), QueryError);
  assert.throws(() => posts.offset(1.5), QueryError);
  await assert.rejects(() => posts.paginate(0, 10), QueryError);
  assert.throws(() => data.query("Nope"), /Unknown collection Nope/);
});

dataTest("order, limit, offset, select, findFirst, findByUUID, count", {
  collections,
}, async (data) => {
  await seed(data);
  const posts = data.query("Posts");
  assert.deepEqual(
    (await posts.order("-views").findMany()).map((r) => r.views),
    [40, 30, 20, 10],
  );
  assert.deepEqual(
    (await posts.order("status", "-views").findMany()).map((r) => r.title),
    ["delta", "beta 50%", "Gamma_x", "Alpha"],
  );
  assert.deepEqual(
    (await posts.order("score").findMany()).map((r) => r.score),
    [null, -1, 1.5, 3],
    "nulls first ascending",
  );
  assert.deepEqual(
    (await posts.order("-score").findMany()).map((r) => r.score),
    [3, 1.5, -1, null],
    "nulls last descending",
  );
  assert.deepEqual(
    (await posts.order("views").limit(2).offset(1).findMany()).map((r) =>
      r.views
    ),
    [20, 30],
  );
  assert.deepEqual(
    (await posts.order("views").offset(3).findMany()).map((r) => r.views),
    [40],
  );
  assert.deepEqual(await posts.order("views").limit(0).findMany(), []);
  const first = await posts.order("-views").findFirst();
  assert.equal(first!.views, 40);
  assert.equal(await posts.where({ views: 99 }).findFirst(), null);
  const picked = await posts.select("title", "tags", "_updatedAt").order(
    "views",
  )
    .findFirst();
  assert.deepEqual(Object.keys(picked!), [
    "UUID",
    "title",
    "tags",
    "_updatedAt",
  ]);
  assert.equal((picked!.tags as string[]).length, 2);
  const byId = await posts.findByUUID(first!.UUID);
  assert.deepEqual(byId, first);
  assert.deepEqual(await posts.findByUUID(first!.UUID.toUpperCase()), first);
  assert.equal(await posts.where({ views: 10 }).findByUUID(first!.UUID), null);
  assert.equal(await posts.findByUUID(crypto.randomUUID()), null);
  assert.equal(await posts.findByUUID("not-a-uuid"), null);
  assert.equal(await posts.count(), 4);
  assert.equal(
    await posts.where({ published: true }).limit(1).count(),
    2,
    "count ignores limit",
  );
  assert.equal(await posts.count({ atMost: 3 }), 3, "counting stops at atMost");
  assert.equal(await posts.count({ atMost: 10 }), 4);
  assert.equal(await posts.where({ published: true }).count({ atMost: 0 }), 0);
  await assert.rejects(() => posts.count({ atMost: -1 }), RangeError);
  // Immutability: refining a builder leaves it unchanged.
  const base = posts.where({ published: true });
  base.where({ views: 10 });
  assert.equal(await base.count(), 2);
});

dataTest("paginate", { collections }, async (data) => {
  await seed(data);
  const posts = data.query("Posts").order("views");
  const page1 = await posts.paginate(1, 3);
  assert.deepEqual(
    { ...page1, records: page1.records.map((r) => r.views) },
    { records: [10, 20, 30], total: 4, page: 1, perPage: 3, lastPage: 2 },
  );
  const page2 = await posts.paginate(2, 3);
  assert.deepEqual(page2.records.map((r) => r.views), [40]);
  const page9 = await posts.paginate(9, 3);
  assert.deepEqual([page9.records, page9.lastPage], [[], 2]);
  const empty = await posts.where({ views: 0 }).paginate(1, 20);
  assert.deepEqual(empty, {
    records: [],
    total: 0,
    page: 1,
    perPage: 20,
    lastPage: 1,
  });
  // The page and its total come from one statement: a filter, a selection, a transaction.
  const popular = posts.where({ views: { atLeast: 20 } }).select("title");
  const first = await popular.paginate(1, 2);
  assert.deepEqual(
    [first.records.map((r) => Object.keys(r)), first.total, first.lastPage],
    [[["UUID", "title"], ["UUID", "title"]], 3, 2],
  );
  await data.transaction(async () => {
    await data.query("Posts").where({ views: 10 }).update({ views: 25 });
    const inside = await popular.paginate(2, 2);
    assert.deepEqual([inside.records.length, inside.total], [2, 4]);
  });
  assert.equal((await popular.paginate(3, 2)).total, 4, "past the last page");
});

dataTest("populate: record and records, nested, with nested select", {
  collections,
}, async (data) => {
  const { users, tags } = await seed(data);
  const posts = data.query("Posts").order("views");
  const alpha = (await posts.populate("author", "tags.owner").findFirst())!;
  assert.deepEqual(
    (alpha.author as Record<string, unknown>).name,
    "ann",
  );
  const list = alpha.tags as Record<string, unknown>[];
  assert.deepEqual(list.map((t) => t.label), ["red", "green"], "order kept");
  assert.deepEqual(
    list.map((t) => (t.owner as Record<string, unknown>).UUID),
    [users.ann, users.bob],
  );
  const gamma =
    (await posts.where({ title: "Gamma_x" }).populate("author", "tags")
      .findFirst())!;
  assert.equal(gamma.author, null);
  assert.deepEqual(gamma.tags, []);
  const slim =
    (await posts.select("title", "author.name", "tags.label").findFirst())!;
  assert.deepEqual(slim, {
    UUID: alpha.UUID,
    title: "Alpha",
    author: { UUID: users.ann, name: "ann" },
    tags: [{ UUID: tags.red, label: "red" }, {
      UUID: tags.green,
      label: "green",
    }],
  });
  const plain = (await posts.select("title").populate("author").findFirst())!;
  assert.deepEqual(Object.keys(plain), ["UUID", "title", "author"]);
  const many = await data.query("Users").order("name").findMany();
  assert.equal(many.length, 2);
});

const seen: { collection: string; where: unknown; locale: string }[] = [];

dataTest(
  "query:filter hooks apply to reads, counts, populate, has and references",
  {
    collections,
    locales: ["en", "de"],
    queryFilters: [
      ({ collection }) =>
        collection === "Tags" ? { label: { in: ["red", "green"] } } : undefined,
      (ctx) => {
        seen.push(ctx);
        return ctx.collection === "Users" ? { role: "member" } : null;
      },
    ],
  },
  async (data) => {
    seen.length = 0;
    const ann = created(
      await data.query("Users").create({ name: "ann", role: "admin" }),
    );
    const bob = created(await data.query("Users").create({ name: "bob" }));
    const red = created(
      await data.query("Tags").create({ label: "red", owner: bob.UUID }),
    );
    const blue = created(await data.query("Tags").create({ label: "blue" }));
    assert.deepEqual(
      refused(
        await data.query("Tags").create({ label: "green", owner: ann.UUID }),
      ),
      { owner: "This record does not exist" },
      "a hidden record cannot be linked",
    );
    const post = created(
      await data.query("Posts").create({
        title: "p",
        views: 1,
        published: true,
        day: "2024-01-01",
        at: 1,
        slot: "10:00",
        status: "live",
        tags: [red.UUID],
      }),
    );
    assert.deepEqual(
      (await data.query("Tags").findMany()).map((t) => t.label),
      ["red"],
    );
    assert.equal(await data.query("Tags").count(), 1);
    assert.equal(await data.query("Tags").findByUUID(blue.UUID), null);
    assert.equal(await data.query("Users").count(), 1);
    assert.equal(
      await data.query("Posts").where({ tags: { has: { label: "red" } } })
        .count(),
      1,
    );
    // Link blue directly in the junction table, then read through populate and has.
    await kyselyOf(data.db).insertInto("Posts__tags").values({
      owner: post.UUID,
      target: blue.UUID,
      position: 1,
    }).execute();
    const populated = await data.query("Posts").populate("tags").findByUUID(
      post.UUID,
    );
    assert.deepEqual(
      (populated!.tags as { label: string }[]).map((t) => t.label),
      ["red"],
      "filtered targets drop out of a populated list",
    );
    assert.deepEqual((await data.query("Posts").findByUUID(post.UUID))!.tags, [
      red.UUID,
      blue.UUID,
    ]);
    assert.equal(
      await data.query("Posts").where({ tags: { has: { label: "blue" } } })
        .count(),
      0,
      "has subqueries apply the target's hooks",
    );
    await kyselyOf(data.db).updateTable("Tags").set({ owner: ann.UUID }).where(
      "UUID",
      "=",
      red.UUID,
    ).execute();
    const tag = await data.query("Tags").populate("owner").findByUUID(red.UUID);
    assert.equal(tag!.owner, null, "a hidden record populates as null");
    // The hook sees the collection, the read's own filter and the locale.
    seen.length = 0;
    await data.query("Users").locale("de").where({ name: "bob" }).where({
      role: "member",
    }).findMany();
    assert.deepEqual(seen, [{
      collection: "Users",
      where: { name: "bob", role: "member" },
      locale: "de",
    }]);
  },
);

dataTest("transactions: builders join, a throw rolls everything back", {
  collections,
}, async (data) => {
  await assert.rejects(() =>
    data.transaction(async () => {
      created(await data.query("Users").create({ name: "x" }));
      assert.equal(await data.query("Users").count(), 1, "visible inside");
      throw new Error("boom");
    }), /boom/);
  assert.equal(await data.query("Users").count(), 0);
  await data.transaction(async () => {
    created(await data.query("Users").create({ name: "y" }));
    // A refused write inside rolls back alone.
    const bad = await data.query("Users").create({ name: 5 });
    assert.equal(bad.ok, false);
    await data.transaction(async () => {
      created(await data.query("Users").create({ name: "z" }));
    });
    // Raw Kysely through the executor joins too.
    const raw = await kyselyOf(data.executor()).selectFrom("Users").select(
      "name",
    )
      .execute();
    assert.equal(raw.length, 2);
    // Plain `db` never deadlocks inside a transaction (on SQLite it shares the one
    // connection, so it sees the transaction's rows).
    const plain = await kyselyOf(data.db).selectFrom("Users").select("name")
      .execute();
    assert.equal(plain.length, data.dialect === "sqlite" ? 2 : 0);
  });
  assert.deepEqual(
    (await data.query("Users").order("name").findMany()).map((u) => u.name),
    ["y", "z"],
  );
});

let hidden: string | null = null;

dataTest(
  "a filter read again is compiled once, yet the hooks decide each read",
  {
    collections,
    queryFilters: [
      ({ collection }) =>
        collection === "Users" && hidden !== null
          ? { not: { name: hidden } }
          : undefined,
    ],
  },
  async (data) => {
    for (const name of ["ann", "bob", "cid"]) {
      created(await data.query("Users").create({ name }));
    }
    // One filter object, kept and read again: its compiled SQL is reused.
    const where: WhereFilter = { name: { in: ["ann", "bob"] } };
    const names = async () =>
      (await data.query("Users").where(where).order("name").findMany())
        .map((u) => u.name);
    hidden = null;
    assert.deepEqual(await names(), ["ann", "bob"]);
    hidden = "ann";
    assert.deepEqual(await names(), ["bob"], "a hook that now filters");
    assert.equal(await data.query("Users").where(where).count(), 1);
    hidden = null;
    assert.deepEqual(await names(), ["ann", "bob"], "and then no longer does");
    assert.equal(await data.query("Users").where(where).count(), 2);
  },
);
