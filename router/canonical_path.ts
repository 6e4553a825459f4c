/**
 * The canonical form of a request path, the only form the route matcher sees.
 *
 * @module
 */

import { escapedByteAt, isUnreserved, PERCENT_ESCAPES } from "./_percent.ts";

const SLASH = 0x2f;
const BACKSLASH = 0x5c;

/**
 * Brings a request path into canonical form so that every spelling of the
 * same path matches the same route:
 *
 * - escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded
 *   (`/%70ublic` → `/public`);
 * - every other escape gets upper-case hex (`%c3%a9` → `%C3%A9`);
 * - a `%` that does not start an escape becomes `%25`, so that every `%` in
 *   a canonical path starts exactly one escape.
 *
 * Returns `null` when the path holds an encoded slash (`%2F`) or backslash
 * (`%5C`): such a path cannot be split into segments without guessing, and the
 * caller answers a plain 404 without running middleware.
 *
 * The input is `new URL(request.url).pathname`, which the URL parser has
 * already percent-encoded and freed of dot segments. A path without `%`
 * (the common case) is returned as is, without allocating.
 *
 * @param pathname The request path as the URL parser produced it.
 * @returns The canonical path, or `null` for an encoded slash or backslash.
 *
 * @example Decoding unreserved escapes, normalising the rest
 * ```ts
 * import { canonicalizePath } from "./canonical_path.ts";
 *
 * canonicalizePath("/%70ublic/caf%c3%a9"); // "/public/caf%C3%A9"
 * canonicalizePath("/files/a%2Fb"); // null
 * canonicalizePath("/posts/42"); // "/posts/42", the same string
 * ```
 */
export function canonicalizePath(pathname: string): string | null {
  let index = pathname.indexOf("%");
  if (index === -1) return pathname;
  let out = "";
  let copied = 0;
  do {
    const byte = escapedByteAt(pathname, index);
    let replacement: string;
    let length = 3;
    if (byte === -1) {
      replacement = "%25";
      length = 1;
    } else if (byte === SLASH || byte === BACKSLASH) {
      return null;
    } else if (isUnreserved(byte)) {
      replacement = String.fromCharCode(byte);
    } else {
      replacement = PERCENT_ESCAPES[byte];
      if (
        pathname.charCodeAt(index + 1) === replacement.charCodeAt(1) &&
        pathname.charCodeAt(index + 2) === replacement.charCodeAt(2)
      ) {
        // Already canonical: leave it in the untouched run.
        index = pathname.indexOf("%", index + 3);
        continue;
      }
    }
    out += pathname.slice(copied, index) + replacement;
    copied = index + length;
    index = pathname.indexOf("%", copied);
  } while (index !== -1);
  return copied === 0 ? pathname : out + pathname.slice(copied);
}
