/**
 * Helpers over filter objects.
 *
 * @module
 */

import type { WhereFilter } from "./where.ts";

/**
 * ANDs filter objects into one. Disjoint keys merge side by side; a key seen twice nests
 * the later filter under a double `not` (which is the filter itself, null-safe).
 *
 * @example
 * ```ts
 * import { andFilters } from "./filters.ts";
 * andFilters({ views: { atLeast: 1 } }, { title: "x" });
 * // { views: { atLeast: 1 }, title: "x" }
 * ```
 */
export function andFilters(
  ...filters: readonly (WhereFilter | undefined | null)[]
): WhereFilter {
  let result: WhereFilter = {};
  for (const filter of filters) {
    if (!filter) continue;
    const keys = Object.keys(filter).filter((k) => filter[k] !== undefined);
    if (keys.length === 0) continue;
    if (keys.every((k) => !Object.hasOwn(result, k))) {
      result = { ...result, ...filter };
    } else if (!Object.hasOwn(result, "not")) {
      result = { ...result, not: { not: filter } };
    } else {
      result = { or: [result], not: { not: filter } };
    }
  }
  return result;
}
