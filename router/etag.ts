/**
 * Entity tags: a short content hash to tag (and version) an answer with, and the
 * `If-None-Match` comparison.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * A short, URL-safe hash of `text`.
 *
 * @example
 * ```ts
 * import { contentVersion } from "./etag.ts";
 * contentVersion("body { margin: 0 }"); // 16 base64url characters
 * ```
 */
export function contentVersion(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 16);
}

/**
 * Whether an `If-None-Match` header matches `etag`, by the weak comparison
 * RFC 9110 prescribes for it (`W/` prefixes are ignored; `*` matches).
 *
 * @example
 * ```ts
 * import { etagMatches } from "./etag.ts";
 * etagMatches('W/"abc", "def"', '"abc"'); // true
 * etagMatches(null, '"abc"'); // false
 * ```
 */
export function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const own = etag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === own;
  });
}
