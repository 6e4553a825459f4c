/**
 * A streaming `multipart/form-data` reader: parts come one at a time, each with a body stream
 * that yields its bytes as they arrive (nothing is buffered whole). A part's body must be
 * read to its end (or cancelled) before the next part is asked for.
 *
 * @module
 */

import { badRequest } from "../router/errors.ts";
import { ByteWindow } from "./_window.ts";

/** One part of a multipart body. */
export interface MultipartPart {
  /** The form field name (`name` of `Content-Disposition`). */
  readonly name: string;
  /** The client's file name, or `null` for a plain field. */
  readonly filename: string | null;
  /** The part's `Content-Type`, or `null`. */
  readonly contentType: string | null;
  /** The part's bytes. */
  readonly body: ReadableStream<Uint8Array>;
}

/** Limits of {@link readMultipart}. */
export interface MultipartLimits {
  /** Most parts (default 100). */
  readonly maxParts?: number;
  /** Largest header block of one part in bytes (default 8 KiB). */
  readonly maxHeaderBytes?: number;
}

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const encoder = new TextEncoder();

function malformed(message: string): Error {
  return badRequest(message, undefined, { messageKey: "errors.badRequest" });
}

/**
 * The boundary of a `multipart/form-data` content type, or `null` when the type is another.
 *
 * @example
 * ```ts
 * import { multipartBoundary } from "./multipart.ts";
 * multipartBoundary('multipart/form-data; boundary="abc"'); // "abc"
 * multipartBoundary("application/json"); // null
 * ```
 */
export function multipartBoundary(contentType: string | null): string | null {
  if (contentType === null) return null;
  const [type, ...params] = contentType.split(";");
  if (type.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1);
    }
    if (value === "" || value.length > 70) break;
    return value;
  }
  throw malformed("The multipart body has no valid boundary");
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last;) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
    i = haystack.indexOf(first, i + 1);
  }
  return -1;
}

/**
 * A search for one delimiter (Boyer-Moore-Horspool): file bytes rarely hold the delimiter's
 * bytes, so most steps skip its whole length instead of stopping at every CR.
 */
function delimiterSearch(
  delimiter: Uint8Array,
): (haystack: Uint8Array) => number {
  const m = delimiter.length;
  const skip = new Uint8Array(256).fill(Math.min(m, 255));
  for (let i = 0; i < m - 1; i++) skip[delimiter[i]] = Math.min(m - 1 - i, 255);
  const last = delimiter[m - 1];
  return (haystack) => {
    for (let end = m - 1; end < haystack.length;) {
      const byte = haystack[end];
      if (byte === last) {
        let j = m - 2;
        while (j >= 0 && haystack[end - (m - 1) + j] === delimiter[j]) j--;
        if (j < 0) return end - (m - 1);
      }
      end += skip[byte];
    }
    return -1;
  };
}

/** The length of the longest end of `buffer` that is the start of `delimiter` (0 if none). */
function delimiterPrefixAtEnd(
  buffer: Uint8Array,
  delimiter: Uint8Array,
): number {
  const first = delimiter[0];
  const from = Math.max(0, buffer.length - delimiter.length + 1);
  for (
    let i = buffer.indexOf(first, from);
    i !== -1;
    i = buffer.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (i + j < buffer.length && buffer[i + j] === delimiter[j]) j++;
    if (i + j === buffer.length) return j;
  }
  return 0;
}

function parseDisposition(
  value: string,
): { name: string; filename: string | null } {
  const [kind, ...rest] = value.split(";");
  if (kind.trim().toLowerCase() !== "form-data") {
    throw malformed("A multipart part is not form-data");
  }
  let name: string | null = null;
  let filename: string | null = null;
  let starred: string | null = null;
  const re = /\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  const text = rest.join(";");
  for (const match of text.matchAll(re)) {
    const key = match[1].toLowerCase();
    let raw = match[2].trim();
    if (raw.startsWith('"')) raw = raw.slice(1, -1).replace(/\\(.)/g, "$1");
    if (key === "name") name = raw;
    else if (key === "filename") filename = raw;
    else if (key === "filename*") {
      const at = raw.indexOf("''");
      try {
        starred = decodeURIComponent(at === -1 ? raw : raw.slice(at + 2));
      } catch {
        throw malformed("A multipart part has a malformed file name");
      }
    }
  }
  if (name === null) throw malformed("A multipart part has no name");
  return { name, filename: starred ?? filename };
}

/** Bytes a part hands a reader that brings no buffer of its own. */
const PART_CHUNK = 64 * 1024;

/** Reads a part's header block (up to its blank line) and consumes it with the blank line. */
async function readHeaderBlock(
  window: ByteWindow,
  maxHeaderBytes: number,
): Promise<string> {
  // A part without headers starts with the blank line itself.
  while (window.length < 2) {
    if (!await window.more()) {
      throw malformed("A multipart part has malformed headers");
    }
  }
  if (
    window.bytes[window.start] === 13 && window.bytes[window.start + 1] === 10
  ) {
    window.start += 2;
    return "";
  }
  let end = indexOf(window.view(), HEADER_END);
  while (end === -1) {
    if (window.length > maxHeaderBytes || !await window.more()) {
      throw malformed("A multipart part has malformed headers");
    }
    end = indexOf(window.view(), HEADER_END);
  }
  const text = new TextDecoder().decode(window.view().subarray(0, end));
  window.start += end + HEADER_END.length;
  return text;
}

/**
 * The body of one part: copies its bytes out of the window up to the delimiter, which it
 * consumes. The window is searched once per read from the body, not once per copy.
 */
class PartReader {
  /** Whether the part's delimiter was reached (and consumed). */
  done = false;
  readonly #window: ByteWindow;
  readonly #delimiter: Uint8Array;
  readonly #find: (haystack: Uint8Array) => number;
  /** Where the delimiter starts in the window, -1 when not in it, or null when not searched. */
  #at: number | null = null;
  /** Up to where the window holds part bytes that can go out. */
  #safe = 0;

  constructor(
    window: ByteWindow,
    delimiter: Uint8Array,
    find: (haystack: Uint8Array) => number,
  ) {
    this.#window = window;
    this.#delimiter = delimiter;
    this.#find = find;
  }

  /** Copies the next bytes into `view` (discards them for `null`); 0 only at the end. */
  async read(view: Uint8Array | null): Promise<number> {
    const window = this.#window;
    while (!this.done) {
      if (this.#at === null) this.#search();
      const available = this.#safe - window.start;
      if (available > 0) {
        const n = view === null
          ? available
          : Math.min(available, view.byteLength);
        view?.set(window.bytes.subarray(window.start, window.start + n));
        window.start += n;
        if (window.start === this.#at) this.#end();
        return n;
      }
      if (this.#at !== null && this.#at !== -1) {
        this.#end();
        return 0;
      }
      if (!await window.more()) {
        throw malformed("The multipart body ends inside a part");
      }
      this.#at = null;
    }
    return 0;
  }

  #search(): void {
    const window = this.#window;
    const view = window.view();
    const at = this.#find(view);
    if (at !== -1) {
      this.#at = window.start + at;
      this.#safe = this.#at;
      return;
    }
    // A tail that could start the delimiter waits for the next bytes.
    this.#at = -1;
    this.#safe = window.end - delimiterPrefixAtEnd(view, this.#delimiter);
  }

  #end(): void {
    this.#window.start = this.#at! + this.#delimiter.length;
    this.done = true;
  }
}

/**
 * Reads the parts of a `multipart/form-data` body one by one (see the module documentation);
 * a malformed body throws a 400 `HTTPError`.
 *
 * @example
 * ```ts
 * import { readMultipart } from "./multipart.ts";
 * const form = new FormData();
 * form.set("data", "{}");
 * const request = new Request("http://x/", { method: "POST", body: form });
 * const boundary = request.headers.get("content-type")!.split("boundary=")[1];
 * for await (const part of readMultipart(request.body!, boundary)) {
 *   console.log(part.name, await new Response(part.body).text()); // data {}
 * }
 * ```
 */
export async function* readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  limits: MultipartLimits = {},
): AsyncGenerator<MultipartPart, void, undefined> {
  const maxParts = limits.maxParts ?? 100;
  const maxHeaderBytes = limits.maxHeaderBytes ?? 8192;
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const findDelimiter = delimiterSearch(delimiter);
  const window = new ByteWindow(body);
  // The body's first delimiter has no CRLF before it: add one so every delimiter looks alike.
  window.bytes.set(CRLF);
  window.end = CRLF.length;
  try {
    // Skip the preamble up to the first delimiter.
    while (true) {
      const at = findDelimiter(window.view());
      if (at !== -1) {
        window.start += at + delimiter.length;
        break;
      }
      if (window.length > delimiter.length) {
        window.start = window.end - delimiter.length;
      }
      if (!await window.more()) {
        throw malformed("The multipart body has no parts");
      }
    }
    for (let count = 0;; count++) {
      while (window.length < 2) {
        if (!await window.more()) {
          throw malformed("The multipart body ends early");
        }
      }
      const { bytes, start } = window;
      if (bytes[start] === 45 && bytes[start + 1] === 45) return; // "--": the closing delimiter
      // Transport padding may follow a delimiter before its CRLF.
      let lineEnd = indexOf(window.view(), CRLF);
      while (lineEnd === -1) {
        if (window.length > 256 || !await window.more()) {
          throw malformed("The multipart body has a malformed delimiter");
        }
        lineEnd = indexOf(window.view(), CRLF);
      }
      if (count >= maxParts) {
        throw malformed("The multipart body has too many parts");
      }
      window.start += lineEnd + 2;
      const headerText = await readHeaderBlock(window, maxHeaderBytes);
      let disposition: string | null = null;
      let contentType: string | null = null;
      for (const line of headerText.split("\r\n")) {
        if (line === "") continue;
        const colon = line.indexOf(":");
        if (colon === -1) {
          throw malformed("A multipart part has a malformed header");
        }
        const key = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (key === "content-disposition") disposition = value;
        else if (key === "content-type") contentType = value;
      }
      if (disposition === null) {
        throw malformed("A multipart part has no Content-Disposition");
      }
      const { name, filename } = parseDisposition(disposition);
      const part = new PartReader(window, delimiter, findDelimiter);
      let failure: unknown = null;
      const partBody: ReadableStream<Uint8Array> = new ReadableStream({
        type: "bytes",
        autoAllocateChunkSize: PART_CHUNK,
        async pull(controller) {
          const request = controller.byobRequest!;
          try {
            const n = await part.read(request.view as Uint8Array);
            if (n > 0) request.respond(n);
            if (part.done) {
              controller.close();
              if (n === 0) request.respond(0);
            }
          } catch (error) {
            failure = error;
            controller.error(error);
          }
        },
      });
      yield { name, filename, contentType, body: partBody };
      if (failure) throw failure;
      // The consumer stopped early (or cancelled): skip the rest of the part.
      while (!part.done) await part.read(null);
    }
  } finally {
    window.release();
  }
}
