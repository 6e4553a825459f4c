/**
 * The row window: `limit`/`offset` or `page`/`perPage`, never both.
 *
 * @module
 */

import { wireError } from "./errors.ts";
import type { ListPlan, QueryGuards } from "./types.ts";

/** `perPage` when only `page` is given. */
const DEFAULT_PER_PAGE = 20;

/** The window params as parsed (any JSON value, absent = `undefined`). */
export interface WindowInput {
  /** Row cap of an unpaginated read. */
  limit?: unknown;
  /** Rows to skip in an unpaginated read. */
  offset?: unknown;
  /** 1-based page. */
  page?: unknown;
  /** Rows per page. */
  perPage?: unknown;
}

/** The window part of a list plan. */
export type WindowPlan = Pick<
  ListPlan,
  "limit" | "offset" | "page" | "perPage" | "paginated"
>;

// `limit` and `perPage` are clamped, so any integer will do; `offset` and
// `page` feed arithmetic and must stay exact.
function integer(value: unknown, path: string, min: number, safe: boolean) {
  const ok = safe ? Number.isSafeInteger(value) : Number.isInteger(value);
  if (!ok || (value as number) < min) throw wireError("invalidNumber", path);
  return value as number;
}

/**
 * Validates the window. Without paging params the plan always carries a
 * `limit` (at most `maxLimit`); with either paging param it is paginated
 * (`page` defaults to 1, `perPage` to 20, at most `maxPerPage`).
 *
 * @example
 * ```ts
 * import { parseWindow } from "./_window.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * parseWindow({ page: 2 }, DEFAULT_QUERY_GUARDS);
 * // { paginated: true, page: 2, perPage: 20 }
 * ```
 */
export function parseWindow(
  input: WindowInput,
  guards: QueryGuards,
): WindowPlan {
  const { limit, offset, page, perPage } = input;
  const paged = page !== undefined || perPage !== undefined;
  if (paged && (limit !== undefined || offset !== undefined)) {
    throw wireError(
      "invalidPagination",
      page !== undefined ? "page" : "perPage",
    );
  }
  if (paged) {
    return {
      paginated: true,
      page: page === undefined ? 1 : integer(page, "page", 1, true),
      perPage: Math.min(
        perPage === undefined
          ? DEFAULT_PER_PAGE
          : integer(perPage, "perPage", 1, false),
        guards.maxPerPage,
      ),
    };
  }
  const plan: WindowPlan = {
    paginated: false,
    limit: limit === undefined
      ? guards.maxLimit
      : Math.min(integer(limit, "limit", 0, false), guards.maxLimit),
  };
  if (offset !== undefined) plan.offset = integer(offset, "offset", 0, true);
  return plan;
}
