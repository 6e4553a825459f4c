// update() of several records through the query builder: a file belongs to one record, so
// naming files is refused with a clear code; clearing the field works on every record.
import assert from "node:assert/strict";
import { errorCodes } from "../../collections/results.ts";
import { fileRowCount, filesTest, form, png, send } from "./_helpers.ts";
import type { App } from "../../mod.ts";

async function photo(app: App, title: string) {
  const created = await send(app, "POST", "/collections/photos", {
    body: form([
      { name: "data", json: { title } },
      { name: "image", file: await png(2, 2), filename: "a.png" },
      { name: "gallery", file: await png(2, 2), filename: "g.png" },
    ]),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

filesTest(
  "update() of several records refuses file values with fileOfOneRecord",
  async ({ app }) => {
    const first = await photo(app, "Twin");
    const second = await photo(app, "Twin");
    const twins = () => app.query("Photos").where({ title: "Twin" });
    for (
      const input of [
        { image: first.image.UUID },
        { gallery: [first.gallery[0].UUID] },
      ]
    ) {
      const result = await twins().update(input);
      assert.equal(result.ok, false);
      if (result.ok) continue;
      const [name] = Object.keys(input);
      assert.deepEqual(errorCodes(result.errors), {
        [name]: "fileOfOneRecord",
      });
      assert.equal(
        result.errors[name],
        "A file belongs to one record: set files on one record at a time",
      );
    }
    // Nothing moved.
    const read = await send(app, "GET", `/collections/photos/${second.UUID}`);
    assert.equal(read.body.image.UUID, second.image.UUID);
    // One record at a time keeps working.
    const one = await app.query("Photos").where({ UUID: first.UUID })
      .update({ image: first.image.UUID, gallery: [] });
    assert.equal(one.ok, true);
    // Clearing the field of several records detaches every file.
    const cleared = await twins().update({ image: null, gallery: [] });
    assert.equal(cleared.ok, true);
    assert.equal(await app.files!.sweep(), 4);
    assert.equal(await fileRowCount(app), 0);
  },
);
