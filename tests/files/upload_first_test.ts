// POST /files (upload first, attach later): who may upload, who may attach what, and the
// sweeper that deletes what nothing holds.
import assert from "node:assert/strict";
import {
  fileRowCount,
  filesTest,
  form,
  png,
  send,
  signedIn,
  storedFiles,
  uploadFirst,
} from "./_helpers.ts";

filesTest(
  "POST /files needs a signed-in user allowed to write the collection",
  async ({ app }) => {
    const image = await png(8, 8);
    const anonymous = await uploadFirst(
      app,
      null,
      "collection=Albums&field=cover",
      image,
    );
    assert.equal(anonymous.status, 401);
    const reader = await signedIn(app, "reader@example.com", []);
    const refused = await uploadFirst(
      app,
      reader,
      "collection=Albums&field=cover",
      image,
    );
    const unknownCollection = await uploadFirst(
      app,
      reader,
      "collection=Nope&field=cover",
      image,
    );
    const unknownField = await uploadFirst(
      app,
      reader,
      "collection=Albums&field=name",
      image,
    );
    for (const answer of [refused, unknownCollection, unknownField]) {
      assert.equal(answer.status, 404);
      assert.deepEqual(answer.body, unknownCollection.body);
    }
    const editor = await signedIn(app, "editor@example.com", ["editor"]);
    const created = await uploadFirst(
      app,
      editor,
      "collection=Albums&field=cover",
      image,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.type, "image/png");
    assert.equal(created.body.width, 8);
    assert.equal(created.body.url, `/files/${created.body.UUID}/a.png`);
    // Served (public field) while unattached.
    assert.equal((await send(app, "GET", created.body.url)).status, 200);
    const wrongType = await uploadFirst(
      app,
      editor,
      "collection=Albums&field=cover",
      "plain text",
      "a.txt",
    );
    assert.equal(wrongType.status, 422);
    assert.equal(wrongType.body.data.codes.cover, "invalidFileType");
    assert.equal(await fileRowCount(app), 1);
  },
);

filesTest(
  "an upload is attached only by its uploader, to its field, once",
  async ({ app, dir }) => {
    const editor = await signedIn(app, "editor@example.com", ["editor"]);
    const other = await signedIn(app, "other@example.com", ["editor"]);
    const headers = (cookie: string) => ({
      cookie,
      origin: "http://localhost",
    });
    const upload = await uploadFirst(
      app,
      editor,
      "collection=Albums&field=cover",
      await png(4, 4),
    );
    const uuid = upload.body.UUID;
    const byOther = await send(app, "POST", "/collections/albums", {
      json: { name: "Theirs", cover: uuid },
      headers: headers(other),
    });
    assert.equal(byOther.status, 422);
    assert.equal(typeof byOther.body.data.errors.cover, "string");
    const otherField = await send(app, "POST", "/collections/albums", {
      json: { name: "Scans", scans: [uuid] },
      headers: headers(editor),
    });
    assert.equal(otherField.status, 422);
    const unknown = await send(app, "POST", "/collections/albums", {
      json: { name: "Ghost", cover: crypto.randomUUID() },
      headers: headers(editor),
    });
    assert.equal(unknown.status, 422);
    const attached = await send(app, "POST", "/collections/albums", {
      json: { name: "Mine", cover: uuid },
      headers: headers(editor),
    });
    assert.equal(attached.status, 201, JSON.stringify(attached.body));
    assert.equal(attached.body.cover.UUID, uuid);
    const again = await send(app, "POST", "/collections/albums", {
      json: { name: "Twice", cover: uuid },
      headers: headers(editor),
    });
    assert.equal(again.status, 422);
    // Keeping the current value is allowed; so is clearing it.
    const kept = await send(
      app,
      "PATCH",
      `/collections/albums/${attached.body.UUID}`,
      { json: { name: "Renamed", cover: uuid }, headers: headers(editor) },
    );
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal(kept.body.cover.UUID, uuid);
    assert.equal(await app.files!.sweep(), 0);
    const cleared = await send(
      app,
      "PATCH",
      `/collections/albums/${attached.body.UUID}`,
      { json: { cover: null }, headers: headers(editor) },
    );
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.cover, null);
    assert.equal(await app.files!.sweep(), 1);
    assert.equal(await fileRowCount(app), 0);
    assert.deepEqual(await storedFiles(dir), []);
  },
);

filesTest(
  "the sweeper deletes old orphans and the files of deleted records, never a referenced file",
  async ({ app, clock, dir }) => {
    const editor = await signedIn(app, "editor@example.com", ["editor"]);
    const orphan = await uploadFirst(
      app,
      editor,
      "collection=Albums&field=cover",
      await png(2, 2),
    );
    const record = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Kept" } },
        { name: "image", file: await png(3, 3), filename: "kept.png" },
      ]),
    });
    const doomed = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Doomed" } },
        { name: "gallery", file: await png(3, 3), filename: "g1.png" },
        { name: "gallery", file: await png(3, 3), filename: "g2.png" },
      ]),
    });
    assert.equal(await fileRowCount(app), 4);
    // A young orphan stays.
    assert.equal(await app.files!.sweep(), 0);
    clock.now += 86_400_000 + 1000;
    assert.equal(await app.files!.sweep(), 1);
    assert.equal((await send(app, "GET", orphan.body.url)).status, 404);
    const deleted = await send(
      app,
      "DELETE",
      `/collections/photos/${doomed.body.UUID}`,
    );
    assert.equal(deleted.status, 204);
    assert.equal(await app.files!.sweep(), 2);
    assert.equal(await app.files!.sweep(), 0);
    assert.equal(await fileRowCount(app), 1);
    assert.equal((await storedFiles(dir)).length, 1);
    const kept = await send(app, "GET", record.body.image.url);
    assert.equal(kept.status, 200);
  },
);
