/**
 * Query deadlines: how long one statement may run. Queries that arrive over HTTP run under
 * `query.timeout`; trusted code runs without one unless it asks (`withQueryTimeout`). The
 * dialects read the deadline in force where a statement starts: PostgreSQL sets
 * `statement_timeout` on the connection, SQLite stops the statement through its deadline
 * functions (see sqlite_functions.ts). Either way the request answers
 * {@link queryTimeoutError}.
 *
 * @module
 */

import { HTTPError } from "../../router/errors.ts";
import { asyncCarrier } from "../../utils/_async_carrier.ts";

const timeouts = asyncCarrier<number>();

/**
 * Runs `fn` with every statement it starts (in its async context) limited to `ms`
 * milliseconds; `false`, `0` or `Infinity` lift the limit for `fn`.
 *
 * @example
 * ```ts
 * import { withQueryTimeout } from "@strata/strata";
 * await withQueryTimeout(2000, async () => {
 *   // await app.query("Posts").findMany();
 * });
 * ```
 */
export function withQueryTimeout<T>(ms: number | false, fn: () => T): T {
  const limit = ms === false || !Number.isFinite(ms) || ms <= 0
    ? 0
    : Math.ceil(ms);
  return timeouts.run(limit, fn, undefined);
}

/**
 * The statement limit in force here, in milliseconds; 0 when there is none.
 *
 * @example
 * ```ts
 * import { currentQueryTimeout, withQueryTimeout } from "./deadline.ts";
 * withQueryTimeout(500, () => currentQueryTimeout()); // 500
 * ```
 */
export function currentQueryTimeout(): number {
  return timeouts.get() ?? 0;
}

/** The `data.code` of a statement stopped at its deadline. */
export const QUERY_TIMEOUT_CODE = "queryTimeout";

/**
 * The 503 answered when a statement ran past its deadline: `Retry-After: 1` and
 * `data.code` `queryTimeout`; the original error is kept as `cause`.
 *
 * @example
 * ```ts
 * import { queryTimeoutError } from "./deadline.ts";
 * queryTimeoutError().data; // { code: "queryTimeout" }
 * ```
 */
export function queryTimeoutError(cause?: unknown): HTTPError {
  return new HTTPError(503, "The query took too long", {
    data: { code: QUERY_TIMEOUT_CODE },
    headers: { "Retry-After": "1" },
    messageKey: "errors.queryTimeout",
    cause,
  });
}
