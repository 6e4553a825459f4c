/**
 * The `fs` storage driver: one file per key under a folder. A file is written to a temporary
 * name beside its key, fsync'd, then renamed (and the folder fsync'd), so a crash never leaves
 * a half-written file under the real key and a file once stored stays. A folder is made (and
 * its entry fsync'd in its parent) the first time a file goes into it.
 *
 * @module
 */

import { dirname, join } from "node:path";
import {
  assertStorageKey,
  type ByteRange,
  type StorageDriver,
  type StorageStat,
} from "./driver.ts";

const CHUNK = 64 * 1024;

async function syncFolder(path: string): Promise<void> {
  try {
    const folder = await Deno.open(path, { read: true });
    try {
      await folder.sync();
    } finally {
      folder.close();
    }
  } catch {
    // Some platforms cannot fsync a folder; the rename itself is still atomic.
  }
}

/** Bytes a byte stream is read in, into one of two buffers per file. */
const WRITE_BUFFER = 256 * 1024;

/**
 * Reads `stream` into two buffers in turn when it is a byte stream (no chunk allocated per
 * read, writes as large as the source gives; one buffer fills while the other is written),
 * else chunk by chunk.
 */
function bufferedReader(stream: ReadableStream<Uint8Array>): {
  reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
} {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    const reader = stream.getReader();
    return { reader, read: () => reader.read() };
  }
  const buffers = [new Uint8Array(WRITE_BUFFER), new Uint8Array(WRITE_BUFFER)];
  let next = 0;
  return {
    reader: byob,
    async read() {
      const at = next;
      next ^= 1;
      const result = await byob.read(buffers[at]);
      // The read took the buffer over and hands it back with the bytes read.
      if (result.value) buffers[at] = new Uint8Array(result.value.buffer);
      return result;
    },
  };
}

/** Writes all of `bytes` to `file`. */
async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) {
    offset += await file.write(bytes.subarray(offset));
  }
}

/**
 * Writes `stream` to `file`, reading its next bytes while the last ones are written (the
 * write runs on another thread). Settles only once no write is under way.
 */
async function writeStream(
  file: Deno.FsFile,
  read: () => Promise<ReadableStreamReadResult<Uint8Array>>,
): Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  try {
    while (true) {
      const { done, value } = await read();
      await writing;
      if (done) return;
      writing = writeAll(file, value);
      // A failed write is thrown by the next await of it, not reported unhandled meanwhile.
      writing.catch(() => {});
    }
  } catch (error) {
    await writing.catch(() => {});
    throw error;
  }
}

/** A stream of `length` bytes of `file` from its current position; closes the file. */
function rangeStream(
  file: Deno.FsFile,
  length: number,
): ReadableStream<Uint8Array> {
  let left = length;
  let closed = false;
  const close = () => {
    if (!closed) {
      closed = true;
      file.close();
    }
  };
  return new ReadableStream<Uint8Array>({
    type: "bytes",
    async pull(controller) {
      if (left <= 0) {
        close();
        controller.close();
        return;
      }
      const buffer = new Uint8Array(Math.min(CHUNK, left));
      const n = await file.read(buffer);
      if (n === null) {
        close();
        controller.close();
        return;
      }
      left -= n;
      controller.enqueue(buffer.subarray(0, n));
    },
    cancel: close,
  });
}

/**
 * A storage driver writing under the folder `dir` (created when missing).
 *
 * @example
 * ```ts
 * import { fsStorage } from "./fs.ts";
 * const dir = await Deno.makeTempDir();
 * const storage = fsStorage(dir);
 * await storage.put("a/b.txt", new Blob(["hi"]).stream(), { type: "text/plain" });
 * (await storage.stat("a/b.txt"))?.size; // 2
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function fsStorage(dir: string): StorageDriver {
  const pathOf = (key: string): string => {
    assertStorageKey(key);
    return join(dir, ...key.split("/"));
  };
  // Folders this driver made durable: a new folder's entry in its parent is fsync'd once, and
  // the next file put in it skips the mkdir.
  const ready = new Set<string>();
  const prepare = async (folder: string): Promise<void> => {
    if (ready.has(folder)) return;
    await Deno.mkdir(folder, { recursive: true });
    for (let at = folder; at.length > dir.length && at !== dirname(at);) {
      at = dirname(at);
      await syncFolder(at);
    }
    ready.add(folder);
  };
  return {
    async put(key, stream) {
      const path = pathOf(key);
      const folder = dirname(path);
      await prepare(folder);
      const temp = `${path}.${crypto.randomUUID()}.tmp`;
      const options = { write: true, create: true, truncate: true };
      const file = await Deno.open(temp, options).catch(async (error) => {
        // The folder went away since it was made (removed outside Strata): make it again.
        if (!(error instanceof Deno.errors.NotFound)) throw error;
        ready.delete(folder);
        await prepare(folder);
        return await Deno.open(temp, options);
      });
      let open = true;
      const { reader, read } = bufferedReader(stream);
      try {
        await writeStream(file, read);
        await file.syncData();
        file.close();
        open = false;
        await Deno.rename(temp, path);
        await syncFolder(folder);
      } catch (error) {
        if (open) file.close();
        await Deno.remove(temp).catch(() => {});
        await reader.cancel(error).catch(() => {});
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      let file: Deno.FsFile;
      try {
        file = await Deno.open(pathOf(key), { read: true });
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return null;
        throw error;
      }
      if (!range) return file.readable;
      await file.seek(range.start, Deno.SeekMode.Start);
      return rangeStream(file, range.end - range.start + 1);
    },
    async delete(key) {
      await Deno.remove(pathOf(key)).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    },
    async stat(key): Promise<StorageStat | null> {
      try {
        const info = await Deno.stat(pathOf(key));
        return {
          size: info.size,
          modified: info.mtime?.getTime() ?? 0,
        };
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return null;
        throw error;
      }
    },
  };
}
