// Boot checks of merged collection definitions: their exact messages, naming the source.
import assert from "node:assert/strict";
import { defineCollection, defineLayer, field } from "../../mod.ts";
import { createTestApp } from "../../testing/mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";

async function bootError(
  collections: Record<string, ReturnType<typeof defineCollection>>,
): Promise<string> {
  const layer = defineLayer({ name: "extra", collections });
  try {
    const app = await createTestApp({
      root: fixturePath("api_app"),
      layers: [layer],
    });
    await app.close();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("booted");
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
