// Presentation options reach the OpenAPI document: a collection's description and a field's
// label and description annotate its schemas, message keys read in the default language.
import assert from "node:assert/strict";
import { createTestApp } from "../../testing/mod.ts";

const ADMIN_APP =
  new URL("../fixtures/dashboard_admin_app/", import.meta.url).pathname;

Deno.test("labels and descriptions annotate the collection schemas", async () => {
  const app = await createTestApp({ root: ADMIN_APP, database: ":memory:" });
  try {
    const response = await app.request("/openapi.json", {
      headers: { "accept-language": "de" },
    });
    assert.equal(response.status, 200);
    const doc = await response.json();
    const schemas = doc.components.schemas;
    const posts = schemas.Posts;
    assert.equal(posts.description, "Articles of the blog");
    assert.equal(posts.properties.title.title, "Title");
    assert.equal(
      posts.properties.body.description,
      "Shown on the post's page",
    );
    assert.equal(schemas.PostsCreate.properties.title.title, "Title");
    assert.equal(
      schemas.PostsUpdate.properties.body.description,
      "Shown on the post's page",
    );
    // Without presentation options the schemas stay as they were.
    assert.equal(schemas.BlogTags.description, undefined);
    assert.equal(schemas.BlogTags.properties.name.title, undefined);
  } finally {
    await app.close();
  }
});
