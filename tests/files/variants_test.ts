// Image variants: sharp loaded on first use only, widths limited to the configured set and
// to the original's width, each variant made once and kept in storage.
import assert from "node:assert/strict";
import { filesTest, form, png, send, storedFiles } from "./_helpers.ts";
import { sharpLoaded, variantWidth } from "../../files/variants.ts";
import type { App } from "../../mod.ts";

async function uploadImage(app: App, width: number, height: number) {
  const created = await send(app, "POST", "/collections/photos", {
    body: form([
      { name: "data", json: { title: "Image" } },
      { name: "image", file: await png(width, height), filename: "pic.png" },
    ]),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.image;
}

async function pixelWidth(bytes: Uint8Array): Promise<number> {
  const sharp = (await import("sharp")).default;
  return (await sharp(bytes).metadata()).width!;
}

let firstCase = true;

// Declared first: nothing before it in this module has asked for a variant.
filesTest(
  "sharp loads only when a variant is first asked for; a variant is made once and cached",
  async ({ app, dir }) => {
    const image = await uploadImage(app, 700, 350);
    await send(app, "GET", image.url);
    if (firstCase) {
      // The first case of the module runs in a process that never asked for a variant.
      firstCase = false;
      assert.equal(sharpLoaded(), false);
    }
    const first = await send(app, "GET", `${image.url}?w=300&format=webp`);
    assert.equal(first.status, 200);
    assert.equal(sharpLoaded(), true);
    assert.equal(first.headers.get("content-type"), "image/webp");
    assert.equal(first.headers.get("etag"), `"${image.sha256}-w320.webp"`);
    assert.equal(await pixelWidth(first.bytes), 320);
    const files = await storedFiles(dir);
    assert.equal(files.length, 2);
    assert.ok(files.some((f) => f.endsWith(".w320.webp")));
    const stat = await Deno.stat(
      `${dir}/${files.find((f) => f.endsWith("w320.webp"))}`,
    );
    const again = await send(app, "GET", `${image.url}?w=320&format=webp`);
    assert.deepEqual(again.bytes, first.bytes);
    const restat = await Deno.stat(
      `${dir}/${files.find((f) => f.endsWith("w320.webp"))}`,
    );
    assert.equal(
      restat.mtime?.getTime(),
      stat.mtime?.getTime(),
      "not made again",
    );
    const cached = await send(app, "GET", `${image.url}?w=320&format=webp`, {
      headers: { "if-none-match": `"${image.sha256}-w320.webp"` },
    });
    assert.equal(cached.status, 304);
    // Default format: the original's.
    const png320 = await send(app, "GET", `${image.url}?w=100`);
    assert.equal(png320.headers.get("content-type"), "image/png");
    assert.equal(await pixelWidth(png320.bytes), 128);
    // Above every allowed width and above the original: the original's width.
    const huge = await send(app, "GET", `${image.url}?w=100000&format=jpeg`);
    assert.equal(huge.status, 200);
    assert.equal(await pixelWidth(huge.bytes), 700);
    // Same width and format as the original: the original itself.
    const same = await send(app, "GET", `${image.url}?w=5000`);
    assert.equal(same.headers.get("etag"), `"${image.sha256}"`);
    assert.equal((await storedFiles(dir)).length, 4);
    for (const bad of ["?w=0", "?w=abc", "?format=gif", "?w=1.5"]) {
      assert.equal(
        (await send(app, "GET", `${image.url}${bad}`)).status,
        400,
        bad,
      );
    }
    // Variants go with their file.
    const record = await app.query("Photos").findFirst();
    await app.query("Photos").where({ UUID: record!.UUID }).delete();
    assert.equal(await app.files!.sweep(), 1);
    assert.deepEqual(await storedFiles(dir), []);
  },
);

filesTest(
  "a file that is not a raster image has no variants",
  async ({ app }) => {
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Text" } },
        { name: "attachment", file: "hello", filename: "a.txt" },
      ]),
    });
    const answer = await send(
      app,
      "GET",
      `${created.body.attachment.url}?w=64`,
    );
    assert.equal(answer.status, 400);
  },
);

Deno.test("variant widths round up to the allowed set and never exceed the original", () => {
  const allowed = [64, 128, 256, 320, 640, 960, 1280, 1920];
  assert.equal(variantWidth(1, allowed, 5000), 64);
  assert.equal(variantWidth(64, allowed, 5000), 64);
  assert.equal(variantWidth(65, allowed, 5000), 128);
  assert.equal(variantWidth(1921, allowed, 5000), 1920);
  assert.equal(variantWidth(700, allowed, 700), 700);
  assert.equal(variantWidth(30, allowed, 50), 50);
});
