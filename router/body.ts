/**
 * Request bodies: buffered under a size limit before the handler runs, parsed as JSON on demand.
 *
 * @module
 */
import {
  badRequest,
  HTTPError,
  payloadTooLarge,
  unsupportedMediaType,
} from "./errors.ts";

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/**
 * One strict decoder for every body: a whole-input `decode` keeps no state from one call to
 * the next (a failed one included), and building a decoder per request cost a third of it.
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads the whole body of `request`, refusing with 413 as soon as it passes `limit` bytes
 * (chunked bodies without Content-Length included). Returns `null` when there is no body.
 *
 * @example
 * ```ts
 * import { readBodyWithLimit } from "./body.ts";
 * const bytes = await readBodyWithLimit(new Request("http://x/", { method: "POST", body: "{}" }), 1024);
 * ```
 */
export async function readBodyWithLimit(
  request: Request,
  limit: number,
): Promise<Uint8Array | null> {
  const declared = request.headers.get("content-length");
  if (declared !== null && !request.bodyUsed) {
    if (Number(declared) > limit) {
      await request.body?.cancel().catch(() => {});
      throw payloadTooLarge();
    }
    // A body of declared length is read whole: the server reads no more than declared (the
    // length is checked again for a request built in process). Not touching `body` first
    // matters: a served request's stream, once made, costs a reader and a read per chunk.
    const bytes = await wholeBody(request);
    if (bytes.byteLength > limit) throw payloadTooLarge();
    return bytes;
  }
  if (request.body === null) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  while (true) {
    const { done, value } = await readBodyChunk(reader);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The whole body of `request`; failing midway, the 400 of {@link readBodyChunk}. */
async function wholeBody(request: Request): Promise<Uint8Array> {
  try {
    return await request.bytes();
  } catch (error) {
    throw incompleteBody(error);
  }
}

/**
 * Reads the next chunk of a request body. A body that fails while it is read is the client's
 * doing (it closed the connection midway), so it is a 400 `HTTPError` (`errors.incompleteBody`,
 * the transport error as its cause), not a server error; an `HTTPError` passes unchanged.
 *
 * @example
 * ```ts
 * import { readBodyChunk } from "./body.ts";
 * const reader = new Request("http://x/", { method: "POST", body: "hi" }).body!.getReader();
 * (await readBodyChunk(reader)).value; // Uint8Array [104, 105]
 * ```
 */
export async function readBodyChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch (error) {
    throw incompleteBody(error);
  }
}

/**
 * Reads the next bytes of a request body into `view` (a byte stream's BYOB read: the answer
 * is a view on `view`'s buffer, which the read took over); failures as {@link readBodyChunk}.
 *
 * @example
 * ```ts
 * import { readBodyInto } from "./body.ts";
 * const reader = new Blob(["hi"]).stream().getReader({ mode: "byob" });
 * const { value } = await readBodyInto(reader, new Uint8Array(8));
 * value?.length; // 2
 * ```
 */
export async function readBodyInto(
  reader: ReadableStreamBYOBReader,
  view: Uint8Array,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read(view);
  } catch (error) {
    throw incompleteBody(error);
  }
}

/** A body that failed while it was read is the client's doing (see {@link readBodyChunk}). */
function incompleteBody(error: unknown): unknown {
  if (error instanceof HTTPError) return error;
  return badRequest(
    "The request body ended before it was complete",
    undefined,
    { cause: error, messageKey: "errors.incompleteBody" },
  );
}

/**
 * Whether a Content-Type header names JSON (`application/json` or any `*+json`).
 *
 * @example
 * ```ts
 * import { isJsonContentType } from "./body.ts";
 * isJsonContentType("application/merge-patch+json; charset=utf-8"); // true
 * ```
 */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semi = contentType.indexOf(";");
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim()
    .toLowerCase();
  return type === "application/json" ||
    (type.startsWith("application/") && type.endsWith("+json"));
}

/** Whether the JSON text nests arrays/objects deeper than `max`; strings are skipped. */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Parses buffered body bytes as JSON: 415 for another content type, 400 for an empty,
 * malformed or too deeply nested body.
 *
 * @example
 * ```ts
 * import { parseJsonBody } from "./body.ts";
 * parseJsonBody(new TextEncoder().encode('{"a":1}'), "application/json"); // { a: 1 }
 * ```
 */
export function parseJsonBody(
  bytes: Uint8Array | null,
  contentType: string | null,
): unknown {
  if (bytes === null || bytes.byteLength === 0) {
    throw badRequest("The request body is empty", undefined, {
      messageKey: "errors.malformedJson",
    });
  }
  if (!isJsonContentType(contentType)) {
    throw unsupportedMediaType("The request body must be JSON", undefined, {
      messageKey: "errors.unsupportedMediaType",
    });
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw badRequest("The request body is not valid UTF-8", undefined, {
      messageKey: "errors.malformedJson",
    });
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw badRequest(
      `The request body nests deeper than ${MAX_JSON_DEPTH} levels`,
      undefined,
      { messageKey: "errors.bodyTooDeep" },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("The request body is not valid JSON", undefined, {
      messageKey: "errors.malformedJson",
    });
  }
}
