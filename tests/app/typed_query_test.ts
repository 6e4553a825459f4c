// query(Definition): the builder is found by the definition the collection file exports,
// typed by it (tests/types/query_types.ts), and refused for a definition the app lacks.
import assert from "node:assert/strict";
import { defineCollection, field } from "../../mod.ts";
import { dbAppTest } from "../_helpers/db_apps.ts";
import Owners from "../fixtures/openapi_app/collections/Owners.ts";

dbAppTest(
  "app.query(definition) reads and writes the collection the file defines",
  "openapi_app",
  async ({ app }) => {
    const created = await app.query(Owners).create({ name: "Ada" });
    assert.ok(created.ok);
    const name: string = created.record.name;
    assert.equal(name, "Ada");
    const found = await app.query(Owners).where({ name: { startsWith: "A" } })
      .select("name").findMany();
    assert.deepEqual(found.map((owner) => owner.name), ["Ada"]);
    assert.equal(await app.query("Owners").count(), 1);
  },
);

dbAppTest(
  "a definition that is not one of the app's collections is refused",
  "openapi_app",
  ({ app }) => {
    const Stranger = defineCollection({ fields: { name: field("text") } });
    assert.throws(
      () => app.query(Stranger),
      /not one of the app's collections/,
    );
    return Promise.resolve();
  },
);
