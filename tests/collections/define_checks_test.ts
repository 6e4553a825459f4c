import assert from "node:assert/strict";
import { defineCollection, field } from "./_imports.ts";
import { FieldOptionError } from "../../collections/define.ts";

const refusal = (fields: Record<string, unknown>): string => {
  try {
    defineCollection({ fields } as never);
  } catch (error) {
    assert.ok(error instanceof FieldOptionError);
    return error.message;
  }
  throw new Error("accepted");
};

Deno.test("defineCollection refuses field options with these exact messages", () => {
  const fn = () => undefined;
  const cases: [Record<string, unknown>, string][] = [
    [{ nope: true }, 'Unknown option "nope" on field "x"'],
    // An unknown option wins over a bad value, whatever their order.
    [{ nullable: "yes", nope: 1 }, 'Unknown option "nope" on field "x"'],
    [{ nullable: "yes" }, 'Option "nullable" on field "x" must be a boolean'],
    [
      { min: Infinity },
      'Option "min" on field "x" must be a finite number or a string',
    ],
    [
      { max: {} },
      'Option "max" on field "x" must be a finite number or a string',
    ],
    [
      { validators: [fn, "x"] },
      'Option "validators" on field "x" must be an array of functions',
    ],
    [
      { sanitizers: fn },
      'Option "sanitizers" on field "x" must be an array of functions',
    ],
    // The first bad value in key order is the one named.
    [
      { unique: 1, min: NaN },
      'Option "unique" on field "x" must be a boolean',
    ],
    [{ min: 5, max: 1 }, 'Option "min" on field "x" is greater than "max"'],
    [
      { choices: ["a", ""] },
      'Option "choices" on field "x" must be a non-empty list of distinct non-empty strings',
    ],
    [
      { choices: ["a", "a"] },
      'Option "choices" on field "x" must be a non-empty list of distinct non-empty strings',
    ],
    [
      { collection: "" },
      'Option "collection" on field "x" must be a collection name',
    ],
    [
      { onDelete: "drop" },
      'Option "onDelete" on field "x" must be "setNull", "cascade" or "restrict"',
    ],
    [
      { accept: ["image/png", "png"] },
      'Option "accept" on field "x" must be a list of MIME types such as "image/png" or "image/*"',
    ],
    [
      { collection: "U", onDelete: "setNull" },
      'onDelete "setNull" on field "x" needs nullable: true',
    ],
    [{ label: "" }, 'Option "label" on field "x" must be a non-empty string'],
    [
      { display: "big" },
      'Option "display" on field "x" must be one of textarea, switch, color, url, email',
    ],
    [{ hidden: 1 }, 'Option "hidden" on field "x" must be a boolean'],
    [
      { writable: false },
      'field "x" is writable: false and needs nullable: true or a default',
    ],
  ];
  for (const [options, message] of cases) {
    assert.equal(
      refusal({ x: { ...options, type: "text" } }),
      message,
      JSON.stringify(options),
    );
  }
  // Lists with holes (given without field(), which copies holes as undefined) are judged on
  // the values they hold, as before.
  // deno-lint-ignore no-sparse-arrays
  const sparse = ["a", , "b"];
  defineCollection({
    fields: {
      a: { type: "select", choices: sparse as string[] },
      // deno-lint-ignore no-sparse-arrays
      b: { type: "text", validators: [fn, , fn] as never },
      // deno-lint-ignore no-sparse-arrays
      c: { type: "file", accept: ["image/*", , "text/plain"] as string[] },
      d: field("text", { label: "Dee", hidden: true, display: "textarea" }),
    },
  });
});

Deno.test("defineCollection keeps its keys in one order and checks presentation when set", () => {
  const definition = defineCollection({
    events: false,
    uniques: [["a"]],
    indexes: [["a"]],
    api: { read: "public" },
    listFields: ["a"],
    label: "Things",
    fields: { a: field("text") },
  });
  assert.deepEqual(Object.keys(definition), [
    "fields",
    "label",
    "listFields",
    "api",
    "indexes",
    "uniques",
    "events",
  ]);
  assert.ok(Object.isFrozen(definition.listFields));
  assert.deepEqual(
    Object.keys(defineCollection({ fields: { a: field("text") } })),
    ["fields"],
  );
  assert.throws(
    () => defineCollection({ fields: { a: field("text") }, displayField: "b" }),
    (error: Error) =>
      error.message === '"displayField" names unknown field "b"',
  );
  assert.throws(
    () => defineCollection({ fields: {}, extra: 1 } as never),
    (error: Error) => error.message === 'Unknown collection option "extra"',
  );
});
