import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { sql } from "kysely";
import { type DataLayer, defineCollection, field } from "./_imports.ts";
import { created, dbTest } from "./_helpers.ts";
import { columns, indexes } from "./_schema_reads.ts";

const v1 = {
  Posts: defineCollection({
    fields: {
      title: field("text"),
      views: field("integer", { default: 0 }),
    },
  }),
};

dbTest(
  "schema sync creates tables, translation and junction tables",
  async (db) => {
    const data = await db.open({
      locales: ["en", "de"],
      collections: {
        Tags: defineCollection({
          fields: { label: field("text", { unique: true }) },
        }),
        Posts: defineCollection({
          fields: {
            title: field("text", { translatable: true }),
            views: field("integer", { index: true }),
            tags: field("records", { collection: "Tags" }),
          },
        }),
      },
    });
    assert.deepEqual(await columns(data, "Posts"), [
      "UUID",
      "_updatedAt",
      "views",
    ]);
    assert.deepEqual(await columns(data, "Posts__translations"), [
      "record",
      "locale",
      "title",
    ]);
    assert.deepEqual(await columns(data, "Posts__tags"), [
      "owner",
      "target",
      "position",
    ]);
    const names = await indexes(data);
    for (
      const name of [
        "Posts__views_UUID__idx",
        "Tags__label__uniq",
        "Posts__tags__target__idx",
      ]
    ) {
      assert.ok(names.includes(name), name);
    }
    const meta = await kyselyOf(data.db).selectFrom("_strata_schema").select(
      "collection",
    )
      .orderBy("collection").execute();
    assert.deepEqual(meta.map((r) => r.collection), ["Posts", "Tags"]);
  },
  { file: true },
);

dbTest("schema sync applies additive changes automatically", async (db) => {
  const first = await db.open({ collections: v1 });
  const post = created(await first.query("Posts").create({ title: "a" }));
  await first.close();
  const v2Fields = {
    title: field("text", { index: true }),
    views: field("integer", { default: 0 }),
    subtitle: field("text", { nullable: true }),
    rank: field("integer", { default: 7 }),
    code: field("text", { default: () => "generated" }),
    kinds: field("multiSelect", { choices: ["a"], default: ["a"] }),
  };
  const second = await db.open({
    collections: {
      Posts: defineCollection({ fields: v2Fields }),
      Authors: defineCollection({ fields: { name: field("text") } }),
    },
  });
  const reread = await second.query("Posts").findByUUID(post.UUID);
  assert.deepEqual(
    [
      reread!.title,
      reread!.subtitle,
      reread!.rank,
      reread!.code,
      reread!.kinds,
    ],
    ["a", null, 7, "generated", ["a"]],
    "existing rows get the defaults of new fields",
  );
  assert.ok((await indexes(second)).includes("Posts__title_UUID__idx"));
  created(await second.query("Authors").create({ name: "new collection" }));
  await second.close();
  // Dropping an index, dropping a collection: not destructive.
  const third = await db.open({
    collections: {
      Posts: defineCollection({
        fields: { ...v2Fields, title: field("text") },
      }),
    },
  });
  assert.equal(
    (await indexes(third)).includes("Posts__title_UUID__idx"),
    false,
  );
  assert.ok((await columns(third, "Authors")).includes("name"), "tables stay");
  // A required field without default is fine while the table is empty.
  await third.query("Posts").delete();
  await third.close();
  const fourth = await db.open({
    collections: {
      Posts: defineCollection({
        fields: { ...v2Fields, must: field("text") },
      }),
    },
  });
  assert.ok((await columns(fourth, "Posts")).includes("must"));
}, { file: true });

dbTest(
  "destructive changes are refused with a message naming collection and field",
  async (db) => {
    const first = await db.open({ collections: v1 });
    created(await first.query("Posts").create({ title: "a", views: 3 }));
    await first.close();
    const cases: [Record<string, ReturnType<typeof field>>, string][] = [
      [
        { title: field("text"), views: field("text") },
        "Schema change for Posts.views needs database.sync.force: the field changed type from integer to text",
      ],
      [
        { title: field("text") },
        "Schema change for Posts.views needs database.sync.force: the field was removed",
      ],
      [
        {
          title: field("text"),
          views: field("integer", { default: 0 }),
          extra: field("integer"),
        },
        "Schema change for Posts.extra needs database.sync.force: the new field is required and has no default",
      ],
      [
        {
          title: field("text", { translatable: true }),
          views: field("integer", { default: 0 }),
        },
        "Schema change for Posts.title needs database.sync.force: the field became translatable",
      ],
    ];
    for (const [fields, message] of cases) {
      await assert.rejects(
        () => db.open({ collections: { Posts: defineCollection({ fields }) } }),
        (error: Error) => {
          assert.equal(error.message, message);
          return true;
        },
      );
    }
    // Nothing was applied by the refused syncs.
    const check = await db.open({ collections: v1 });
    const [row] = await check.query("Posts").findMany();
    assert.deepEqual([row.title, row.views], ["a", 3]);
    await check.close();
    // nullable → required without default.
    const loose = await db.open({
      collections: {
        Posts: defineCollection({
          fields: {
            title: field("text"),
            views: field("integer", { nullable: true }),
          },
        }),
      },
    });
    await loose.close();
    await assert.rejects(
      () =>
        db.open({
          collections: {
            Posts: defineCollection({
              fields: { title: field("text"), views: field("integer") },
            }),
          },
        }),
      /Posts\.views needs database\.sync\.force: the field became required without a default/,
    );
  },
  { file: true },
);

dbTest("sync.force applies destructive changes", async (db) => {
  const first = await db.open({
    collections: {
      Posts: defineCollection({
        fields: {
          title: field("text", { index: true }),
          views: field("integer", { default: 0, index: true }),
          gone: field("text", { nullable: true, unique: true }),
        },
      }),
    },
  });
  const post = created(
    await first.query("Posts").create({ title: "a", views: 3, gone: "x" }),
  );
  await first.close();
  const forced = await db.open({
    sync: { force: true },
    locales: ["en", "de"],
    collections: {
      Posts: defineCollection({
        fields: {
          title: field("text", { translatable: true }),
          views: field("text", { default: "none" }),
        },
      }),
    },
  });
  const after = await forced.query("Posts").findByUUID(post.UUID);
  assert.deepEqual(
    { title: after!.title, views: after!.views, t: after!._translations },
    { title: "a", views: "none", t: ["en"] },
    "translatability migrates values to the default locale; a changed type restarts",
  );
  assert.equal((await columns(forced, "Posts")).includes("gone"), false);
  assert.equal((await indexes(forced)).includes("Posts__gone__uniq"), false);
  created(await forced.query("Posts").create({ title: "b", views: "many" }));
  await forced.close();
  // And back: no longer translatable.
  const back = await db.open({
    sync: { force: true },
    locales: ["en", "de"],
    collections: {
      Posts: defineCollection({
        fields: {
          title: field("text"),
          views: field("text", { default: "none" }),
        },
      }),
    },
  });
  assert.deepEqual(
    (await back.query("Posts").order("title").findMany()).map((p) => p.title),
    ["a", "b"],
  );
}, { file: true });

dbTest(
  "a unique index over duplicate values fails with a clear message",
  async (db) => {
    const first = await db.open({ collections: v1 });
    created(await first.query("Posts").create({ title: "same" }));
    created(await first.query("Posts").create({ title: "same" }));
    await first.close();
    await assert.rejects(
      () =>
        db.open({
          collections: {
            Posts: defineCollection({
              fields: {
                ...v1.Posts.fields,
                title: field("text", { unique: true }),
              },
            }),
          },
        }),
      /Cannot add the unique index over Posts\.title: existing records hold duplicate values/,
    );
  },
  { file: true },
);

dbTest("definition errors name the collection and field", async (db) => {
  const bad: [Record<string, ReturnType<typeof defineCollection>>, RegExp][] = [
    [
      { Posts: defineCollection({ fields: { a: field("nope") } }) },
      /Unknown field type "nope" for Posts\.a/,
    ],
    [{
      Posts: defineCollection({
        fields: { a: field("record", { collection: "Nope" }) },
      }),
    }, /Posts\.a references unknown collection Nope/],
    [
      { Posts: defineCollection({ fields: { a: field("select") } }) },
      /Invalid field Posts\.a: a select field needs "choices"/,
    ],
    [{
      Posts: defineCollection({ fields: { a: field("text", { min: "x" }) } }),
    }, /Invalid field Posts\.a/],
    [
      { "Bad Name": defineCollection({ fields: {} }) },
      /Invalid collection name/,
    ],
    [{
      Posts: defineCollection({ fields: { a: field("text") } }),
      posts: defineCollection({ fields: {} }),
    }, /differ only by case/],
    [{
      Posts: defineCollection({
        fields: { a: field("records", { collection: "Posts", unique: true }) },
      }),
    }, /Invalid field Posts\.a/],
    [{
      Posts: defineCollection({
        fields: { a: field("text", { translatable: true }), b: field("text") },
        uniques: [["a", "b"]],
      }),
    }, /cannot mix translatable and plain fields/],
  ];
  for (const [collections, pattern] of bad) {
    await assert.rejects(() => db.open({ collections }), pattern);
  }
});

dbTest(
  "schema sync rebuilds PostgreSQL indexes made before they were NULLS FIRST",
  async (db) => {
    const collections = {
      Tags: defineCollection({
        fields: { label: field("text", { unique: true, nullable: true }) },
      }),
    };
    const first = await db.open({ collections });
    if (first.dialect !== "postgres") return await first.close();
    const definition = async (data: DataLayer) =>
      (await sql<{ def: string }>`select indexdef as def from pg_indexes
        where schemaname = current_schema() and indexname = 'Tags__label__uniq'`
        .execute(kyselyOf(data.db))).rows[0]?.def ?? "";
    assert.match(await definition(first), /NULLS FIRST/);
    // As an earlier version created it.
    await sql`drop index "Tags__label__uniq"`.execute(kyselyOf(first.db));
    await sql`create unique index "Tags__label__uniq" on "Tags" ("label")`
      .execute(kyselyOf(first.db));
    assert.doesNotMatch(await definition(first), /NULLS FIRST/);
    await first.close();
    const second = await db.open({ collections });
    assert.match(await definition(second), /NULLS FIRST/);
    await second.close();
  },
);

dbTest(
  "a field named with a quote (a definition not made by defineCollection) gets its column and indexes",
  async (db) => {
    // defineCollection refuses such a name; the data layer takes definitions as they come,
    // and schema sync quotes every name it did not make itself.
    const named = 'say"hi';
    const data = await db.open({
      collections: {
        Posts: {
          fields: {
            [named]: field("text", { index: true }),
            code: field("text", { unique: true, nullable: true }),
          },
        },
      },
    });
    assert.deepEqual(await columns(data, "Posts"), [
      "UUID",
      "_updatedAt",
      named,
      "code",
    ]);
    const names = await indexes(data);
    assert.ok(names.includes(`Posts__${named}_UUID__idx`), names.join());
    assert.ok(names.includes("Posts__code__uniq"), names.join());
  },
);

Deno.test("schema sync builds the same SQLite schema with or without the raw handle", async () => {
  // The data layer gives the sync its raw handle: the CREATE statements run as one script,
  // the whole sync on it from begin to commit. A caller without one gets them one by one,
  // through Kysely. Either way the tables, columns and indexes agree, and a
  // second sync over the result changes nothing.
  const { openDatabase } = await import(
    "../../collections/db/open_database.ts"
  );
  const { resolveCollections } = await import("../../collections/resolve.ts");
  const { builtinFieldTypes } = await import(
    "../../collections/field_types.ts"
  );
  const { syncSchema } = await import("../../collections/schema_sync.ts");
  const definitions = {
    Tags: defineCollection({
      fields: { label: field("text", { unique: true }) },
    }),
    Posts: defineCollection({
      fields: {
        title: field("text", { translatable: true, index: true }),
        views: field("integer", { index: true }),
        tags: field("records", { collection: "Tags" }),
        main: field("record", { collection: "Tags", nullable: true }),
      },
    }),
  };
  const schemas: string[] = [];
  for (const script of [true, false]) {
    const { db, sqlite } = await openDatabase({ url: ":memory:" });
    const collections = resolveCollections(
      definitions,
      builtinFieldTypes,
      "sqlite",
    );
    const options = {
      defaultLocale: "en",
      sqlite: script ? sqlite : undefined,
    };
    await syncSchema(db, "sqlite", collections, options);
    const dump = () =>
      sqlite!.prepare(
        "select type, name, sql from sqlite_master order by name",
      ).all().map((row) => `${row.type} ${row.name}: ${row.sql}`).join("\n");
    const first = dump();
    await syncSchema(db, "sqlite", collections, options);
    assert.equal(dump(), first);
    schemas.push(first);
    await db.destroy();
  }
  assert.equal(schemas[0], schemas[1]);
  assert.match(schemas[0], /table Posts__translations: /);
  assert.match(schemas[0], /table Posts__tags: /);
  assert.match(schemas[0], /index Tags__label__uniq: /);
});
