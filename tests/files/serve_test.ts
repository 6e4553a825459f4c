// Serving stored files: safe headers, ETag/304, Range/206, HEAD, and private files behind
// expiring signed links.
import assert from "node:assert/strict";
import { filesTest, form, png, send, sha256 } from "./_helpers.ts";
import { contentDisposition, parseRange } from "../../files/serve.ts";

async function upload(
  app: Parameters<typeof send>[0],
  field: string,
  file: Uint8Array | string,
  filename: string,
  type?: string,
) {
  const created = await send(app, "POST", "/collections/photos", {
    body: form([
      { name: "data", json: { title: filename } },
      { name: field, file, filename, type },
    ]),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

filesTest(
  "a public image is served with its safe headers, ETag, 304, Range and HEAD",
  async ({ app }) => {
    const image = await png(64, 48);
    const record = await upload(app, "image", image, "photo 1.png");
    const { url, sha256: hash } = record.image;
    assert.equal(hash, await sha256(image));
    assert.equal(url, `/files/${record.image.UUID}/photo%201.png`);
    const full = await send(app, "GET", url);
    assert.equal(full.status, 200);
    assert.deepEqual(full.bytes, image);
    const h = full.headers;
    assert.equal(h.get("content-type"), "image/png");
    assert.equal(h.get("content-length"), String(image.length));
    assert.equal(h.get("etag"), `"${hash}"`);
    assert.ok(h.get("last-modified"));
    assert.equal(h.get("cache-control"), "public, max-age=31536000, immutable");
    assert.equal(
      h.get("content-disposition"),
      `inline; filename="photo 1.png"; filename*=UTF-8''photo%201.png`,
    );
    assert.equal(h.get("x-content-type-options"), "nosniff");
    assert.equal(
      h.get("content-security-policy"),
      "default-src 'none'; sandbox",
    );

    const notModified = await send(app, "GET", url, {
      headers: { "if-none-match": `"${hash}"` },
    });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.bytes.length, 0);

    const part = await send(app, "GET", url, {
      headers: { range: "bytes=10-19" },
    });
    assert.equal(part.status, 206);
    assert.equal(
      part.headers.get("content-range"),
      `bytes 10-19/${image.length}`,
    );
    assert.equal(part.headers.get("content-length"), "10");
    assert.deepEqual(part.bytes, image.subarray(10, 20));
    const tail = await send(app, "GET", url, {
      headers: { range: "bytes=-5" },
    });
    assert.deepEqual(tail.bytes, image.subarray(image.length - 5));
    const outside = await send(app, "GET", url, {
      headers: { range: `bytes=${image.length}-` },
    });
    assert.equal(outside.status, 416);
    assert.equal(
      outside.headers.get("content-range"),
      `bytes */${image.length}`,
    );

    const head = await send(app, "HEAD", url);
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), String(image.length));
    assert.equal(head.bytes.length, 0);

    const wrongName = await send(
      app,
      "GET",
      `/files/${record.image.UUID}/x.png`,
    );
    assert.equal(wrongName.status, 404);
    const unknown = await send(
      app,
      "GET",
      `/files/${crypto.randomUUID()}/photo%201.png`,
    );
    assert.equal(unknown.status, 404);
    assert.equal((await send(app, "GET", "/files/nope/x")).status, 404);
  },
);

filesTest(
  "uploaded HTML and SVG download as attachments under the sandboxing CSP",
  async ({ app }) => {
    const html = await upload(
      app,
      "attachment",
      "<!doctype html><script>alert(document.cookie)</script>",
      "page.html",
      "text/html",
    );
    assert.equal(html.attachment.type, "text/html");
    const served = await send(app, "GET", html.attachment.url);
    assert.equal(served.status, 200);
    assert.match(served.headers.get("content-disposition")!, /^attachment;/);
    assert.equal(
      served.headers.get("content-security-policy"),
      "default-src 'none'; sandbox",
    );
    assert.equal(served.headers.get("x-content-type-options"), "nosniff");
    const svg = await upload(
      app,
      "attachment",
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      "logo.svg",
    );
    assert.equal(svg.attachment.type, "image/svg+xml");
    const image = await send(app, "GET", svg.attachment.url);
    assert.match(image.headers.get("content-disposition")!, /^attachment;/);
    const text = await upload(app, "attachment", "just words", "notes.txt");
    const plain = await send(app, "GET", text.attachment.url);
    assert.equal(
      plain.headers.get("content-type"),
      "text/plain; charset=utf-8",
    );
    assert.match(plain.headers.get("content-disposition")!, /^inline;/);
  },
);

filesTest(
  "a private file is served only through an unexpired signed link",
  async ({ app, clock }) => {
    const record = await upload(app, "secret", "top secret", "secret.txt");
    const { url, UUID } = record.secret;
    const signed = new URL(url, "http://localhost");
    assert.equal(signed.pathname, `/files/${UUID}/secret.txt`);
    const exp = Number(signed.searchParams.get("exp"));
    assert.ok(exp > clock.now / 1000 && exp <= clock.now / 1000 + 3600);
    const ok = await send(app, "GET", url);
    assert.equal(ok.status, 200);
    assert.equal(new TextDecoder().decode(ok.bytes), "top secret");
    assert.equal(ok.headers.get("cache-control"), "private, no-store");
    const unknown = await send(
      app,
      "GET",
      `/files/${crypto.randomUUID()}/secret.txt`,
    );
    const bare = await send(app, "GET", signed.pathname);
    assert.equal(bare.status, 404);
    assert.deepEqual(bare.body, unknown.body);
    const sig = signed.searchParams.get("sig")!;
    const tampered = `${signed.pathname}?exp=${exp}&sig=${
      sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A")
    }`;
    assert.equal((await send(app, "GET", tampered)).status, 404);
    const longer = `${signed.pathname}?exp=${exp + 3600}&sig=${sig}`;
    assert.equal((await send(app, "GET", longer)).status, 404);
    // The same link after it expired.
    clock.now += 3601 * 1000;
    assert.equal((await send(app, "GET", url)).status, 404);
    // A fresh read hands out a fresh link.
    const reread = await send(app, "GET", `/collections/photos/${record.UUID}`);
    assert.notEqual(reread.body.secret.url, url);
    assert.equal((await send(app, "GET", reread.body.secret.url)).status, 200);
  },
);

Deno.test("Range parsing and Content-Disposition", () => {
  assert.deepEqual(parseRange("bytes=0-0", 10), { start: 0, end: 0 });
  assert.deepEqual(parseRange("bytes=5-", 10), { start: 5, end: 9 });
  assert.deepEqual(parseRange("bytes=5-100", 10), { start: 5, end: 9 });
  assert.equal(parseRange("bytes=0-1,3-4", 10), null);
  assert.equal(parseRange("items=0-1", 10), null);
  assert.equal(parseRange("bytes=9-3", 10), "unsatisfiable");
  assert.equal(parseRange("bytes=-0", 10), "unsatisfiable");
  assert.equal(
    contentDisposition("application/pdf", 'Résumé "final".pdf'),
    `inline; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
  );
});
