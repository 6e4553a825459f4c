// The OpenAPI document of an app with file fields (`file`, `files`) and the file routes: it
// validates with an independent OpenAPI 3.1 validator, and real answers of an upload, a
// create naming the uploaded file and a read of that record validate against their schemas.
import assert from "node:assert/strict";
import { filesTest, png } from "../files/_helpers.ts";
import { ADMIN, ask, install } from "../auth/_helpers.ts";
import {
  assertValidOpenApi,
  documentOf,
  responseValidator,
} from "./_openapi.ts";

filesTest(
  "a document with file fields is valid, and uploads and records holding files answer as described",
  async ({ app }) => {
    const doc = await documentOf(app);
    await assertValidOpenApi(doc);
    const check = responseValidator(doc);
    const create = doc.components.schemas.PhotosCreate as {
      properties: Record<string, unknown>;
    };
    assert.ok("image" in create.properties && "gallery" in create.properties);
    assert.ok(doc.paths["/files"]?.post, "the upload route is described");

    const { cookie } = await install(app, ADMIN);
    const form = new FormData();
    form.set("file", new Blob([await png(3, 3) as BlobPart]), "p.png");
    const uploaded = await ask(app, "/files?collection=Photos&field=image", {
      method: "POST",
      body: form,
      cookie,
    });
    check("/files", "post", uploaded.status, uploaded.body);
    assert.ok(uploaded.status < 300, JSON.stringify(uploaded.body));

    const created = await ask(app, "/collections/photos", {
      json: { title: "t", image: uploaded.body.UUID },
      cookie,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    check("/collections/photos", "post", 201, created.body);
    assert.equal(created.body.image.UUID, uploaded.body.UUID);
    const read = await ask(app, `/collections/photos/${created.body.UUID}`, {
      cookie,
    });
    check("/collections/photos/{uuid}", "get", read.status, read.body);
    // The download's statuses: the bytes, a range, and a wrong name (404, the wire error).
    const download = doc.paths["/files/{uuid}/{name}"].get.responses;
    const url = new URL(uploaded.body.url, "http://localhost");
    const whole = await app.fetch(new Request(url));
    await whole.body?.cancel();
    const part = await app.fetch(
      new Request(url, { headers: { range: "bytes=0-3" } }),
    );
    await part.body?.cancel();
    assert.deepEqual([whole.status, part.status], [200, 206]);
    assert.ok("200" in download && "206" in download);
    const wrong = await ask(app, `/files/${uploaded.body.UUID}/other.png`);
    check("/files/{uuid}/{name}", "get", wrong.status, wrong.body);
    assert.equal(wrong.status, 404);
    const refused = await ask(app, "/collections/photos", {
      json: { title: "t", image: crypto.randomUUID() },
      cookie,
    });
    check("/collections/photos", "post", refused.status, refused.body);
    assert.equal(refused.status, 422);
  },
);
