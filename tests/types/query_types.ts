// Type expectations of the typed query builder: query(Definition) with no generated file,
// and query("Name") staying untyped without a registry. Checked by `deno check`
// (tests/types/types_test.ts); every `@ts-expect-error` line must stay an error.
import { defineCollection, field, query } from "../../mod.ts";

const Posts = defineCollection({
  fields: {
    title: field("text", { translatable: true }),
    views: field("integer", { default: 0 }),
    rating: field("number", { nullable: true }),
    secret: field("text", { readable: false, nullable: true }),
    slug: field("text", { immutable: true }),
    kind: field("select", { choices: ["news", "blog"], default: "blog" }),
    published: field("boolean", { default: false }),
    author: field("record", { collection: "Authors" }),
    tags: field("records", { collection: "Tags", default: [] }),
  },
});

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends
  (<T>() => T extends B ? 1 : 2) ? true : false;
function expectType<T extends true>(_: T): void {}

export async function typedBuilder(): Promise<void> {
  // where: keys, operators and values per field type.
  query(Posts).where({ views: { atLeast: 1 } });
  query(Posts).where({ title: { atLeast: "m" } });
  query(Posts).where({
    title: "x",
    kind: { in: ["news"] },
    rating: { isNull: true },
  });
  query(Posts).where({ or: [{ views: 1 }, { not: { published: true } }] });
  query(Posts).where({ author: { has: { name: "Ada" } } });
  query(Posts).where("views", ">=", 10);
  // @ts-expect-error a text operator on a number of the wrong type
  query(Posts).where({ title: { atLeast: 1 } });
  // @ts-expect-error an unknown field
  query(Posts).where({ nope: { equalsTo: 1 } });
  // @ts-expect-error an operator the field type does not allow
  query(Posts).where({ views: { startsWith: "1" } });
  // @ts-expect-error a choice that is not one
  query(Posts).where({ kind: "video" });
  // @ts-expect-error isNull on a field that is not nullable
  query(Posts).where({ views: { isNull: true } });
  // @ts-expect-error a write-only field cannot be filtered
  query(Posts).where({ secret: "x" });
  // @ts-expect-error a wrong value in the three-argument form
  query(Posts).where("views", ">=", "ten");
  // @ts-expect-error an unknown field in the three-argument form
  query(Posts).where("nope", "=", 1);

  // select narrows the result.
  const narrowed = await query(Posts).select("title", "views").findMany();
  expectType<
    Equal<
      typeof narrowed,
      { UUID: string; title: string; views: number; _translations: string[] }[]
    >
  >(true);
  // @ts-expect-error reading a write-only field
  (await query(Posts).findMany())[0].secret;
  // @ts-expect-error selecting an unknown field
  query(Posts).select("nope");

  // order keys are fields, optionally descending.
  query(Posts).order("-views", "title");
  // @ts-expect-error an unknown order key
  query(Posts).order("-nope");

  // populate swaps the link (plain records without a registry).
  const populated = await query(Posts).populate("author").findFirst();
  const name: unknown = populated?.author?.name;
  // @ts-expect-error only links can be populated
  query(Posts).populate("title");

  // create and update inputs are checked.
  const created = await query(Posts).create({
    title: "T",
    slug: "t",
    author: "a",
  });
  if (created.ok) {
    const views: number = created.record.views;
    void views;
  }
  // @ts-expect-error slug is required on create
  await query(Posts).create({ title: "T", author: "a" });
  // @ts-expect-error writing an immutable field on update
  await query(Posts).update({ slug: "other" });
  await query(Posts).update({ views: 2, rating: null });
  const page = await query(Posts).paginate(1, 10);
  const total: number = page.total;
  const first: string | undefined = page.records[0]?.title;
  void [name, total, first];
}

export async function untypedByName(): Promise<void> {
  // Without a registry, query("X") stays as it was: names are strings, records plain objects.
  const rows = await query("Anything").where({ whatever: { atLeast: 1 } })
    .findMany();
  const value: unknown = rows[0].whatever;
  void value;
}
