/**
 * Turns what a handler returned into a Response (SPEC.md "Handler result mapping").
 *
 * @module
 */
import { HTTPError } from "./errors.ts";

const JSON_TYPE = "application/json";
const HTML_TYPE = "text/html; charset=utf-8";
const BINARY_TYPE = "application/octet-stream";
/** The headers of a JSON answer with no others (shared, frozen). */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": JSON_TYPE,
});

/** Whether an object result is sent as JSON (not a body type sent as bytes). */
function isJsonValue(result: object): boolean {
  // Plain records and arrays, the usual results, skip the body-type checks.
  const kind = Object.getPrototypeOf(result);
  if (kind === Object.prototype || kind === Array.prototype || kind === null) {
    return true;
  }
  return !(
    result instanceof ReadableStream || result instanceof Uint8Array ||
    result instanceof ArrayBuffer || result instanceof Blob
  );
}

/** The response-side state a request built up before its result was known. */
export interface ResponseState {
  /** Headers set during the request (by middleware or the handler), if any were. */
  readonly headers: Headers | undefined;
  /** The status set during the request, if any. */
  readonly status: number | undefined;
}

/**
 * Copies the headers set during the request beneath `target`: a header already on `target`
 * wins, except `Set-Cookie` whose values accumulate.
 */
function mergeHeadersBeneath(
  target: Headers,
  beneath: Headers | undefined,
): void {
  if (beneath === undefined) return;
  for (const [name, value] of beneath) {
    if (name === "set-cookie") continue;
    if (!target.has(name)) target.set(name, value);
  }
  const cookies = beneath.getSetCookie();
  if (cookies.length > 0) {
    const own = new Set(target.getSetCookie());
    for (const cookie of cookies) {
      if (!own.has(cookie)) target.append("set-cookie", cookie);
    }
  }
}

function withHeaders(
  body: BodyInit | null,
  status: number,
  headers: Headers,
  contentType: string | undefined,
): Response {
  if (contentType && !headers.has("content-type")) {
    headers.set("content-type", contentType);
  }
  return new Response(body, { status, headers });
}

/**
 * The response for an error: its status, the wire error shape, the error's headers over the
 * headers set during the request.
 *
 * @example
 * ```ts
 * import { errorResponse } from "./result.ts";
 * import { notFound } from "./errors.ts";
 * const response = errorResponse(notFound(), { headers: new Headers(), status: undefined });
 * ```
 */
export function errorResponse(
  error: HTTPError,
  state: ResponseState,
): Response {
  const headers = new Headers(error.headers);
  mergeHeadersBeneath(headers, state.headers);
  headers.set("content-type", JSON_TYPE);
  return new Response(JSON.stringify(error.toJSON()), {
    status: error.status,
    headers,
  });
}

/**
 * Maps a handler result to a Response.
 *
 * @example
 * ```ts
 * import { resultToResponse } from "./result.ts";
 * const response = resultToResponse({ ok: true }, { headers: new Headers(), status: undefined });
 * ```
 */
export function resultToResponse(
  result: unknown,
  state: ResponseState,
): Response {
  if (result instanceof Response) {
    const headers = new Headers(result.headers);
    mergeHeadersBeneath(headers, state.headers);
    return new Response(result.body, {
      status: result.status,
      statusText: result.statusText,
      headers,
    });
  }
  if (result instanceof HTTPError) return errorResponse(result, state);
  if (state.headers === undefined) {
    // Nothing was set during the request: a header record literal is far cheaper than a
    // Headers object filled in afterwards.
    if (result === null || result === undefined) {
      return new Response(null, { status: state.status ?? 204 });
    }
    if (typeof result === "object" && isJsonValue(result)) {
      return new Response(JSON.stringify(result), {
        status: state.status ?? 200,
        headers: JSON_HEADERS,
      });
    }
  }
  const headers = new Headers(state.headers);
  if (result === null || result === undefined) {
    return new Response(null, { status: state.status ?? 204, headers });
  }
  const status = state.status ?? 200;
  if (typeof result === "string") {
    return withHeaders(result, status, headers, HTML_TYPE);
  }
  if (
    result instanceof ReadableStream || result instanceof Uint8Array ||
    result instanceof ArrayBuffer || result instanceof Blob
  ) {
    return withHeaders(result as BodyInit, status, headers, BINARY_TYPE);
  }
  return withHeaders(JSON.stringify(result), status, headers, JSON_TYPE);
}
