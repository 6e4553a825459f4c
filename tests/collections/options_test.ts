import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { sql } from "kysely";
import {
  defineCollection,
  field,
  type FieldContext,
} from "../../collections/mod.ts";
import { created, dataTest, refused } from "./_helpers.ts";

const UNKNOWN = "This field is not accepted";
const REQUIRED = "This field is required";

dataTest("nullable and default fill a create; required fields are reported", {
  collections: {
    Items: defineCollection({
      fields: {
        name: field("text"),
        note: field("text", { nullable: true }),
        count: field("integer", { default: 3 }),
        tags: field("multiSelect", { choices: ["a", "b"], default: ["a"] }),
        code: field("text", { default: () => crypto.randomUUID().slice(0, 8) }),
        when: field("dateTime", { nullable: true, default: 42 }),
      },
    }),
  },
  now: () => 1000,
}, async (data) => {
  const items = data.query("Items");
  assert.deepEqual(refused(await items.create({})), { name: REQUIRED });
  const a = created(await items.create({ name: "a" }));
  const b = created(await items.create({ name: "b", when: null, note: "n" }));
  assert.equal(a.note, null);
  assert.equal(a.count, 3);
  assert.deepEqual(a.tags, ["a"]);
  assert.equal(a.when, 42);
  assert.equal(b.when, null, "an explicit null beats the default");
  assert.equal(b.note, "n");
  assert.equal(typeof a.code, "string");
  assert.notEqual(a.code, b.code, "a default function is called per record");
  assert.equal(a._updatedAt, 1000, "the clock option stamps _updatedAt");
  (a.tags as string[]).push("mutated");
  const c = created(await items.create({ name: "c" }));
  assert.deepEqual(c.tags, ["a"], "default values are not shared");
  assert.deepEqual(await items.findByUUID(a.UUID), { ...a, tags: ["a"] });
});

dataTest(
  "every refusal is reported at once; unknown and system keys are refused",
  {
    collections: {
      Items: defineCollection({
        fields: {
          name: field("text", { max: 3 }),
          count: field("integer"),
          computed: field("text", { writable: false, default: "server" }),
          slug: field("text", { immutable: true }),
        },
      }),
    },
  },
  async (data) => {
    const items = data.query("Items");
    const errors = refused(
      await items.create({
        name: "toolong",
        count: "x",
        computed: "client",
        UUID: crypto.randomUUID(),
        _updatedAt: 5,
        _translations: [],
        bogus: 1,
        constructor: 1,
      }),
    );
    assert.deepEqual(errors, {
      name: "Must be at most 3 characters long",
      count: "This value has the wrong type",
      computed: UNKNOWN,
      UUID: UNKNOWN,
      _updatedAt: UNKNOWN,
      _translations: UNKNOWN,
      bogus: UNKNOWN,
      constructor: UNKNOWN,
      slug: REQUIRED,
    });
    assert.equal(await items.count(), 0, "nothing was written");
    const item = created(
      await items.create({ name: "ok", count: 1, slug: "s" }),
    );
    assert.equal(item.computed, "server");
    const one = items.where({ UUID: item.UUID });
    assert.deepEqual(refused(await one.update({ slug: "t", computed: "x" })), {
      slug: UNKNOWN,
      computed: UNKNOWN,
    });
    const updated = await one.update({ slug: "t", computed: "x" }, {
      allowProtected: true,
    });
    assert.ok(updated.ok);
    assert.deepEqual(
      updated.records.map((r) => [r.slug, r.computed]),
      [["t", "x"]],
      "trusted code may write protected fields explicitly",
    );
    assert.deepEqual(refused(await one.update({ count: null })), {
      count: REQUIRED,
    });
  },
);

dataTest(
  "pipeline order: type sanitizers, type validators, field sanitizers, field validators",
  {
    collections: {
      Items: defineCollection({
        fields: {
          time: field("time", {
            sanitizers: [(v) => `${v}`.replace("09:", "10:")],
            validators: [
              (v) => (v as string).endsWith(":00") ? undefined : "notRound",
              async (v, ctx: FieldContext) => {
                await Promise.resolve();
                return ctx.operation === "create" && v === "10:00:00"
                  ? { key: "tooEarly", params: { v } }
                  : undefined;
              },
            ],
          }),
          other: field("text", {
            nullable: true,
            validators: [() => "never"],
          }),
        },
      }),
    },
    messages: (key, params) => `${key}:${JSON.stringify(params)}`,
  },
  async (data) => {
    const items = data.query("Items");
    // The type sanitizer turns 09:00 into 09:00:00, the field sanitizer into 10:00:00.
    assert.deepEqual(refused(await items.create({ time: "09:00" })), {
      time: 'tooEarly:{"v":"10:00:00"}',
    });
    // A type validator refuses first: the field sanitizer never sees the value.
    assert.deepEqual(refused(await items.create({ time: "9:00" })), {
      time: "invalidTime:{}",
    });
    assert.deepEqual(refused(await items.create({ time: "11:00:30" })), {
      time: "notRound:{}",
    });
    const item = created(await items.create({ time: "11:00" }));
    assert.equal(item.time, "11:00:00");
    assert.equal(
      item.other,
      null,
      "null skips the validators of a nullable field",
    );
    assert.deepEqual(
      refused(await items.create({ time: "11:00", other: "x" })),
      {
        other: "never:{}",
      },
    );
  },
);

dataTest(
  "validators see the context and can query inside the write's transaction",
  {
    collections: {
      Users: defineCollection({ fields: { name: field("text") } }),
      Notes: defineCollection({
        fields: {
          owner: field("text", {
            validators: [async (value, ctx) => {
              const found = await ctx.query("Users").where({
                name: value as string,
              })
                .count();
              assert.equal(ctx.collection, "Notes");
              assert.equal(ctx.field, "owner");
              assert.equal(ctx.locale, "en");
              assert.equal(typeof ctx.input, "object");
              return found === 1 ? undefined : "noSuchUser";
            }],
          }),
        },
      }),
    },
  },
  async (data) => {
    await data.query("Users").create({ name: "ann" });
    assert.deepEqual(
      refused(await data.query("Notes").create({ owner: "bob" })),
      {
        owner: "noSuchUser",
      },
    );
    created(await data.query("Notes").create({ owner: "ann" }));
  },
);

dataTest("unique fields and uniques groups are reported per field", {
  collections: {
    Items: defineCollection({
      fields: {
        slug: field("text", { unique: true }),
        code: field("text", { unique: true, nullable: true }),
        a: field("integer"),
        b: field("integer"),
      },
      uniques: [["a", "b"]],
    }),
  },
}, async (data) => {
  const items = data.query("Items");
  const first = created(
    await items.create({ slug: "x", code: "c", a: 1, b: 1 }),
  );
  const TAKEN = "This value is already taken";
  assert.deepEqual(
    refused(await items.create({ slug: "x", code: "c", a: 1, b: 1 })),
    { slug: TAKEN, code: TAKEN, a: TAKEN, b: TAKEN },
  );
  created(await items.create({ slug: "y", code: null, a: 1, b: 2 }));
  created(await items.create({ slug: "z", code: null, a: 2, b: 1 }));
  assert.equal(await items.count(), 3, "nulls never collide");
  // Updating a record to its own value is fine; to another's is not.
  assert.ok((await items.where({ UUID: first.UUID }).update({ slug: "x" })).ok);
  assert.deepEqual(
    refused(
      await items.where({ UUID: first.UUID }).update({ slug: "y", b: 2 }),
    ),
    { slug: TAKEN, b: TAKEN },
  );
  assert.deepEqual(
    refused(
      await items.where({ slug: { in: ["y", "z"] } }).update({ slug: "w" }),
    ),
    { slug: TAKEN },
    "several rows cannot take one unique value",
  );
  assert.deepEqual(
    (await items.order("slug").findMany()).map((r) => r.slug),
    ["x", "y", "z"],
  );
});

dataTest(
  "unique checks hold against concurrent writers through the database index",
  {
    collections: {
      Items: defineCollection({
        fields: { slug: field("text", { unique: true }) },
      }),
    },
  },
  async (data) => {
    const results = await Promise.all(
      Array.from(
        { length: 4 },
        () => data.query("Items").create({ slug: "same" }),
      ),
    );
    assert.equal(results.filter((r) => r.ok).length, 1);
    for (const result of results.filter((r) => !r.ok)) {
      assert.deepEqual(refused(result), {
        slug: "This value is already taken",
      });
    }
  },
);

dataTest("index, unique and composite indexes exist in the database", {
  collections: {
    Items: defineCollection({
      fields: {
        a: field("text", { index: true }),
        b: field("text", { unique: true }),
        c: field("integer"),
        d: field("integer"),
      },
      indexes: [["c", "d"]],
    }),
  },
}, async (data) => {
  const names = data.dialect === "postgres"
    ? (await sql<{ name: string }>`select indexname as name from pg_indexes
        where schemaname = current_schema() and tablename = 'Items'`.execute(
      kyselyOf(data.db),
    ))
      .rows.map((r) => r.name)
    : (await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'Items'`.execute(kyselyOf(data.db)))
      .rows.map(
        (r) => r.name,
      );
  for (
    const expected of [
      "Items__a_UUID__idx",
      "Items__b__uniq",
      "Items__c_d_UUID__idx",
    ]
  ) {
    assert.ok(names.includes(expected), `${expected} in ${names.join(", ")}`);
  }
});

dataTest("write-only fields never appear in reads unless selected", {
  collections: {
    Users: defineCollection({
      fields: {
        email: field("text"),
        secret: field("text", { readable: false }),
      },
    }),
    Posts: defineCollection({
      fields: { author: field("record", { collection: "Users" }) },
    }),
  },
}, async (data) => {
  const user = created(
    await data.query("Users").create({ email: "a", secret: "s" }),
  );
  assert.deepEqual(Object.keys(user), ["UUID", "email", "_updatedAt"]);
  const users = data.query("Users");
  for (
    const read of [
      await users.findMany(),
      [await users.findFirst()],
      [await users.findByUUID(user.UUID)],
      (await users.paginate(1, 5)).records,
      (await users.where({ UUID: user.UUID }).update({ email: "b" }) as {
        records: unknown[];
      }).records,
    ]
  ) {
    for (const record of read as Record<string, unknown>[]) {
      assert.equal("secret" in record, false);
    }
  }
  const post = created(await data.query("Posts").create({ author: user.UUID }));
  const populated = await data.query("Posts").populate("author").findByUUID(
    post.UUID,
  );
  assert.equal("secret" in (populated!.author as object), false);
  assert.equal(
    await users.where({ secret: "s" }).count(),
    1,
    "trusted code may filter on a write-only field",
  );
  assert.deepEqual(await users.select("secret").findByUUID(user.UUID), {
    UUID: user.UUID,
    secret: "s",
  });
  const deleted = await data.query("Posts").delete();
  assert.equal(deleted.records.length, 1);
  const gone = await users.delete();
  assert.equal("secret" in gone.records[0], false);
});

dataTest("update applies to every matching row and answers the final state", {
  collections: {
    Items: defineCollection({
      fields: { n: field("integer"), label: field("text", { nullable: true }) },
    }),
  },
  now: (() => {
    let t = 100;
    return () => t++;
  })(),
}, async (data) => {
  const items = data.query("Items");
  for (const n of [1, 2, 3]) created(await items.create({ n }));
  const result = await items.where("n", ">=", 2).order("n").update({
    label: "big",
  });
  assert.ok(result.ok);
  assert.deepEqual(result.records.map((r) => [r.n, r.label]), [[2, "big"], [
    3,
    "big",
  ]]);
  assert.ok(result.records.every((r) => (r._updatedAt as number) >= 103));
  for (const record of result.records) {
    assert.deepEqual(await items.findByUUID(record.UUID), record);
  }
  const limited = await items.order("-n").limit(1).update({ label: "top" });
  assert.ok(limited.ok);
  assert.deepEqual(
    limited.records.map((r) => r.n),
    [3],
    "limit bounds an update",
  );
  const none = await items.where("n", "=", 99).update({ label: "x" });
  assert.deepEqual(none, { ok: true, records: [] });
  assert.deepEqual(
    refused(await items.where("n", "=", 99).update({ n: "x" })),
    { n: "This value has the wrong type" },
    "input is validated even when nothing matches",
  );
});

/** `bytes` UTF-8 bytes that compress badly (as an attacker's value would). */
function noise(bytes: number): string {
  const chars = "0123456789abcdefghijklmnopqrstuvwxyz€";
  let out = "";
  let size = 0;
  while (size < bytes - 3) {
    const c = chars[Math.floor(Math.random() * chars.length)];
    out += c;
    size += c === "€" ? 3 : 1;
  }
  return out + "x".repeat(bytes - size);
}

// PostgreSQL refuses a B-tree entry over 2704 bytes at write time, so an indexed text value
// past its share is a 422 on every database, and one at its share is stored on both.
dataTest("indexed text fields take values up to their index's share", {
  collections: {
    Items: defineCollection({
      fields: {
        slug: field("text", { unique: true }),
        note: field("text", { index: true, nullable: true }),
        first: field("text", { nullable: true }),
        last: field("text", { nullable: true }),
        body: field("text", { nullable: true }),
        owner: field("integer", { default: 0 }),
      },
      uniques: [["first", "last", "owner"]],
    }),
  },
}, async (data) => {
  const items = data.query("Items");
  const limits = data.collections.get("Items")!.indexedTextLimits;
  assert.deepEqual(Object.fromEntries(limits), {
    slug: 2352,
    note: 2352,
    first: 1152,
    last: 1152,
  });
  created(
    await items.create({
      slug: noise(2352),
      note: noise(2352),
      first: noise(1152),
      last: noise(1152),
      body: noise(50_000),
    }),
  );
  const errors = refused(
    await items.create({
      slug: noise(2353),
      note: noise(5000),
      first: noise(1153),
      last: "short",
    }),
  );
  assert.deepEqual(errors, {
    slug: "Too long for an indexed field (at most 2352 bytes)",
    note: "Too long for an indexed field (at most 2352 bytes)",
    first: "Too long for an indexed field (at most 1152 bytes)",
  });
  const [row] = await items.findMany();
  assert.ok(
    (await items.where({ UUID: row.UUID }).update({ body: noise(9000) })).ok,
    "unindexed text has no such limit",
  );
  assert.equal(await items.count(), 1);
});
