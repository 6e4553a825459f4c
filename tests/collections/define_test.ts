import assert from "node:assert/strict";
import {
  andFilters,
  defineCollection,
  defineFieldType,
  field,
  interpolate,
  isValidFieldName,
  renderDefaultMessage,
} from "./_imports.ts";

Deno.test("field() freezes the definition and checks options", () => {
  const title = field("text", { max: 5, validators: [() => undefined] });
  assert.equal(title.type, "text");
  assert.equal(title.max, 5);
  assert.ok(Object.isFrozen(title));
  assert.ok(Object.isFrozen(title.validators));
  const bad: [() => unknown, RegExp][] = [
    [() => field(""), /non-empty string/],
    [() => field("text", { nope: true } as never), /Unknown option "nope"/],
    [
      () => field("text", { nullable: "yes" } as never),
      /"nullable" on field "x" must be a boolean/,
    ],
    [
      () => field("text", { min: Infinity }),
      /"min" on field "x" must be a finite number/,
    ],
    [() => field("text", { min: 5, max: 1 }), /greater than "max"/],
    [() => field("text", { validators: ["x"] } as never), /array of functions/],
    [() => field("select", { choices: [] }), /non-empty list of distinct/],
    [
      () => field("select", { choices: ["a", "a"] }),
      /non-empty list of distinct/,
    ],
    [() => field("record", { collection: "" }), /collection name/],
    [
      () => field("record", { onDelete: "drop" } as never),
      /"setNull", "cascade" or "restrict"/,
    ],
    [
      () => field("record", { collection: "U", onDelete: "setNull" }),
      /needs nullable: true/,
    ],
    [
      () => field("text", { writable: false }),
      /needs nullable: true or a default/,
    ],
  ];
  // field() keeps the options; defineCollection checks them, naming the field.
  for (const [make, pattern] of bad) {
    assert.throws(
      () => defineCollection({ fields: { x: make() as never } }),
      pattern,
    );
  }
  field("text", { writable: false, default: "x" });
  field("text", { writable: false, nullable: true });
});

Deno.test("defineCollection() checks names, fields and index lists", () => {
  const posts = defineCollection({
    fields: { title: field("text"), views: field("integer") },
    api: { read: "public" },
    indexes: [["title", "views"]],
    uniques: [["title"]],
  });
  assert.ok(Object.isFrozen(posts));
  assert.ok(Object.isFrozen(posts.fields));
  assert.deepEqual(posts.api, { read: "public" }, "api is kept as is");
  const bad: [() => unknown, RegExp][] = [
    [() => defineCollection({} as never), /needs a "fields" object/],
    [
      () => defineCollection({ fields: {}, extra: 1 } as never),
      /Unknown collection option "extra"/,
    ],
    [
      () => defineCollection({ fields: { UUID: field("text") } }),
      /Invalid field name "UUID"/,
    ],
    [
      () => defineCollection({ fields: { _x: field("text") } }),
      /Invalid field name "_x"/,
    ],
    [
      () => defineCollection({ fields: { a__b: field("text") } }),
      /Invalid field name/,
    ],
    [
      () => defineCollection({ fields: { constructor: field("text") } }),
      /Invalid field name/,
    ],
    [
      () => defineCollection({ fields: { or: field("text") } }),
      /Invalid field name/,
    ],
    [
      () => defineCollection({ fields: { a: "text" as never } }),
      /built with field/,
    ],
    [
      () =>
        defineCollection({ fields: { a: field("text") }, indexes: [["b"]] }),
      /indexes\[0\] names unknown field "b"/,
    ],
    [
      () => defineCollection({ fields: { a: field("text") }, uniques: [[]] }),
      /uniques\[0\] must be a non-empty list/,
    ],
  ];
  for (const [make, pattern] of bad) assert.throws(make, pattern);
  assert.equal(isValidFieldName("dashboardLanguage"), true);
  assert.equal(isValidFieldName("1a"), false);
});

Deno.test("defineFieldType() checks the shape", () => {
  const type = defineFieldType({ name: "email", kind: "text" });
  assert.ok(Object.isFrozen(type));
  assert.throws(
    () => defineFieldType({ name: "x y", kind: "text" }),
    /Invalid field type name/,
  );
  assert.throws(
    () => defineFieldType({ name: "x", kind: "blob" as never }),
    /unknown kind "blob"/,
  );
  assert.throws(
    () =>
      defineFieldType({ name: "x", kind: "text", validators: [1 as never] }),
    /array of functions/,
  );
  assert.throws(
    () => defineFieldType({ name: "x", kind: "text", toDb: "no" as never }),
    /"toDb" of field type "x" must be a function/,
  );
});

Deno.test("messages render in English with parameters; unknown keys pass through", () => {
  assert.equal(renderDefaultMessage("required", {}), "This field is required");
  assert.equal(
    renderDefaultMessage("tooLong", { max: 3 }),
    "Must be at most 3 characters long",
  );
  assert.equal(
    renderDefaultMessage("Choose {a}", { a: [1, 2] }),
    "Choose 1, 2",
  );
  assert.equal(interpolate("{missing} stays", {}), "{missing} stays");
});

Deno.test("andFilters merges disjoint filters and nests overlapping ones", () => {
  assert.deepEqual(andFilters(), {});
  assert.deepEqual(andFilters({ a: 1 }, undefined, { b: 2 }), { a: 1, b: 2 });
  assert.deepEqual(andFilters({ a: 1 }, { a: 2 }), {
    a: 1,
    not: { not: { a: 2 } },
  });
  assert.deepEqual(andFilters({ not: { a: 1 } }, { not: { a: 2 } }), {
    or: [{ not: { a: 1 } }],
    not: { not: { not: { a: 2 } } },
  });
});
