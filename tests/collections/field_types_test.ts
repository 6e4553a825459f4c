import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import {
  builtinFieldTypes,
  defineCollection,
  defineFieldType,
  field,
  type FieldDefinition,
} from "../../collections/mod.ts";
import { created, dataTest, refused } from "./_helpers.ts";

interface Case {
  type: FieldDefinition;
  accept: [input: unknown, stored: unknown][];
  reject: [input: unknown, message: string][];
}

const MSG = {
  invalidType: "This value has the wrong type",
  empty: "This field cannot be empty",
  tooShort: (n: number) => `Must be at least ${n} characters long`,
  tooLong: (n: number) => `Must be at most ${n} characters long`,
  tooSmall: (n: unknown) => `Must be at least ${n}`,
  tooLarge: (n: unknown) => `Must be at most ${n}`,
  tooFew: (n: number) => `Must contain at least ${n} items`,
  tooMany: (n: number) => `Must contain at most ${n} items`,
  invalidChoice: "This value is not one of the allowed choices",
  duplicate: "This list contains the same value twice",
  invalidDate: "Must be a date written YYYY-MM-DD",
  invalidTime: "Must be a time written HH:MM:SS",
  invalidInteger: "Must be a whole number",
  invalidNumber: "Must be a finite number",
  invalidDateTime: "Must be a timestamp in whole milliseconds",
  invalidReference: "This record does not exist",
  required: "This field is required",
  nul: "Must not contain the NUL character",
};

const CASES: Record<string, Case> = {
  text: {
    type: field("text", { min: 2, max: 5 }),
    accept: [["ab", "ab"], ["  ab ", "  ab "], ["héllo", "héllo"], [
      "😀😀",
      "😀😀",
    ]],
    reject: [
      ["", MSG.empty],
      ["a", MSG.tooShort(2)],
      ["abcdef", MSG.tooLong(5)],
      [5, MSG.invalidType],
      [true, MSG.invalidType],
      [["ab"], MSG.invalidType],
      [{}, MSG.invalidType],
      // PostgreSQL cannot store U+0000; SQLite refuses it too, so apps behave alike.
      ["a\u0000b", MSG.nul],
    ],
  },
  textAllowEmpty: {
    type: field("text", { allowEmpty: true }),
    accept: [["", ""], [" ", " "]],
    reject: [[1, MSG.invalidType]],
  },
  integer: {
    type: field("integer", { min: -5, max: 2 ** 53 - 1 }),
    accept: [[0, 0], [-5, -5], [2 ** 53 - 1, 2 ** 53 - 1]],
    reject: [
      [1.5, MSG.invalidInteger],
      [2 ** 53, MSG.invalidInteger],
      [NaN, MSG.invalidInteger],
      [-6, MSG.tooSmall(-5)],
      ["1", MSG.invalidType],
      [true, MSG.invalidType],
    ],
  },
  number: {
    type: field("number", { min: 0, max: 10 }),
    accept: [[0, 0], [2.5, 2.5], [10, 10]],
    reject: [
      [Infinity, MSG.invalidNumber],
      [NaN, MSG.invalidNumber],
      [-0.1, MSG.tooSmall(0)],
      [10.5, MSG.tooLarge(10)],
      ["2", MSG.invalidType],
    ],
  },
  boolean: {
    type: field("boolean"),
    accept: [[true, true], [false, false]],
    reject: [[0, MSG.invalidType], ["true", MSG.invalidType]],
  },
  date: {
    type: field("date", { min: "2000-01-01", max: "2099-12-31" }),
    accept: [["2024-02-29", "2024-02-29"], ["2000-01-01", "2000-01-01"], [
      "2000-02-29",
      "2000-02-29",
    ]],
    reject: [
      ["2023-02-29", MSG.invalidDate],
      ["2100-02-29", MSG.invalidDate],
      ["2024-13-01", MSG.invalidDate],
      ["2024-1-01", MSG.invalidDate],
      ["2024-04-31", MSG.invalidDate],
      ["1999-12-31", MSG.tooSmall("2000-01-01")],
      ["2100-01-01", MSG.tooLarge("2099-12-31")],
      [20240101, MSG.invalidType],
    ],
  },
  dateTime: {
    type: field("dateTime", { min: 0 }),
    accept: [[0, 0], [1_700_000_000_123, 1_700_000_000_123], [
      new Date(5),
      5,
    ]],
    reject: [
      [1.5, MSG.invalidDateTime],
      [-1, MSG.tooSmall(0)],
      ["2024-01-01", MSG.invalidType],
    ],
  },
  time: {
    type: field("time", { min: "08:00:00", max: "20:00:00" }),
    accept: [["08:00:00", "08:00:00"], ["12:30", "12:30:00"], [
      "19:59:59",
      "19:59:59",
    ]],
    reject: [
      ["24:00:00", MSG.invalidTime],
      ["12:60:00", MSG.invalidTime],
      ["7:00", MSG.invalidTime],
      ["07:59:59", MSG.tooSmall("08:00:00")],
      ["20:00:01", MSG.tooLarge("20:00:00")],
      [1200, MSG.invalidType],
    ],
  },
  select: {
    type: field("select", { choices: ["draft", "published"] }),
    accept: [["draft", "draft"], ["published", "published"]],
    reject: [["Draft", MSG.invalidChoice], [1, MSG.invalidType]],
  },
  multiSelect: {
    type: field("multiSelect", { choices: ["a", "b", "c"], min: 1, max: 2 }),
    accept: [[["a"], ["a"]], [["c", "a"], ["c", "a"]]],
    reject: [
      [[], MSG.tooFew(1)],
      [["a", "b", "c"], MSG.tooMany(2)],
      [["a", "a"], MSG.duplicate],
      [["d"], MSG.invalidChoice],
      [[1], MSG.invalidType],
      ["a", MSG.invalidType],
    ],
  },
};

const collections = Object.fromEntries(
  Object.entries(CASES).map(([name, c]) => [
    `T_${name}`,
    defineCollection({ fields: { value: c.type } }),
  ]),
);

for (const [name, c] of Object.entries(CASES)) {
  dataTest(
    `field type ${name}: accepts and stores`,
    { collections },
    async (data) => {
      const q = data.query(`T_${name}`);
      for (const [input, stored] of c.accept) {
        const record = created(await q.create({ value: input }));
        assert.deepEqual(record.value, stored, `${name} ${String(input)}`);
        const reread = await q.findByUUID(record.UUID);
        assert.deepEqual(reread, record, "a created record equals a re-read");
      }
    },
  );
  dataTest(`field type ${name}: refuses`, { collections }, async (data) => {
    const q = data.query(`T_${name}`);
    for (const [input, message] of c.reject) {
      const errors = refused(await q.create({ value: input }));
      assert.deepEqual(errors, { value: message }, `${name} ${String(input)}`);
    }
    assert.equal(await q.count(), 0);
    assert.deepEqual(refused(await q.create({})), { value: MSG.required });
    assert.deepEqual(refused(await q.create({ value: null })), {
      value: MSG.required,
    });
  });
}

dataTest("field types record and records: UUIDs of existing records", {
  collections: {
    Authors: defineCollection({ fields: { name: field("text") } }),
    Posts: defineCollection({
      fields: {
        author: field("record", { collection: "Authors" }),
        coauthors: field("records", { collection: "Authors", max: 2 }),
      },
    }),
  },
}, async (data) => {
  const a = created(await data.query("Authors").create({ name: "A" }));
  const b = created(await data.query("Authors").create({ name: "B" }));
  const posts = data.query("Posts");
  const post = created(
    await posts.create({
      author: a.UUID.toUpperCase(),
      coauthors: [b.UUID, a.UUID],
    }),
  );
  assert.equal(post.author, a.UUID);
  assert.deepEqual(post.coauthors, [b.UUID, a.UUID], "order is kept");
  assert.deepEqual(await posts.findByUUID(post.UUID), post);
  const missing = crypto.randomUUID();
  assert.deepEqual(
    refused(
      await posts.create({ author: missing, coauthors: [a.UUID, missing] }),
    ),
    {
      author: MSG.invalidReference,
      "coauthors[1]": MSG.invalidReference,
    },
  );
  assert.deepEqual(
    refused(await posts.create({ author: "not-a-uuid", coauthors: "x" })),
    { author: MSG.invalidReference, coauthors: MSG.invalidType },
  );
  assert.deepEqual(
    refused(await posts.create({ author: 5, coauthors: [a.UUID, a.UUID] })),
    { author: MSG.invalidType, coauthors: MSG.duplicate },
  );
  assert.deepEqual(
    refused(
      await posts.create({
        author: a.UUID,
        coauthors: [a.UUID, b.UUID, missing],
      }),
    ),
    { coauthors: MSG.tooMany(2) },
  );
  assert.deepEqual(
    refused(await posts.create({ author: a.UUID, coauthors: ["nope"] })),
    { "coauthors[0]": MSG.invalidReference },
  );
  const empty = created(await posts.create({ author: a.UUID, coauthors: [] }));
  assert.deepEqual(empty.coauthors, []);
});

const slug = defineFieldType({
  name: "slug",
  kind: "text",
  sanitizers: [(v) => typeof v === "string" ? v.trim().toLowerCase() : v],
  validators: [
    ...builtinFieldTypes.text.validators!,
    (v) => /^[a-z0-9-]+$/.test(v as string) ? undefined : "invalidSlug",
  ],
  defaults: { unique: true },
});

const prepared: string[] = [];
const secret = defineFieldType({
  name: "secret",
  kind: "text",
  validators: builtinFieldTypes.text.validators,
  defaults: { readable: false },
  async prepareForStorage(value, ctx) {
    prepared.push(`${ctx.collection}.${ctx.field}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return `hashed:${value}`;
  },
});

const flag = defineFieldType({
  name: "flag",
  kind: "boolean",
  columnType: (dialect) => dialect === "postgres" ? "text" : "text",
  toDb: (value) => value ? "yes" : "no",
  fromDb: (value) => value === "yes",
  validators: builtinFieldTypes.boolean.validators,
});

dataTest(
  "custom field types: kind, sanitizers, validators, storage, prepareForStorage",
  {
    collections: {
      Accounts: defineCollection({
        fields: {
          handle: field("slug", { max: 10 }),
          password: field("secret"),
          active: field("flag", { default: true }),
        },
      }),
    },
    fieldTypes: { slug, secret, flag },
    messages: (key, params) =>
      key === "invalidSlug" ? "Not a slug" : `${key}${JSON.stringify(params)}`,
  },
  async (data) => {
    prepared.length = 0;
    const accounts = data.query("Accounts");
    assert.deepEqual(
      refused(await accounts.create({ handle: "Not OK!", password: 5 })),
      { handle: "Not a slug", password: "invalidType{}" },
    );
    assert.deepEqual(
      prepared,
      [],
      "prepareForStorage runs only for valid writes",
    );
    const record = created(
      await accounts.create({ handle: "  Ann ", password: "pw" }),
    );
    assert.deepEqual(prepared, ["Accounts.password"]);
    assert.deepEqual(
      {
        handle: record.handle,
        active: record.active,
        password: record.password,
      },
      { handle: "ann", active: true, password: undefined },
      "sanitized, converted, write-only hidden",
    );
    assert.equal("password" in record, false);
    const raw = await kyselyOf(data.db).selectFrom("Accounts").selectAll()
      .executeTakeFirst();
    assert.equal(raw!.password, "hashed:pw");
    assert.equal(raw!.active, "yes");
    const withSecret = await accounts.select("handle", "password").findByUUID(
      record.UUID,
    );
    assert.deepEqual(withSecret, {
      UUID: record.UUID,
      handle: "ann",
      password: "hashed:pw",
    });
    assert.deepEqual(
      refused(await accounts.create({ handle: "ann", password: "x" })),
      { handle: "notUnique{}" },
      "type defaults (unique) apply",
    );
    assert.equal(
      (await accounts.where({ active: true }).findMany()).length,
      1,
      "where values go through toDb",
    );
    assert.deepEqual(
      refused(await accounts.create({ handle: "abcdefghijk", password: "x" })),
      { handle: 'tooLong{"max":10}' },
    );
  },
);
