/**
 * The bytes of a request body the multipart reader has read and not yet consumed, in one
 * buffer it reuses. A byte stream (what `Deno.serve` gives) is read straight into that
 * buffer: a fresh 64 KiB chunk per read cost a 10 MB upload 160 allocations, and the garbage
 * made V8 mark the app's whole heap every few uploads.
 *
 * @module
 */

import { readBodyChunk, readBodyInto } from "../router/body.ts";

/** What one read asks for: reads of ~256 KiB are the cheapest per byte here. */
const CAPACITY = 256 * 1024;

/** A window on a body: `bytes[start, end)` are read and not consumed. */
export class ByteWindow {
  /** The buffer; only `[start, end)` holds unconsumed bytes. */
  bytes: Uint8Array = new Uint8Array(CAPACITY);
  /** First unconsumed byte. */
  start = 0;
  /** End of the bytes read. */
  end = 0;
  #ended = false;
  #byob: ReadableStreamBYOBReader | null = null;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  /** Reads `body` (a byte stream straight into the buffer, any other stream by copying). */
  constructor(body: ReadableStream<Uint8Array>) {
    try {
      this.#byob = body.getReader({ mode: "byob" });
    } catch {
      this.#reader = body.getReader();
    }
  }

  /** Unconsumed bytes. */
  get length(): number {
    return this.end - this.start;
  }

  /** The unconsumed bytes (a view, valid until the next {@link ByteWindow.more}). */
  view(): Uint8Array {
    return this.bytes.subarray(this.start, this.end);
  }

  /** Reads more bytes after the unconsumed ones; `false` at the body's end. */
  async more(): Promise<boolean> {
    if (this.#ended) return false;
    this.#compact();
    if (this.#byob) {
      if (this.end === this.bytes.length) this.#grow(this.bytes.length * 2);
      const { done, value } = await readBodyInto(
        this.#byob,
        new Uint8Array(this.bytes.buffer, this.end),
      );
      if (!value) {
        // A cancelled body keeps the buffer it was given: nothing more comes.
        this.#ended = true;
        this.bytes = new Uint8Array(0);
        this.start = this.end = 0;
        return false;
      }
      // The read took the buffer over and hands it back with the bytes read.
      this.bytes = new Uint8Array(value.buffer);
      if (done) {
        this.#ended = true;
        return false;
      }
      this.end += value.byteLength;
      return true;
    }
    const { done, value } = await readBodyChunk(this.#reader!);
    if (done) {
      this.#ended = true;
      return false;
    }
    if (this.end + value.byteLength > this.bytes.length) {
      this.#grow(Math.max(this.bytes.length * 2, this.end + value.byteLength));
    }
    this.bytes.set(value, this.end);
    this.end += value.byteLength;
    return true;
  }

  /** Gives the body back (reading stopped). */
  release(): void {
    (this.#byob ?? this.#reader)!.releaseLock();
  }

  /** Moves the unconsumed bytes to the front, so a read has the rest of the buffer. */
  #compact(): void {
    if (this.start === 0) return;
    this.bytes.copyWithin(0, this.start, this.end);
    this.end -= this.start;
    this.start = 0;
  }

  #grow(size: number): void {
    const bytes = new Uint8Array(size);
    bytes.set(this.bytes.subarray(0, this.end));
    this.bytes = bytes;
  }
}
