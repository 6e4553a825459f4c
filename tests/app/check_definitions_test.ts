// Boot checks of merged collection definitions: their exact messages, naming the source.
import assert from "node:assert/strict";
import { defineCollection, defineLayer, field } from "../../mod.ts";
import { bootErrorWith } from "../_helpers/boot_error.ts";

function bootError(
  collections: Record<string, ReturnType<typeof defineCollection>>,
): Promise<string> {
  return bootErrorWith(defineLayer({ name: "extra", collections }));
}

Deno.test("a field of an unknown type or linking to an unknown collection names its source", async () => {
  assert.equal(
    await bootError({
      Notes: defineCollection({
        fields: { body: field("text"), kind: field("txt") },
      }),
    }),
    'the extra layer: Unknown field type "txt" for Notes.kind',
  );
  assert.equal(
    await bootError({
      Notes: defineCollection({
        fields: { author: field("record", { collection: "Writers" }) },
      }),
    }),
    'the extra layer: Field Notes.author links to an unknown collection "Writers"',
  );
  // Checked collection by collection, field by field: the first in order is named.
  assert.equal(
    await bootError({
      Notes: defineCollection({
        fields: {
          author: field("record", { collection: "Writers" }),
          kind: field("txt"),
        },
      }),
      Drafts: defineCollection({ fields: { kind: field("txt") } }),
    }),
    'the extra layer: Field Notes.author links to an unknown collection "Writers"',
  );
});
