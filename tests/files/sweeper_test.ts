// The sweeper and fields removed from a collection's definition: their files go, a bounded
// batch per sweep, and never one a committed record still holds through another field.
import assert from "node:assert/strict";
import { kyselyOf } from "../../collections/database.ts";
import type { ResolvedCollection } from "../../collections/resolve.ts";
import { type SweepContext, sweepFiles } from "../../files/sweeper.ts";
import { fileRowCount, filesTest, form, png, send } from "./_helpers.ts";
import type { App } from "../../mod.ts";

/** The app's collections as a definition without `Photos.gallery` would resolve them. */
function withoutGallery(app: App): Map<string, ResolvedCollection> {
  const collections = new Map(app.data.collections);
  const photos = collections.get("Photos")!;
  const fields = new Map(photos.fields);
  fields.delete("gallery");
  collections.set("Photos", {
    ...photos,
    fields,
    fieldList: photos.fieldList.filter((field) => field.name !== "gallery"),
  });
  return collections;
}

function sweepContext(app: App, batch?: number): SweepContext {
  return {
    db: kyselyOf(app.db),
    dialect: app.data.dialect,
    storage: app.files!.storage,
    collections: withoutGallery(app),
    now: app.now,
    orphanTtl: app.files!.config.orphanTtl,
    ...(batch === undefined ? {} : { batch }),
  };
}

async function galleryRecord(app: App, count: number) {
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push({
      name: "gallery",
      file: await png(2, 2),
      filename: `g${i}.png`,
    });
  }
  const created = await send(app, "POST", "/collections/photos", {
    body: form([{ name: "data", json: { title: "Album" } }, ...parts]),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

filesTest(
  "the files of a removed field are swept, except one another field still holds",
  async ({ app }) => {
    const record = await galleryRecord(app, 2);
    const [moved, dropped] = record.gallery;
    // The field was renamed by hand: its first file now sits in another field of the record.
    const photos = app.data.collections.get("Photos")!;
    await kyselyOf(app.db).updateTable(photos.table)
      .set({ image: moved.UUID }).where("UUID", "=", record.UUID).execute();
    assert.equal(await sweepFiles(sweepContext(app)), 1);
    assert.equal((await send(app, "GET", dropped.url)).status, 404);
    assert.equal((await send(app, "GET", moved.url)).status, 200);
    // Put back under the field that holds it: later sweeps leave it be.
    const row = await app.files!.row(moved.UUID);
    assert.equal(row?.field, "image");
    assert.equal(row?.state, "attached");
    assert.equal(await sweepFiles(sweepContext(app)), 0);
    assert.equal(await fileRowCount(app), 1);
    const read = await send(app, "GET", `/collections/photos/${record.UUID}`);
    assert.equal(read.body.image.UUID, moved.UUID);
  },
  {},
  { s3: true },
);

filesTest(
  "one sweep deletes a bounded batch of a removed field's files, whatever other fields hold",
  async ({ app }) => {
    const db = kyselyOf(app.db);
    const photos = app.data.collections.get("Photos")!;
    // Many files of a defined field, each held by its record, stored before the removed
    // field's files: a sweep must reach past them.
    const held = [];
    for (let i = 0; i < 30; i++) {
      const uuid = crypto.randomUUID();
      const record = crypto.randomUUID();
      held.push({ uuid, record });
    }
    await db.insertInto(photos.table).values(held.map(({ uuid, record }) => ({
      UUID: record,
      _updatedAt: app.now(),
      title: "Held",
      image: uuid,
      gallery: "[]",
    }))).execute();
    await db.insertInto("_strata_files").values(
      held.map(({ uuid, record }) => ({
        UUID: uuid,
        key: `missing/${uuid}`,
        name: "held.png",
        type: "image/png",
        size: 1,
        sha256: "0".repeat(64),
        private: 0,
        collection: "Photos",
        field: "image",
        record,
        state: "attached",
        createdAt: app.now(),
      })),
    ).execute();
    const record = await galleryRecord(app, 3);
    const second = await galleryRecord(app, 1);
    assert.equal(await fileRowCount(app), 34);
    assert.equal(await sweepFiles(sweepContext(app, 3)), 3);
    assert.equal(await sweepFiles(sweepContext(app, 3)), 1);
    assert.equal(await sweepFiles(sweepContext(app, 3)), 0);
    assert.equal(await fileRowCount(app), 30);
    for (const file of [...record.gallery, ...second.gallery]) {
      assert.equal((await send(app, "GET", file.url)).status, 404);
    }
  },
  {},
  { s3: true },
);
