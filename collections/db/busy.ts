/**
 * Recognises "the database is busy" failures of both dialects and turns them into a
 * `503 Service Unavailable` with `Retry-After: 1`, so a locked database never answers 500.
 *
 * @module
 */

import { HTTPError } from "../../router/errors.ts";

/** PostgreSQL SQLSTATEs that mean "try again shortly". */
const PG_BUSY_CODES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available (lock_timeout)
]);

/** node:sqlite reports SQLITE_BUSY and SQLITE_LOCKED only through the message. */
const SQLITE_BUSY_MESSAGE =
  /database (?:table |schema )?is locked|database is busy/i;

/**
 * Whether `error` says the database is busy or locked: SQLite's SQLITE_BUSY/SQLITE_LOCKED
 * after `busy_timeout`, or PostgreSQL's lock timeout, serialization failure or deadlock.
 *
 * @example
 * ```ts
 * import { isBusyError } from "./busy.ts";
 * isBusyError(Object.assign(new Error("x"), { code: "55P03" })); // true
 * ```
 */
export function isBusyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && PG_BUSY_CODES.has(code)) return true;
  return code === "ERR_SQLITE_ERROR" && SQLITE_BUSY_MESSAGE.test(error.message);
}

/**
 * The 503 answered for a busy database; the original error is kept as `cause`.
 *
 * @example
 * ```ts
 * import { busyError } from "./busy.ts";
 * const error = busyError(new Error("database is locked"));
 * error.status; // 503
 * ```
 */
export function busyError(cause: unknown): HTTPError {
  return new HTTPError(503, "Service Unavailable", {
    headers: { "Retry-After": "1" },
    cause,
  });
}

/**
 * Returns the 503 {@link HTTPError} for a busy-database error, and any other error unchanged.
 *
 * @example
 * ```ts
 * import { mapBusyError } from "./busy.ts";
 * try {
 *   // … a query
 * } catch (error) {
 *   throw mapBusyError(error);
 * }
 * ```
 */
export function mapBusyError(error: unknown): unknown {
  return isBusyError(error) ? busyError(error) : error;
}
