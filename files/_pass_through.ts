/**
 * A stream that lets hooks see each chunk on its way, for metering an upload while it is
 * stored. One pull-through stream, not a piped `TransformStream` (two queues and a pipe loop
 * per chunk). A byte stream stays one: a reader that brings its own buffer has the source
 * read straight into it, so no chunk is allocated on the way.
 *
 * @module
 */

/** What {@link passThrough} calls: per chunk before it goes on, and once at the end. */
export interface PassThroughHooks {
  /** Sees a chunk; throwing errors the stream and cancels the source. */
  chunk(chunk: Uint8Array): void;
  /** Runs at the source's end, before the stream closes; throwing errors it. */
  end(): void;
}

/** Bytes per chunk for a reader that brings no buffer of its own. */
const CHUNK = 64 * 1024;

/**
 * `source` with `hooks` seeing each chunk on its way (see the module documentation).
 *
 * @example
 * ```ts
 * import { passThrough } from "./_pass_through.ts";
 * let size = 0;
 * const stream = passThrough(new Blob(["hello"]).stream(), {
 *   chunk: (chunk) => size += chunk.byteLength,
 *   end: () => {},
 * });
 * await new Response(stream).text(); // "hello"
 * size; // 5
 * ```
 */
export function passThrough(
  source: ReadableStream<Uint8Array>,
  hooks: PassThroughHooks,
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = source.getReader({ mode: "byob" });
  } catch {
    return chunkPassThrough(source, hooks);
  }
  return new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: CHUNK,
    async pull(controller) {
      const request = controller.byobRequest!;
      const view = request.view!;
      // The source reads into the consumer's buffer and hands it back with the bytes.
      const { done, value } = await reader.read(
        new Uint8Array(view.buffer, view.byteOffset, view.byteLength),
      );
      await tellHooks(hooks, reader, done ? undefined : value);
      if (done) controller.close();
      if (value) request.respondWithNewView(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** {@link passThrough} of a stream that is not a byte stream. */
function chunkPassThrough(
  source: ReadableStream<Uint8Array>,
  hooks: PassThroughHooks,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      await tellHooks(hooks, reader, done ? undefined : value);
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/**
 * Hands the hooks a read's bytes, or the end when there are none; a hook that throws cancels
 * the source and fails the stream with its error.
 */
async function tellHooks(
  hooks: PassThroughHooks,
  reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>,
  bytes: Uint8Array | undefined,
): Promise<void> {
  try {
    if (bytes === undefined) hooks.end();
    else hooks.chunk(bytes);
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  }
}
