/**
 * `search`: full-text search text. Its value is raw text (a URL value keeps its text; the
 * relaxed literal syntax does not apply), bounded by `maxSearchBytes`, and matched only
 * against the searchable fields the caller may read.
 *
 * @module
 */

import { wireError } from "./errors.ts";
import type { FieldResolver } from "./_fields.ts";
import type { QueryGuards, SearchPlan, WireCollection } from "./types.ts";
import { exceedsUtf8Bytes } from "../_utf8.ts";
import { parseSearch } from "../search/syntax.ts";
import { QueryError } from "../query_error.ts";

export { RELEVANCE } from "../search/condition.ts";

/**
 * Validates `search`: a string within `maxSearchBytes` (else `valueTooLarge`) holding a word
 * to look for (else `invalidValue`), on a collection with a searchable field the caller may
 * read (else `searchNotAvailable`).
 *
 * @example
 * ```ts
 * import { parseSearchParam } from "./_search.ts";
 * import { FieldResolver } from "./_fields.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const posts = {
 *   name: "Posts",
 *   fields: {
 *     body: {
 *       kind: "text" as const,
 *       nullable: false,
 *       readable: true,
 *       translatable: false,
 *       search: true,
 *     },
 *   },
 * };
 * const resolver = new FieldResolver({
 *   collection: posts,
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * });
 * parseSearchParam("deno routes", posts, resolver, DEFAULT_QUERY_GUARDS);
 * // { text: "deno routes", fields: ["body"] }
 * ```
 */
export function parseSearchParam(
  value: unknown,
  collection: WireCollection,
  resolver: FieldResolver,
  guards: QueryGuards,
): SearchPlan {
  if (typeof value !== "string") {
    throw wireError("invalidShape", "search", "Expected a string");
  }
  if (exceedsUtf8Bytes(value, guards.maxSearchBytes)) {
    throw wireError("valueTooLarge", "search");
  }
  const fields = Object.keys(collection.fields).filter((name) =>
    collection.fields[name].search === true &&
    resolver.resolve(collection, name) !== undefined
  );
  if (fields.length === 0) throw wireError("searchNotAvailable", "search");
  try {
    parseSearch(value);
  } catch (error) {
    if (error instanceof QueryError) {
      throw wireError("invalidValue", "search", error.message);
    }
    throw error;
  }
  return { text: value, fields };
}
