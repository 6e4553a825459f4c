// The collections API's registry: entries by path and name, their lazy wire description, the
// translatable field names, and its boot errors.
import assert from "node:assert/strict";
import {
  defineCollection,
  defineLayer,
  defineMiddleware,
  field,
} from "../../mod.ts";
import { apiRegistry } from "../../collections/api/registry.ts";
import { createTestApp } from "../../testing/mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { bootErrorWith } from "../_helpers/boot_error.ts";

Deno.test("the registry holds each collection by path and name, its wire made once", async () => {
  const mark = defineMiddleware(() => {});
  const layer = defineLayer({
    name: "extra",
    middleware: { mark },
    collections: {
      BlogNotes: defineCollection({
        fields: {
          title: field("text", { translatable: true }),
          body: field("text", { translatable: true, nullable: true }),
          kind: field("select", { choices: ["a", "b"], default: "a" }),
        },
        api: { read: { public: true, middleware: ["mark"] } },
      }),
    },
  });
  const app = await createTestApp({
    root: fixturePath("api_app"),
    layers: [layer],
  });
  try {
    const registry = apiRegistry(app);
    assert.equal(apiRegistry(app), registry, "made once per app");
    const notes = registry.byPath.get("blog-notes")!;
    assert.equal(registry.byName.get("BlogNotes"), notes);
    assert.equal(notes.name, "BlogNotes");
    assert.equal(notes.resolved, app.data.collections.get("BlogNotes"));
    assert.ok(Object.isFrozen(notes) && Object.isFrozen(notes.middleware));
    assert.deepEqual(notes.middleware.read, [mark.fn]);
    assert.equal(notes.middleware.create, undefined);
    assert.equal(notes.translatable, true);
    assert.deepEqual([...notes.translatableFields], ["title", "body"]);
    const wire = notes.wire;
    assert.equal(notes.wire, wire, "the wire description is made once");
    assert.ok(Object.isFrozen(wire));
    assert.equal(wire.name, "BlogNotes");
    assert.deepEqual(wire.fields.kind, {
      kind: "select",
      nullable: false,
      readable: true,
      translatable: false,
      target: undefined,
      choices: ["a", "b"],
      search: false,
    });
    const plain = registry.byName.get("Authors")!;
    assert.equal(plain.path, "authors");
    assert.equal(plain.translatable, false);
    assert.equal(plain.translatableFields.size, 0);
  } finally {
    await app.close();
  }
});

Deno.test("the registry refuses middleware no layer defines", async () => {
  assert.equal(
    await bootErrorWith(defineLayer({
      name: "extra",
      collections: {
        Notes: defineCollection({
          fields: { title: field("text") },
          api: { create: { middleware: ["nope"] } },
        }),
      },
    })),
    'Collection Notes: api.create names middleware "nope" that no layer defines',
  );
});
