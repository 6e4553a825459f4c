// Multipart record writes: files stream to storage, descriptors in every read, sniffing,
// limits, and no file left behind by a write that fails.
import assert from "node:assert/strict";
import {
  fileRowCount,
  filesTest,
  form,
  png,
  send,
  sha256,
  storedFiles,
  ZIP_ENTRY,
} from "./_helpers.ts";

filesTest(
  "a multipart create stores the file and every read describes it",
  async ({ app, dir }) => {
    const image = await png(40, 30);
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Sunset" } },
        {
          name: "image",
          file: image,
          filename: "sunset.png",
          type: "image/png",
        },
      ]),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const descriptor = created.body.image;
    assert.deepEqual(Object.keys(descriptor).sort(), [
      "UUID",
      "height",
      "name",
      "sha256",
      "size",
      "type",
      "url",
      "width",
    ]);
    assert.equal(descriptor.name, "sunset.png");
    assert.equal(descriptor.type, "image/png");
    assert.equal(descriptor.size, image.length);
    assert.equal(descriptor.sha256, await sha256(image));
    assert.equal(descriptor.width, 40);
    assert.equal(descriptor.height, 30);
    assert.equal(descriptor.url, `/files/${descriptor.UUID}/sunset.png`);
    assert.deepEqual(created.body.gallery, []);
    assert.equal(created.body.attachment, null);

    const uuid = created.body.UUID;
    const one = await send(app, "GET", `/collections/photos/${uuid}`);
    assert.deepEqual(one.body.image, descriptor);
    const list = await send(app, "GET", "/collections/photos");
    assert.deepEqual(list.body[0].image, descriptor);
    const query = await send(app, "POST", "/collections/photos/query", {
      json: { select: ["image"] },
    });
    assert.deepEqual(query.body[0].image, descriptor);
    const trusted = await app.query("Photos").findFirst();
    assert.deepEqual(trusted!.image, descriptor);
    assert.equal((await storedFiles(dir)).length, 1);

    const served = await send(app, "GET", descriptor.url);
    assert.equal(served.status, 200);
    assert.deepEqual(served.bytes, image);
  },
);

filesTest(
  "a files field takes its parts in order and keeps the UUIDs data lists",
  async ({ app }) => {
    const [a, b, c] = [await png(2, 2), await png(3, 3), await png(4, 4)];
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "gallery", file: a, filename: "a.png" },
        { name: "data", json: { title: "G" } },
        { name: "gallery", file: b, filename: "b.png" },
      ]),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(
      created.body.gallery.map((f: { name: string }) => f.name),
      [
        "a.png",
        "b.png",
      ],
    );
    const [first, second] = created.body.gallery;
    const updated = await send(
      app,
      "PATCH",
      `/collections/photos/${created.body.UUID}`,
      {
        body: form([
          { name: "data", json: { gallery: [second.UUID] } },
          { name: "gallery", file: c, filename: "c.png" },
        ]),
      },
    );
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(
      updated.body.gallery.map((f: { name: string }) => f.name),
      [
        "b.png",
        "c.png",
      ],
    );
    // The dropped file is detached; the sweeper deletes it.
    assert.equal((await send(app, "GET", first.url)).status, 200);
    assert.equal(await app.files!.sweep(), 1);
    assert.equal((await send(app, "GET", first.url)).status, 404);
    assert.equal((await send(app, "GET", second.url)).status, 200);

    const tooMany = await send(
      app,
      "PATCH",
      `/collections/photos/${created.body.UUID}`,
      {
        body: form([
          { name: "data", json: {} },
          { name: "gallery", file: a, filename: "1.png" },
          { name: "gallery", file: a, filename: "2.png" },
          { name: "gallery", file: a, filename: "3.png" },
          { name: "gallery", file: a, filename: "4.png" },
        ]),
      },
    );
    assert.equal(tooMany.status, 422);
    assert.ok(tooMany.body.data.errors.gallery);
  },
);

filesTest(
  "a file over maxSize answers 413 and keeps nothing",
  async ({ app, dir }) => {
    const big = new Uint8Array(1024 * 1024 + 1);
    big.set(await png(2, 2));
    const answer = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Big" } },
        { name: "image", file: big, filename: "big.png" },
      ]),
    });
    assert.equal(answer.status, 413);
    assert.equal(await fileRowCount(app), 0);
    assert.deepEqual(await storedFiles(dir), []);
    assert.equal(await app.query("Photos").count(), 0);
  },
);

filesTest(
  "a spoofed type and a type outside accept are refused with 422 invalidFileType",
  async ({ app, dir }) => {
    const spoofed = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Zip" } },
        {
          name: "image",
          file: ZIP_ENTRY,
          filename: "photo.png",
          type: "image/png",
        },
      ]),
    });
    assert.equal(spoofed.status, 422);
    assert.equal(spoofed.body.data.codes.image, "invalidFileType");
    assert.equal(typeof spoofed.body.data.errors.image, "string");
    const pdf = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Pdf" } },
        {
          name: "image",
          file: "%PDF-1.4\n%\u00e2\u00e3\n",
          filename: "doc.pdf",
          type: "application/pdf",
        },
      ]),
    });
    assert.equal(pdf.status, 422);
    assert.equal(pdf.body.data.codes.image, "invalidFileType");
    const html = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Html" } },
        {
          name: "attachment",
          file: "<html><script>alert(1)</script></html>",
          filename: "innocent.txt",
          type: "text/plain",
        },
      ]),
    });
    assert.equal(html.status, 422, "HTML claimed as text");
    assert.equal(await fileRowCount(app), 0);
    assert.deepEqual(await storedFiles(dir), []);
  },
);

filesTest(
  "a write refused after its files were stored leaves no file behind",
  async ({ app, dir }) => {
    const answer = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { nope: 1 } },
        { name: "image", file: await png(2, 2), filename: "a.png" },
        { name: "gallery", file: await png(2, 2), filename: "b.png" },
      ]),
    });
    assert.equal(answer.status, 422);
    assert.ok(answer.body.data.errors.title);
    assert.equal(await fileRowCount(app), 0);
    assert.deepEqual(await storedFiles(dir), []);
    const unknown = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "x" } },
        { name: "title", file: "x", filename: "x.txt" },
      ]),
    });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.data.codes.title, "unknownField");
    assert.equal(await fileRowCount(app), 0);
  },
);

filesTest(
  "malformed multipart bodies are 400 and a big data part is 413",
  async ({ app }) => {
    const noEnd = await send(app, "POST", "/collections/photos", {
      body: '--abc\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}',
      headers: { "content-type": "multipart/form-data; boundary=abc" },
    });
    assert.equal(noEnd.status, 400);
    const noBoundary = await send(app, "POST", "/collections/photos", {
      body: "x",
      headers: { "content-type": "multipart/form-data" },
    });
    assert.equal(noBoundary.status, 400);
    const big = await send(app, "POST", "/collections/photos", {
      body: form([{ name: "data", json: { title: "x".repeat(1_100_000) } }]),
    });
    assert.equal(big.status, 413);
    assert.equal(await fileRowCount(app), 0);
  },
);

filesTest(
  "a decompression bomb is refused at upload with 422 imageTooLarge",
  async ({ app, dir }) => {
    const bomb = await png(4, 4, { width: 20_000, height: 20_000 });
    const answer = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Bomb" } },
        { name: "image", file: bomb, filename: "bomb.png" },
      ]),
    });
    assert.equal(answer.status, 422);
    assert.equal(answer.body.data.codes.image, "imageTooLarge");
    assert.deepEqual(await storedFiles(dir), []);
  },
);

filesTest(
  "file metadata filters through has; isNull and empty work",
  async ({ app }) => {
    await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "With" } },
        { name: "image", file: await png(2, 2), filename: "a.png" },
        { name: "gallery", file: await png(5, 5), filename: "g.png" },
      ]),
    });
    await send(app, "POST", "/collections/photos", {
      json: { title: "Without" },
    });
    const titles = async (where: string) => {
      const answer = await send(
        app,
        "GET",
        `/collections/photos?where=${encodeURIComponent(where)}&select=[title]`,
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.map((r: { title: string }) => r.title).sort();
    };
    assert.deepEqual(await titles("{image:{has:{type:{startsWith:image/}}}}"), [
      "With",
    ]);
    assert.deepEqual(await titles("{image:{has:{size:{atLeast:100000}}}}"), []);
    assert.deepEqual(await titles("{gallery:{has:{width:5}}}"), ["With"]);
    assert.deepEqual(await titles("{gallery:{empty:true}}"), ["Without"]);
    assert.deepEqual(await titles("{image:{isNull:true}}"), ["Without"]);
    const bad = await send(
      app,
      "GET",
      `/collections/photos?where=${
        encodeURIComponent("{image:{has:{key:x}}}")
      }`,
    );
    assert.equal(bad.status, 400);
    assert.equal(bad.body.data.code, "invalidField");
  },
);

filesTest(
  "a populated record carries its file descriptors",
  async ({ app }) => {
    const photo = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Cover" } },
        { name: "image", file: await png(5, 5), filename: "cover.png" },
      ]),
    });
    const story = await send(app, "POST", "/collections/stories", {
      json: { cover: photo.body.UUID },
    });
    assert.equal(story.status, 201, JSON.stringify(story.body));
    const read = await send(
      app,
      "GET",
      `/collections/stories/${story.body.UUID}?populate=[cover]`,
    );
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.deepEqual(read.body.cover.image, photo.body.image);
    const trusted = await app.query("Stories").populate("cover").findFirst();
    assert.deepEqual(
      (trusted!.cover as { image: unknown }).image,
      photo.body.image,
    );
  },
);

filesTest(
  "a zip-based document keeps its claimed type; markup never takes one",
  async ({ app }) => {
    const docx =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Doc" } },
        {
          name: "attachment",
          file: ZIP_ENTRY,
          filename: "cv.docx",
          type: docx,
        },
      ]),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.attachment.type, docx);
    const served = await send(app, "GET", created.body.attachment.url);
    assert.equal(served.headers.get("content-type"), docx);
    assert.match(served.headers.get("content-disposition")!, /^attachment;/);
    const script = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Js" } },
        {
          name: "attachment",
          file: "alert(1)",
          filename: "x.js",
          type: "application/javascript",
        },
      ]),
    });
    assert.equal(script.status, 201, JSON.stringify(script.body));
    assert.equal(script.body.attachment.type, "text/plain");
  },
);
