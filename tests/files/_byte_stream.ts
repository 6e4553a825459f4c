// Uploads reach the multipart reader and the storage drivers as byte streams (what
// Deno.serve hands over), which a reader may fill into a buffer of its own (BYOB).

/** Options of {@link byteStreamOf}. */
export interface ByteStreamOptions {
  /** At most this many bytes per read (default: as many as the reader's buffer takes). */
  chunk?: number;
  /** Told the size of each buffer a BYOB reader hands in. */
  onRead?: (viewBytes: number) => void;
  /** Fails a read made without a buffer of the reader's own. */
  byobOnly?: boolean;
  /** Told the reason when the stream is cancelled. */
  onCancel?: (reason: unknown) => void;
}

/** `bytes` as a byte stream: BYOB reads are filled in place, default reads get copies. */
export function byteStreamOf(
  bytes: Uint8Array,
  options: ByteStreamOptions = {},
): ReadableStream<Uint8Array> {
  const chunk = options.chunk ?? Infinity;
  let at = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const request = controller.byobRequest;
      if (at >= bytes.length) {
        controller.close();
        request?.respond(0);
        return;
      }
      const n = Math.min(chunk, bytes.length - at);
      if (!request) {
        if (options.byobOnly) {
          throw new Error("The stream was read without a buffer");
        }
        controller.enqueue(bytes.slice(at, at + n));
        at += n;
        return;
      }
      const view = request.view as Uint8Array;
      options.onRead?.(view.byteLength);
      const take = Math.min(n, view.byteLength);
      view.set(bytes.subarray(at, at + take));
      at += take;
      request.respond(take);
    },
    cancel: (reason) => options.onCancel?.(reason),
  });
}
