// A JPEG whose frame header (SOF) comes after more than the first 256 KB — large metadata
// segments first — still gets its size, and a bomb of that shape is still refused.
import assert from "node:assert/strict";
import { JpegSizeScanner } from "../../files/sniff.ts";
import {
  fileRowCount,
  filesTest,
  form,
  send,
  storedFiles,
} from "./_helpers.ts";

/** A real JPEG made by sharp, with `segments` APP15 segments of 64 KB each put before SOF. */
async function jpegWithLargeApp(
  width: number,
  height: number,
  segments: number,
): Promise<Uint8Array> {
  const sharp = (await import("sharp")).default;
  const encoded = new Uint8Array(
    await sharp({
      create: { width, height, channels: 3, background: "#3a7" },
    }).jpeg().toBuffer(),
  );
  const payload = 65_533;
  const app = new Uint8Array(segments * (payload + 4));
  for (let i = 0; i < segments; i++) {
    const at = i * (payload + 4);
    app.set([0xff, 0xef, 0xff, 0xff], at);
    // Bytes that hold FF and marker-like values, as compressed metadata does.
    for (let j = 0; j < payload; j++) app[at + 4 + j] = (j * 7919) & 0xff;
  }
  const out = new Uint8Array(encoded.length + app.length);
  out.set(encoded.subarray(0, 2));
  out.set(app, 2);
  out.set(encoded.subarray(2), 2 + app.length);
  return out;
}

Deno.test("the JPEG scanner finds SOF past the first 256 KB, fed in any chunks", async () => {
  const bytes = await jpegWithLargeApp(300, 200, 6);
  const sharp = (await import("sharp")).default;
  // Still a JPEG every decoder reads.
  assert.equal((await sharp(bytes).metadata()).width, 300);
  const sof = bytes.findIndex((b, i) => b === 0xff && bytes[i + 1] === 0xc0);
  assert.ok(sof > 256 * 1024, `SOF at ${sof}`);
  for (const size of [1, 7, 4096, 65_536, bytes.length]) {
    const scanner = new JpegSizeScanner();
    for (let at = 0; at < bytes.length && !scanner.done; at += size) {
      scanner.feed(bytes.subarray(at, at + size));
    }
    assert.deepEqual(
      scanner.size,
      { width: 300, height: 200 },
      `chunks of ${size}`,
    );
  }
  const notJpeg = new JpegSizeScanner();
  notJpeg.feed(new TextEncoder().encode("<html>"));
  assert.equal(notJpeg.done, true);
  assert.equal(notJpeg.size, null);
});

filesTest(
  "an uploaded JPEG with its frame header after 256 KB of metadata gets its size",
  async ({ app }) => {
    const bytes = await jpegWithLargeApp(300, 200, 6);
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Late SOF" } },
        { name: "image", file: bytes, filename: "late.jpg" },
      ]),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.image.type, "image/jpeg");
    assert.equal(created.body.image.width, 300);
    assert.equal(created.body.image.height, 200);
    // The bytes stored are the bytes sent.
    const served = await send(app, "GET", created.body.image.url);
    assert.deepEqual(served.bytes, bytes);
  },
  {},
  { s3: true },
);

filesTest(
  "a JPEG over maxImagePixels is refused however late its frame header comes",
  async ({ app, dir }) => {
    const bytes = await jpegWithLargeApp(300, 200, 6);
    const created = await send(app, "POST", "/collections/photos", {
      body: form([
        { name: "data", json: { title: "Bomb" } },
        { name: "image", file: bytes, filename: "bomb.jpg" },
      ]),
    });
    assert.equal(created.status, 422, JSON.stringify(created.body));
    assert.equal(created.body.data.codes.image, "imageTooLarge");
    assert.equal(await fileRowCount(app), 0);
    assert.deepEqual(await storedFiles(dir), []);
  },
  { maxImagePixels: 50_000 },
);
