// Presentation options of collections and fields: checked by defineCollection, with the
// defaults the dashboard and OpenAPI use, and literals or message keys resolved by language.
import assert from "node:assert/strict";
import { defineCollection, field } from "../../mod.ts";
import { displayFieldOf, wordsOf } from "../../collections/presentation.ts";
import { createTranslator } from "../../i18n/translator.ts";
import { literalOrMessage } from "../../i18n/literal_or_key.ts";

Deno.test("names become labels: words split, first capitalised", () => {
  assert.equal(wordsOf("BlogTags"), "Blog tags");
  assert.equal(wordsOf("publishedOn"), "Published on");
  assert.equal(wordsOf("cover_image"), "Cover image");
  assert.equal(wordsOf("title"), "Title");
  assert.equal(wordsOf("UUID"), "UUID");
  assert.equal(wordsOf("HTMLPages"), "HTML pages");
});

Deno.test("defineCollection keeps valid presentation options", () => {
  const posts = defineCollection({
    label: "Posts",
    description: "posts.description",
    displayField: "title",
    listFields: ["title", "views"],
    defaultOrder: ["-views", "title", "_updatedAt"],
    fields: {
      views: field("integer", { default: 0 }),
      title: field("text", {
        label: "posts.title",
        description: "The headline",
        placeholder: "A headline",
      }),
      body: field("text", { display: "textarea", hidden: true }),
    },
  });
  assert.equal(posts.label, "Posts");
  assert.deepEqual(posts.listFields, ["title", "views"]);
  assert.ok(Object.isFrozen(posts.listFields));
  assert.equal(posts.fields.body.display, "textarea");
  assert.equal(displayFieldOf(posts), "title");
});

Deno.test("the display field defaults to the first text, email or select field", () => {
  assert.equal(
    displayFieldOf({
      fields: {
        views: field("integer"),
        kind: field("select", { choices: ["a"] }),
        name: field("text"),
      },
    }),
    "kind",
  );
  assert.equal(
    displayFieldOf({
      fields: {
        secret: field("text", { readable: false }),
        mail: field("email"),
      },
    }),
    "mail",
  );
  assert.equal(displayFieldOf({ fields: { score: field("integer") } }), null);
});

Deno.test("defineCollection refuses malformed presentation options", () => {
  const fields = { title: field("text") };
  const refusals: [Record<string, unknown>, RegExp][] = [
    [{ label: "" }, /"label" on the collection must be a non-empty string/],
    [{ description: 5 }, /"description"/],
    [{ displayField: "nope" }, /"displayField" names unknown field "nope"/],
    [{ listFields: ["title", "title"] }, /distinct/],
    [{ listFields: ["nope"] }, /"listFields" names unknown field "nope"/],
    [{ defaultOrder: [] }, /one to eight/],
    [{ defaultOrder: ["-nope"] }, /"defaultOrder" names unknown field "-nope"/],
  ];
  for (const [options, message] of refusals) {
    assert.throws(
      () => defineCollection({ fields, ...options }),
      message,
      JSON.stringify(options),
    );
  }
  const fieldRefusals: [Record<string, unknown>, RegExp][] = [
    [{ label: " " }, /"label" on field "title" must be a non-empty string/],
    [{ placeholder: "x".repeat(501) }, /at most 500 characters/],
    [{ display: "slider" }, /"display" on field "title" must be one of/],
    [{ hidden: "yes" }, /"hidden" on field "title" must be a boolean/],
  ];
  for (const [options, message] of fieldRefusals) {
    assert.throws(
      () =>
        defineCollection({
          fields: { title: field("text", options as Record<never, never>) },
        }),
      message,
      JSON.stringify(options),
    );
  }
});

Deno.test("a text that is a catalog key is translated, anything else is shown as written", () => {
  const translator = createTranslator({
    en: { "posts.label": "Posts" },
    de: { "posts.label": "Beiträge" },
  }, "en");
  assert.equal(
    literalOrMessage(translator, "posts.label", ["de-AT"]),
    "Beiträge",
  );
  assert.equal(literalOrMessage(translator, "posts.label", ["fr"]), "Posts");
  assert.equal(literalOrMessage(translator, "posts.label", []), "Posts");
  assert.equal(
    literalOrMessage(translator, "Blog posts", ["de"]),
    "Blog posts",
  );
  assert.equal(
    literalOrMessage(translator, "posts.other", ["de"]),
    "posts.other",
  );
});
