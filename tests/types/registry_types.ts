// Type expectations with a generated registry (as strata.gen.ts writes it): query("Name") is
// typed, an unknown collection is an error, populate and has cross collections typed.
// Checked by `deno check` (tests/types/types_test.ts).
import {
  type ClientRegistryOf,
  type CollectionRegistry,
  defineCollection,
  field,
  query,
} from "../../mod.ts";
import { createClient } from "../../client/mod.ts";

const Authors = defineCollection({
  fields: { name: field("text"), born: field("integer", { nullable: true }) },
});
const Posts = defineCollection({
  fields: {
    title: field("text"),
    author: field("record", { collection: "Authors" }),
    coauthors: field("records", { collection: "Authors", default: [] }),
  },
});

declare module "../../mod.ts" {
  interface CollectionRegistry {
    Authors: typeof Authors;
    Posts: typeof Posts;
  }
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends
  (<T>() => T extends B ? 1 : 2) ? true : false;
function expectType<T extends true>(_: T): void {}

export async function registry(): Promise<void> {
  const posts = await query("Posts").where({ title: { startsWith: "A" } })
    .findMany();
  const title: string = posts[0].title;
  // @ts-expect-error an unknown collection with a registry
  query("Postz");
  // @ts-expect-error an unknown field through the registry
  query("Posts").where({ nope: 1 });
  // has crosses to the target, typed
  query("Posts").where({ author: { has: { born: { atLeast: 1900 } } } });
  // @ts-expect-error a wrong value type inside has
  query("Posts").where({ author: { has: { born: { atLeast: "1900" } } } });
  // populate replaces the link by the target's record
  const post = await query("Posts").populate("author", "coauthors").findFirst();
  if (post) {
    expectType<
      Equal<
        typeof post.author,
        | {
          UUID: string;
          _updatedAt: number;
          name: string;
          born: number | null;
        }
        | null
      >
    >(true);
    const names: string[] = post.coauthors.map((author) => author.name);
    void names;
  }
  void title;
}

export async function client(): Promise<void> {
  const api = createClient<ClientRegistryOf<CollectionRegistry>>({
    baseUrl: "http://localhost:8000",
  });
  const posts = await api.collection("Posts").list({ where: { title: "x" } });
  const title: string = posts[0].title;
  await api.collection("Authors").create({ name: "Ada" });
  // @ts-expect-error an unknown collection with a registry
  api.collection("Postz");
  // @ts-expect-error name is required on create
  await api.collection("Authors").create({ born: 1815 });
  void title;
}
