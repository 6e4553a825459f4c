// The StorageDriver contract, run against both drivers: `fs` on a temporary folder and `s3`
// against s3rver on loopback.
import assert from "node:assert/strict";
import type { StorageDriver } from "../../files/storage/driver.ts";
import { fsStorage } from "../../files/storage/fs.ts";
import { PART_SIZE, s3Storage } from "../../files/storage/s3.ts";
import { startS3 } from "./_s3.ts";
import { byteStreamOf } from "./_byte_stream.ts";

function bytesOf(size: number, seed = 7): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A stream of `bytes` in chunks of `chunk` bytes. */
function streamOf(
  bytes: Uint8Array,
  chunk = 65536,
): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
}

/** A stream that fails after `size` bytes. */
function failingStream(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.error(new Error("client went away"));
      controller.enqueue(new Uint8Array(65536));
      sent += 65536;
    },
  });
}

/**
 * The same as byte streams (what an upload's part is): a driver may read them into a buffer
 * of its own, at most `chunk` bytes per read.
 */
const byteStreams: Streams = {
  of: (bytes, chunk = 65536) => byteStreamOf(bytes, { chunk }),
  failing(size) {
    let sent = 0;
    return new ReadableStream({
      type: "bytes",
      pull(controller) {
        if (sent >= size) {
          return controller.error(new Error("client went away"));
        }
        controller.enqueue(new Uint8Array(65536));
        sent += 65536;
      },
    });
  },
};

/** How a contract run makes its streams. */
interface Streams {
  of(bytes: Uint8Array, chunk?: number): ReadableStream<Uint8Array>;
  failing(size: number): ReadableStream<Uint8Array>;
}

const chunkStreams: Streams = { of: streamOf, failing: failingStream };

async function read(
  stream: ReadableStream<Uint8Array> | null,
): Promise<Uint8Array> {
  assert.ok(stream);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function contract(
  storage: StorageDriver,
  streams: Streams = chunkStreams,
): Promise<void> {
  const streamOf = streams.of;
  const failingStream = streams.failing;
  const small = bytesOf(1000);
  await storage.put("files/ab/one/original", streamOf(small, 100), {
    type: "application/octet-stream",
  });
  assert.deepEqual(
    await read(await storage.get("files/ab/one/original")),
    small,
  );
  const stat = await storage.stat("files/ab/one/original");
  assert.equal(stat?.size, 1000);
  assert.ok(stat!.modified > 0);
  assert.deepEqual(
    await read(
      await storage.get("files/ab/one/original", { start: 10, end: 19 }),
    ),
    small.subarray(10, 20),
  );
  // Replacing a key.
  const other = bytesOf(500, 3);
  await storage.put("files/ab/one/original", streamOf(other), { type: "x/y" });
  assert.deepEqual(
    await read(await storage.get("files/ab/one/original")),
    other,
  );
  // Missing keys.
  assert.equal(await storage.get("files/ab/missing"), null);
  assert.equal(await storage.stat("files/ab/missing"), null);
  await storage.delete("files/ab/missing");
  // Larger than one part (multipart on S3), ending mid-part.
  const large = bytesOf(PART_SIZE * 2 + 12345, 11);
  await storage.put("files/cd/large/original", streamOf(large), {
    type: "application/octet-stream",
  });
  assert.equal(
    (await storage.stat("files/cd/large/original"))?.size,
    large.length,
  );
  const back = await read(await storage.get("files/cd/large/original"));
  assert.equal(back.length, large.length);
  assert.deepEqual(back, large);
  const middle = await read(
    await storage.get("files/cd/large/original", {
      start: PART_SIZE - 5,
      end: PART_SIZE + 4,
    }),
  );
  assert.deepEqual(middle, large.subarray(PART_SIZE - 5, PART_SIZE + 5));
  // Exactly one part.
  const exact = bytesOf(PART_SIZE, 5);
  await storage.put("files/ef/exact/original", streamOf(exact), {
    type: "a/b",
  });
  assert.deepEqual(
    await read(await storage.get("files/ef/exact/original")),
    exact,
  );
  // A stream that fails leaves nothing under the key (small, and beyond one part).
  for (const size of [65536, PART_SIZE + 65536]) {
    await assert.rejects(
      storage.put(`files/gh/failed${size}/original`, failingStream(size), {
        type: "a/b",
      }),
      /client went away/,
    );
    assert.equal(await storage.stat(`files/gh/failed${size}/original`), null);
  }
  for (
    const key of [
      "files/ab/one/original",
      "files/cd/large/original",
      "files/ef/exact/original",
    ]
  ) {
    await storage.delete(key);
    assert.equal(await storage.stat(key), null);
    assert.equal(await storage.get(key), null);
  }
  await assert.rejects(storage.get("../etc/passwd"), /Invalid storage key/);
}

Deno.test("the fs driver keeps the storage contract", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata_fs_" });
  try {
    await contract(fsStorage(dir));
    await contract(fsStorage(dir), byteStreams);
    // No temporary file survives a failed write.
    const left: string[] = [];
    const walk = async (path: string) => {
      for await (const entry of Deno.readDir(path)) {
        if (entry.isDirectory) await walk(`${path}/${entry.name}`);
        else left.push(entry.name);
      }
    };
    await walk(dir);
    assert.deepEqual(left, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fs driver makes a folder again when it was removed outside Strata", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata_fs_" });
  try {
    const storage = fsStorage(dir);
    await storage.put("files/ab/one", streamOf(bytesOf(10)), { type: "x/y" });
    await Deno.remove(`${dir}/files`, { recursive: true });
    await storage.put("files/ab/two", streamOf(bytesOf(20)), { type: "x/y" });
    assert.deepEqual(
      await read(await storage.get("files/ab/two")),
      bytesOf(20),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "the s3 driver keeps the storage contract (s3rver on loopback)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s3 = await startS3();
    try {
      await contract(s3Storage(s3.storage));
      await contract(s3Storage(s3.storage), byteStreams);
      // A byte stream is read straight into the part's buffer: no chunk allocated per read.
      const bytes = bytesOf(PART_SIZE + 100_000, 13);
      let at = 0;
      const stream = new ReadableStream({
        type: "bytes",
        pull(controller) {
          const request = controller.byobRequest;
          if (!request) throw new Error("The driver read without a buffer");
          if (at >= bytes.length) {
            controller.close();
            request.respond(0);
            return;
          }
          const view = request.view as Uint8Array;
          const take = Math.min(view.byteLength, 300_000, bytes.length - at);
          view.set(bytes.subarray(at, at + take));
          at += take;
          request.respond(take);
        },
      });
      const storage = s3Storage(s3.storage);
      await storage.put("files/ij/byob", stream, { type: "a/b" });
      assert.deepEqual(await read(await storage.get("files/ij/byob")), bytes);
      await storage.delete("files/ij/byob");
      // s3rver checks the access key (it does not recompute SigV4 signatures: those are
      // checked against AWS's published examples in sigv4_test.ts).
      const stranger = s3Storage({ ...s3.storage, accessKeyId: "NOPE" });
      await assert.rejects(
        stranger.put("files/zz/x/original", streamOf(bytesOf(10)), {
          type: "a/b",
        }),
        /S3 PutObject answered 403/,
      );
    } finally {
      await s3.close();
    }
  },
});

Deno.test("the fs driver reads a byte stream into buffers of its own", async () => {
  // A chunk allocated per read is garbage V8 must collect: an upload's part is read into
  // the driver's two buffers (one fills while the other is written), in reads as large.
  const dir = await Deno.makeTempDir({ prefix: "strata_fs_" });
  try {
    const bytes = bytesOf(3 * 1024 * 1024 + 5);
    const views: number[] = [];
    const stream = byteStreamOf(bytes, {
      byobOnly: true,
      onRead: (viewBytes) => views.push(viewBytes),
    });
    await fsStorage(dir).put("files/ab/big", stream, { type: "a/b" });
    assert.deepEqual(await Deno.readFile(`${dir}/files/ab/big`), bytes);
    assert.ok(views.every((size) => size >= 256 * 1024), String(views));
    assert.ok(views.length <= 14, `${views.length} reads`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the fs driver reads an upload's next bytes while it writes the last ones", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata_fs_" });
  const write = Deno.FsFile.prototype.write;
  const held: (() => void)[] = [];
  let writes = 0;
  // Every write waits until the test lets it finish.
  Deno.FsFile.prototype.write = function (this: Deno.FsFile, bytes) {
    writes++;
    const done = write.call(this, bytes);
    return new Promise((resolve) => held.push(() => resolve(done)));
  };
  try {
    const bytes = bytesOf(1024 * 1024);
    let pulls = 0;
    const stream = new ReadableStream({
      type: "bytes",
      pull(controller) {
        pulls++;
        const request = controller.byobRequest!;
        const view = request.view as Uint8Array;
        const at = (pulls - 1) * 65536;
        if (at >= bytes.length) {
          controller.close();
          request.respond(0);
          return;
        }
        view.set(bytes.subarray(at, at + 65536));
        request.respond(65536);
      },
    });
    const put = fsStorage(dir).put("files/ab/overlap", stream, { type: "a/b" });
    const waitFor = async (what: () => boolean) => {
      for (let i = 0; i < 3000 && !what(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(what());
    };
    await waitFor(() => writes === 1);
    // The first write is still under way, and the next bytes are read meanwhile.
    await waitFor(() => pulls >= 2);
    assert.equal(writes, 1);
    let settled = false;
    put.then(() => settled = true, () => settled = true);
    while (!settled) {
      held.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await put;
    assert.deepEqual(await Deno.readFile(`${dir}/files/ab/overlap`), bytes);
  } finally {
    Deno.FsFile.prototype.write = write;
    for (const finish of held.splice(0)) finish();
    await Deno.remove(dir, { recursive: true });
  }
});
