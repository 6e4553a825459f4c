/**
 * Recognises "the database is busy" failures of both dialects, and "the database cannot be
 * reached" failures of PostgreSQL, and turns them into a `503 Service Unavailable` with
 * `Retry-After: 1`, so a locked, restarting or unreachable database never answers 500.
 *
 * @module
 */

import { HTTPError } from "../../router/errors.ts";
import { queryTimeoutError } from "./deadline.ts";
import { DeadlineExceeded } from "./sqlite_functions.ts";

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
 * Whether `error` (or the cause of a mapped 503) is a PostgreSQL deadlock (`40P01`): the
 * database rolled the transaction back, so it may be run again from the start.
 *
 * @example
 * ```ts
 * import { busyError, isDeadlockError } from "./busy.ts";
 * isDeadlockError(busyError(Object.assign(new Error("x"), { code: "40P01" }))); // true
 * ```
 */
export function isDeadlockError(error: unknown): boolean {
  const cause = error instanceof HTTPError ? error.cause : error;
  return cause instanceof Error &&
    (cause as { code?: unknown }).code === "40P01";
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

/** PostgreSQL SQLSTATEs of a server that is shutting down, starting or full. */
const PG_UNAVAILABLE_CODES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
]);

/** Socket failures reaching the server (Node's system error codes). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** pg reports a lost or timed-out connection only through the message. */
const PG_CONNECTION_MESSAGE =
  /^(?:Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * Whether `error` says the PostgreSQL server cannot be reached right now: refused, reset
 * or timed-out connections, a server shutting down or starting up, or one with no free
 * connection slots (SQLSTATE class 08 too).
 *
 * @example
 * ```ts
 * import { isUnavailableError } from "./busy.ts";
 * isUnavailableError(Object.assign(new Error("x"), { code: "ECONNREFUSED" })); // true
 * ```
 */
export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (PG_UNAVAILABLE_CODES.has(code) || NETWORK_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return PG_CONNECTION_MESSAGE.test(error.message);
}

/**
 * Returns the 503 {@link HTTPError} for a busy or unreachable database or a statement stopped
 * at its deadline (`data.code` `queryTimeout`), and any other error unchanged.
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
  if (isBusyError(error) || isUnavailableError(error)) return busyError(error);
  if (isTimeoutError(error)) return queryTimeoutError(error);
  return error;
}

/** PostgreSQL's query_canceled: `statement_timeout` (or a cancel request) stopped it. */
function isTimeoutError(error: unknown): boolean {
  return error instanceof DeadlineExceeded ||
    (error instanceof Error &&
      (error as { code?: unknown }).code === "57014");
}

/**
 * The error a failed boot reports: a busy database as {@link mapBusyError} does, but an
 * unreachable one as itself (`connect ECONNREFUSED 127.0.0.1:5432` says more to the person
 * starting the app than a 503 would).
 *
 * @example
 * ```ts
 * import { bootError } from "./busy.ts";
 * const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
 * bootError(refused) === refused; // true
 * ```
 */
export function bootError(error: unknown): unknown {
  const cause = error instanceof HTTPError ? error.cause : error;
  return isUnavailableError(cause) ? cause : mapBusyError(error);
}
