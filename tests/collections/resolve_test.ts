import assert from "node:assert/strict";
import { resolveCollections } from "../../collections/resolve.ts";
import {
  builtinFieldTypes,
  type CollectionDefinition,
  defineCollection,
  field,
} from "./_imports.ts";

const resolve = (definitions: Record<string, CollectionDefinition>) =>
  resolveCollections(definitions, builtinFieldTypes, "sqlite");

Deno.test("resolving refuses bad definitions with these exact messages", () => {
  const bad: [Record<string, CollectionDefinition>, string][] = [
    [
      { Posts: defineCollection({ fields: { a: field("nope") } }) },
      'Unknown field type "nope" for Posts.a',
    ],
    [
      { Posts: defineCollection({ fields: { a: field("select") } }) },
      'Invalid field Posts.a: a select field needs "choices"',
    ],
    [
      {
        Posts: defineCollection({
          fields: {
            a: field("record", { collection: "Posts", translatable: true }),
          },
        }),
      },
      "Invalid field Posts.a: relations cannot be translatable",
    ],
    [
      {
        Posts: defineCollection({
          fields: { a: field("multiSelect", { choices: ["x"], index: true }) },
        }),
      },
      'Invalid field Posts.a: "unique" and "index" do not apply to lists',
    ],
    [
      {
        Posts: defineCollection({
          fields: { a: field("integer", { search: true }) },
        }),
      },
      'Invalid field Posts.a: "search" applies to text fields only',
    ],
    [
      {
        Posts: {
          fields: {
            a: { type: "record", collection: "Posts", onDelete: "setNull" },
          },
        },
      },
      'Invalid field Posts.a: onDelete "setNull" needs nullable: true',
    ],
    [
      { Posts: { fields: { a: { type: "text", writable: false } } } },
      "Invalid field Posts.a: writable: false needs nullable: true or a default",
    ],
    [
      { "Bad Name": defineCollection({ fields: {} }) },
      'Invalid collection name "Bad Name": use a letter then letters, digits or single underscores (at most 40)',
    ],
    [
      {
        Posts: defineCollection({
          fields: {
            a: field("text", { translatable: true }),
            b: field("text"),
          },
          uniques: [["a", "b"]],
        }),
      },
      "Collection Posts: an index cannot mix translatable and plain fields (a, b)",
    ],
    [
      {
        Posts: defineCollection({
          fields: {
            a: field("records", { collection: "Posts" }),
            b: field("text"),
          },
          indexes: [["b", "a"]],
        }),
      },
      "Collection Posts: records fields cannot be indexed (b, a)",
    ],
    [
      { Posts: { fields: { a: { type: "text" } }, indexes: [["a", "b"]] } },
      "Collection Posts: unknown field b in index",
    ],
    [
      {
        Posts: defineCollection({
          fields: { a: field("text", { index: true }), b: field("text") },
          indexes: [["a"]],
        }),
      },
      "Collection Posts: the index over a is declared twice",
    ],
    [
      {
        Posts: defineCollection({
          fields: { a: field("record", { collection: "Nope" }) },
        }),
      },
      "Posts.a references unknown collection Nope",
    ],
    [
      {
        Posts: defineCollection({ fields: { a: field("text") } }),
        posts: defineCollection({ fields: {} }),
      },
      "Collections Posts and posts differ only by case",
    ],
  ];
  for (const [definitions, message] of bad) {
    assert.throws(() => resolve(definitions), (error: Error) => {
      assert.equal(error.message, message);
      return true;
    });
  }
});

Deno.test("resolving builds indexes, limits, lists and references", () => {
  const resolved = resolve({
    Users: defineCollection({ fields: { name: field("text") } }),
    Posts: defineCollection({
      fields: {
        title: field("text", { translatable: true, unique: true }),
        slug: field("text", { unique: true }),
        views: field("integer", { default: 0, index: true }),
        author: field("record", { collection: "Users", nullable: true }),
        tags: field("records", { collection: "Users" }),
        secret: field("text", { readable: false, nullable: true }),
        body: field("text", { search: true, nullable: true }),
      },
      indexes: [["slug", "views"]],
      uniques: [["views", "author"]],
    }),
  });
  const posts = resolved.get("Posts")!;
  assert.equal(posts.translationTable, "Posts__translations");
  assert.deepEqual(
    posts.indexes.map((i) => [i.name, i.table, i.columns, i.unique]),
    [
      [
        "Posts__translations__locale_title__uniq",
        "Posts__translations",
        ["locale", "title"],
        true,
      ],
      ["Posts__slug__uniq", "Posts", ["slug"], true],
      ["Posts__views_UUID__idx", "Posts", ["views", "UUID"], false],
      ["Posts__author_UUID__idx", "Posts", ["author", "UUID"], false],
      [
        "Posts__slug_views_UUID__idx",
        "Posts",
        ["slug", "views", "UUID"],
        false,
      ],
      ["Posts__views_author__uniq", "Posts", ["views", "author"], true],
    ],
  );
  assert.deepEqual(
    posts.uniqueGroups.map((group) => group.map((f) => f.name)),
    [["title"], ["slug"], ["views", "author"]],
  );
  // A text alone keeps the budget less two columns' room; beside a number, less three.
  assert.deepEqual([...posts.indexedTextLimits], [
    ["title", 2352],
    ["slug", 2304],
  ]);
  const names = (list: readonly { name: string }[]) => list.map((f) => f.name);
  assert.deepEqual(names(posts.fieldList), [
    "title",
    "slug",
    "views",
    "author",
    "tags",
    "secret",
    "body",
  ]);
  assert.deepEqual(names(posts.columnFields), [
    "slug",
    "views",
    "author",
    "secret",
    "body",
  ]);
  assert.deepEqual(names(posts.translatedFields), ["title"]);
  assert.deepEqual(names(posts.junctionFields), ["tags"]);
  assert.deepEqual(names(posts.relationFields), ["author", "tags"]);
  assert.deepEqual(names(posts.searchFields), ["body"]);
  assert.ok(!names(posts.readableFields).includes("secret"));
  const users = resolved.get("Users")!;
  assert.deepEqual(
    users.incoming.map((r) => `${r.from.name}.${r.field.name}`),
    ["Posts.author", "Posts.tags"],
  );
  const views = posts.fields.get("views")!;
  assert.ok(Object.isFrozen(views) && Object.isFrozen(views.options));
  assert.deepEqual(views.options, { default: 0, index: true });
  assert.equal(views.defaultValue(), 0);
  assert.equal(views.toDb(undefined), null);
  assert.equal(views.fromDb?.(7), 7);
  const body = posts.fields.get("body")!;
  assert.equal(body.hasDefault, false);
  assert.equal(body.defaultValue(), undefined);
  assert.equal(body.toDb(undefined), null);
  assert.equal(body.toDb("x"), "x");
  assert.equal(posts.fields.get("author")!.onDelete, "restrict");
  assert.equal(posts.fields.get("tags")!.onDelete, "cascade");
  assert.equal(posts.fields.get("tags")!.junctionTable, "Posts__tags");
});

Deno.test("the built-in types refuse bad min and max with these exact messages", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ type: "text", min: -1 }, '"min" must be a non-negative integer length'],
    [{ type: "text", max: 1.5 }, '"max" must be a non-negative integer length'],
    [
      { type: "text", min: 1, max: "9" },
      '"max" must be a non-negative integer length',
    ],
    [{ type: "integer", min: "1" }, '"min" must be a number'],
    [{ type: "number", max: "1" }, '"max" must be a number'],
    [{ type: "dateTime", min: "x", max: "y" }, '"min" must be a number'],
    [
      { type: "date", min: "2024-02-30" },
      '"min" must be a date written YYYY-MM-DD',
    ],
    [
      { type: "date", max: "tomorrow" },
      '"max" must be a date written YYYY-MM-DD',
    ],
    [
      { type: "time", min: "25:00:00" },
      '"min" must be a time written HH:MM:SS',
    ],
    [{ type: "time", max: "noon" }, '"max" must be a time written HH:MM:SS'],
    [{ type: "files", min: -1 }, '"min" must be a non-negative integer count'],
    [{ type: "files", max: 0.5 }, '"max" must be a non-negative integer count'],
  ];
  for (const [definition, problem] of cases) {
    assert.throws(
      () => resolve({ Posts: { fields: { a: definition as never } } }),
      (error: Error) => {
        assert.equal(error.message, `Invalid field Posts.a: ${problem}`);
        return true;
      },
    );
  }
  resolve({
    Posts: {
      fields: {
        a: { type: "text", min: 0, max: 10 },
        b: { type: "integer", min: -5, max: 5 },
        c: { type: "date", min: "2024-02-29" },
        d: { type: "time", max: "23:59:59" },
        e: { type: "files", min: 0, max: 3 },
      },
    },
  });
});
