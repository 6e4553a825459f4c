// Collections from files and layers (issue 3, point 2) and createTestApp (point 8).
import assert from "node:assert/strict";
import { defineCollection, defineLayer, field } from "../../mod.ts";
import { createTestApp } from "../../testing/mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";

Deno.test("collections are named after their files", async () => {
  const app = await createTestApp({ root: fixturePath("api_app") });
  try {
    assert.deepEqual(
      [...app.data.collections.keys()].sort(),
      ["Authors", "Comments", "Members", "Posts", "Secrets", "Tags"],
    );
  } finally {
    await app.close();
  }
});

Deno.test("layers merge collections by name; the closer layer wins", async () => {
  const base = defineLayer({
    name: "base",
    collections: {
      Secrets: defineCollection({ fields: { other: field("integer") } }),
      Extra: defineCollection({ fields: { note: field("text") } }),
    },
  });
  const app = await createTestApp({
    root: fixturePath("api_app"),
    layers: [base],
  });
  try {
    assert.ok(app.data.collections.has("Extra"));
    assert.deepEqual([...app.data.collections.get("Secrets")!.fields.keys()], [
      "value",
    ]);
  } finally {
    await app.close();
  }
});

Deno.test("two collection names differing only by case are a boot error", async () => {
  const base = defineLayer({
    name: "base",
    collections: { POSTS: defineCollection({ fields: { x: field("text") } }) },
  });
  await assert.rejects(
    () => createTestApp({ root: fixturePath("api_app"), layers: [base] }),
    /"Posts" and "POSTS" differ only by case|"POSTS" and "Posts" differ only by case/,
  );
});

Deno.test("createTestApp: a fresh in-memory database per app", async () => {
  const first = await createTestApp({ root: fixturePath("api_app") });
  const second = await createTestApp({ root: fixturePath("api_app") });
  try {
    const created = await first.request("/collections/authors", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ada" }),
    });
    assert.equal(created.status, 201);
    await created.body?.cancel();
    assert.equal(await first.query("Authors").count(), 1);
    assert.equal(await second.query("Authors").count(), 0);
  } finally {
    await first.close();
    await second.close();
  }
});
