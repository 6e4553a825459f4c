// The streaming multipart reader: parts come out whole however the body is cut into chunks
// (a delimiter split across chunks included), and malformed bodies are 400.
import assert from "node:assert/strict";
import { multipartBoundary, readMultipart } from "../../files/multipart.ts";
import { HTTPError } from "../../router/errors.ts";
import {
  claimConflicts,
  imageSize,
  sniffType,
  storedType,
} from "../../files/sniff.ts";

const BOUNDARY = "----strata0123";

function body(parts: { name: string; filename?: string; data: string }[]) {
  let text = "preamble to ignore\r\n";
  for (const part of parts) {
    text +=
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${
        part.filename ? `; filename="${part.filename}"` : ""
      }\r\n\r\n${part.data}\r\n`;
  }
  return new TextEncoder().encode(`${text}--${BOUNDARY}--\r\n`);
}

function chunked(
  bytes: Uint8Array,
  sizes: () => number,
): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = Math.max(1, sizes());
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

async function parts(stream: ReadableStream<Uint8Array>) {
  const out: { name: string; filename: string | null; data: string }[] = [];
  for await (const part of readMultipart(stream, BOUNDARY)) {
    out.push({
      name: part.name,
      filename: part.filename,
      data: await new Response(part.body).text(),
    });
  }
  return out;
}

Deno.test("parts come out whole at every chunk size", async () => {
  // Data that nearly holds the delimiter, to trip a naive search.
  const tricky = `x\r\n--${BOUNDARY.slice(0, -1)}y\r\n-`.repeat(50);
  const given = [
    { name: "data", data: '{"title":"a"}' },
    { name: "file", filename: "a.bin", data: tricky },
    { name: "file", filename: "empty.txt", data: "" },
  ];
  const bytes = body(given);
  const expected = given.map((p) => ({
    name: p.name,
    filename: p.filename ?? null,
    data: p.data,
  }));
  for (const size of [1, 2, 3, 7, 16, 17, 64, 1000, bytes.length]) {
    assert.deepEqual(
      await parts(chunked(bytes, () => size)),
      expected,
      `chunks of ${size}`,
    );
  }
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 16) % 40;
  };
  for (let i = 0; i < 50; i++) {
    assert.deepEqual(await parts(chunked(bytes, random)), expected);
  }
});

/** A byte stream of `bytes` (as `Deno.serve` gives request bodies), at most `most` per read. */
function byteStream(
  bytes: Uint8Array,
  most: () => number,
  seen: { pulls: number; intoBuffer: number },
): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      seen.pulls++;
      const request = controller.byobRequest;
      if (at >= bytes.length) {
        controller.close();
        request?.respond(0);
        return;
      }
      const n = Math.min(Math.max(1, most()), bytes.length - at);
      if (request) {
        seen.intoBuffer++;
        const view = request.view as Uint8Array;
        const take = Math.min(n, view.byteLength);
        view.set(bytes.subarray(at, at + take));
        at += take;
        request.respond(take);
      } else {
        controller.enqueue(bytes.slice(at, at + n));
        at += n;
      }
    },
  });
}

function fileBody(file: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{"a":1}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
  const out = new Uint8Array(head.length + file.length + tail.length);
  out.set(head);
  out.set(file, head.length);
  out.set(tail, head.length + file.length);
  return out;
}

function randomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = 99;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

Deno.test("a byte-stream body is read into one buffer, and a file part into its reader's own", async () => {
  // A chunk allocated per read made a 10 MB upload 160 allocations (V8 then marked the
  // whole heap every few uploads); writes per file followed the body's 64 KiB reads.
  const file = randomBytes(40 * 65536 + 123);
  const seen = { pulls: 0, intoBuffer: 0 };
  const BUFFER = 256 * 1024;
  let reads = 0;
  const got: Uint8Array[] = [];
  for await (
    const part of readMultipart(
      byteStream(fileBody(file), () => 1 << 20, seen),
      BOUNDARY,
    )
  ) {
    if (part.filename === null) {
      assert.equal(await new Response(part.body).text(), '{"a":1}');
      continue;
    }
    const reader = part.body.getReader({ mode: "byob" });
    let buffer = new Uint8Array(BUFFER);
    while (true) {
      const { done, value } = await reader.read(buffer);
      if (done) break;
      reads++;
      // The bytes arrive in the reader's own buffer.
      assert.equal(value.buffer.byteLength, BUFFER);
      got.push(value.slice());
      buffer = new Uint8Array(value.buffer);
    }
  }
  assert.deepEqual(
    new Uint8Array(await new Blob(got as BlobPart[]).arrayBuffer()),
    file,
  );
  // Every read of the body went into the multipart reader's buffer, none allocated a chunk.
  assert.equal(seen.intoBuffer, seen.pulls);
  // The file came out in reads of about the buffer's size, not of 64 KiB.
  assert.ok(reads <= file.length / (128 * 1024), `${reads} reads`);
});

Deno.test("chunks of a byte-stream body's parts stay whole after later reads", async () => {
  // The reader reuses its buffer: what it hands on must never be a view of it.
  const file = randomBytes(300_000);
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return 1 + (seed >>> 16) % 70_000;
  };
  for (let round = 0; round < 5; round++) {
    const out: unknown[] = [];
    for await (
      const part of readMultipart(
        byteStream(fileBody(file), random, { pulls: 0, intoBuffer: 0 }),
        BOUNDARY,
      )
    ) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of part.body) chunks.push(chunk);
      out.push(
        new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer()),
      );
    }
    assert.deepEqual(out, [new TextEncoder().encode('{"a":1}'), file]);
  }
});

Deno.test("a chunk larger than the reader's buffer comes out whole", async () => {
  // A stream that is not a byte stream is copied into the reader's buffer, which grows.
  const file = randomBytes(700_000);
  const body = fileBody(file);
  for (const size of [body.length, 600_000, 300_000]) {
    const out: unknown[] = [];
    for await (
      const part of readMultipart(chunked(body, () => size), BOUNDARY)
    ) {
      out.push(new Uint8Array(await new Response(part.body).arrayBuffer()));
    }
    assert.deepEqual(
      out,
      [new TextEncoder().encode('{"a":1}'), file],
      `${size}`,
    );
  }
});

Deno.test("a part left unread is skipped", async () => {
  const bytes = body([
    { name: "skip", filename: "s.bin", data: "z".repeat(10_000) },
    { name: "data", data: "{}" },
  ]);
  const streams = [
    chunked(bytes, () => 333),
    byteStream(bytes, () => 333, { pulls: 0, intoBuffer: 0 }),
  ];
  for (const stream of streams) {
    const seen: string[] = [];
    for await (const part of readMultipart(stream, BOUNDARY)) {
      if (part.name === "skip") {
        await part.body.cancel();
        seen.push("skip");
      } else seen.push(await new Response(part.body).text());
    }
    assert.deepEqual(seen, ["skip", "{}"]);
  }
});

Deno.test("malformed multipart bodies are 400", async () => {
  const cases = [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end`,
    `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nx\r\n--${BOUNDARY}--`,
    `--${BOUNDARY}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${BOUNDARY}--`,
    "no delimiter at all",
  ];
  for (const text of cases) {
    await assert.rejects(
      parts(chunked(new TextEncoder().encode(text), () => 5)),
      (error: unknown) => error instanceof HTTPError && error.status === 400,
      text,
    );
  }
  const many = body(
    Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, data: "x" })),
  );
  await assert.rejects(
    parts(chunked(many, () => 100)),
    (error: unknown) => error instanceof HTTPError && error.status === 400,
  );
  assert.throws(() => multipartBoundary("multipart/form-data"), HTTPError);
  assert.equal(multipartBoundary("text/plain"), null);
});

Deno.test("sniffing types and image sizes from the first bytes", () => {
  const enc = (text: string) => new TextEncoder().encode(text);
  assert.equal(sniffType(enc("%PDF-1.7\n")), "application/pdf");
  assert.equal(sniffType(enc("<!DOCTYPE html><p>")), "text/html");
  assert.equal(sniffType(enc('  <?xml version="1.0"?><svg>')), "image/svg+xml");
  assert.equal(
    sniffType(new Uint8Array([0, 1, 2, 3])),
    "application/octet-stream",
  );
  assert.equal(sniffType(enc("GIF89a")), "image/gif");
  assert.equal(claimConflicts("text/plain", "data.csv", "text/csv"), false);
  assert.equal(claimConflicts("text/html", "notes.txt", "text/plain"), true);
  assert.equal(
    claimConflicts("application/octet-stream", "a.bin", null),
    false,
  );
  assert.equal(claimConflicts("image/jpeg", "a.png", null), true);
  const docx =
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  assert.equal(claimConflicts("application/zip", "cv.docx", docx), false);
  assert.equal(storedType("application/zip", docx), docx);
  assert.equal(storedType("text/plain", "text/csv"), "text/csv");
  assert.equal(
    storedType("text/plain", "application/javascript"),
    "text/plain",
  );
  assert.equal(storedType("text/plain", "text/html"), "text/plain");
  assert.equal(storedType("application/zip", "text/csv"), "application/zip");
  assert.equal(storedType("image/png", "image/x-png"), "image/png");
  assert.equal(claimConflicts("text/html", "page.htm", "text/html"), false);
  assert.equal(claimConflicts("text/html", "a.csv", "text/csv"), true);
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    4,
    0,
    0, // APP0 of length 4
    0xff,
    0xc0,
    0,
    11,
    8,
    0,
    120,
    0,
    160,
    3,
    0,
    0,
    0, // SOF0: 120 high, 160 wide
  ]);
  assert.deepEqual(imageSize("image/jpeg", jpeg), { width: 160, height: 120 });
});
