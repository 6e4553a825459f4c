import assert from "node:assert/strict";
import { resolveCollections } from "../../collections/resolve.ts";
import { checkFieldDefaults } from "../../collections/check_defaults.ts";
import {
  builtinFieldTypes,
  defineCollection,
  defineFieldType,
  field,
  type FieldDefinition,
} from "./_imports.ts";

const slug = defineFieldType({
  name: "slug",
  kind: "text",
  sanitizers: [(v) => typeof v === "string" ? v.trim().toLowerCase() : v],
  validators: [(v) => /^[a-z-]+$/.test(v as string) ? undefined : "badSlug"],
});
const remote = defineFieldType({
  name: "remote",
  kind: "text",
  validators: [
    () => Promise.resolve("never judged at boot"),
    (_v, ctx) => {
      ctx.query("Posts");
      return "never reached";
    },
  ],
});

function check(fields: Record<string, FieldDefinition>): string | undefined {
  const resolved = resolveCollections(
    { Posts: defineCollection({ fields }) },
    { ...builtinFieldTypes, slug, remote },
    "sqlite",
  );
  try {
    checkFieldDefaults(resolved.values());
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

Deno.test("a fixed default its own field refuses fails the boot, naming the field", () => {
  assert.equal(
    check({
      title: field("text", { default: "ok" }),
      status: field("select", { choices: ["draft", "live"], default: "gone" }),
    }),
    'Posts.status: the default "gone" is refused by the field itself (This value is not one of the allowed choices); change the default or the field\'s options',
  );
  assert.equal(
    check({ views: field("integer", { default: "zero" as never }) }),
    'Posts.views: the default "zero" is refused by the field itself (This value has the wrong type); change the default or the field\'s options',
  );
  assert.equal(
    check({ title: field("text", { default: "" }) }),
    'Posts.title: the default "" is refused by the field itself (This field cannot be empty); change the default or the field\'s options',
  );
  assert.equal(
    check({ title: field("text", { default: "abcdef", max: 3 }) }),
    'Posts.title: the default "abcdef" is refused by the field itself (Must be at most 3 characters long); change the default or the field\'s options',
  );
  assert.equal(
    check({ title: field("text", { default: null }) }),
    "Posts.title: the default null is refused by the field itself (This field is required); change the default or the field's options",
  );
  assert.equal(
    check({ slug: field("slug", { default: "Not A Slug" }) }),
    'Posts.slug: the default "Not A Slug" is refused by the field itself (badSlug); change the default or the field\'s options',
  );
});

Deno.test("defaults that pass, or cannot be judged at boot, do not fail it", () => {
  assert.equal(
    check({
      title: field("text", { default: null, nullable: true }),
      slug: field("slug", { default: "  Hello " }),
      views: field("integer", { default: 0 }),
      done: field("boolean", { default: false }),
      tags: field("multiSelect", { choices: ["a"], default: ["a"] }),
      made: field("date", { default: () => "not a date" }),
      far: field("remote", { default: "x" }),
    }),
    undefined,
  );
});

Deno.test("a list default is checked on a copy: refused, accepted, never changed", () => {
  assert.equal(
    check({
      tags: field("multiSelect", { choices: ["a"], default: ["a", "z"] }),
    }),
    'Posts.tags: the default ["a","z"] is refused by the field itself (This value is not one of the allowed choices); change the default or the field\'s options',
  );
  const given = ["b", "a"];
  const growing = defineFieldType({
    name: "growing",
    kind: "multiSelect",
    sanitizers: [(v) => {
      (v as string[]).push("a");
      return v;
    }],
  });
  const resolved = resolveCollections(
    {
      Posts: defineCollection({
        fields: {
          list: field("growing", { choices: ["a", "b"], default: given }),
        },
      }),
    },
    { ...builtinFieldTypes, growing },
    "sqlite",
  );
  checkFieldDefaults(resolved.values());
  assert.deepEqual(given, ["b", "a"]);
});

Deno.test("a list default of other than primitives is copied as the field copies it", () => {
  // structuredClone refuses a symbol: the boot fails as it did, with its error.
  const message = check({
    tags: field("multiSelect", {
      choices: ["a"],
      default: [Symbol("a")] as never,
    }),
  });
  assert.match(message ?? "", /could not be cloned/);
});
