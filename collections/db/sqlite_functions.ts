/**
 * The SQL functions Strata registers on every SQLite connection (the main one and each
 * reader thread's), and the statement deadline they enforce.
 *
 * - `lower(text)` folds all of Unicode, as PostgreSQL's does (SQLite's own folds ASCII only).
 * - `strata_contains`, `strata_starts`, `strata_ends` and `strata_like` answer the pattern
 *   operators in linear time where SQLite's `LIKE` takes the product of the value's and the
 *   pattern's lengths, and they stop as soon as a statement's deadline passes.
 * - `strata_deadline()` is 1 while the running statement is within its deadline;
 *   `strata_deadline(n)` counts the call as `n` rows' worth of work (see {@link SAMPLE_ROWS}).
 * - `strata_fold(text)` folds case and accents for the full-text index (search/fold.ts).
 *
 * A function cannot throw to stop a statement (a JavaScript exception inside a node:sqlite
 * function never returns), so a function past the deadline returns {@link STOP_VALUE}: the
 * SQL wraps each call in `abs()`, whose integer overflow on that value aborts the statement
 * with an SQLite error, which {@link runWithDeadline} turns into {@link DeadlineExceeded}.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { foldText } from "../search/fold.ts";

/** Returned by a function past the deadline: `abs()` of it overflows and stops the statement. */
export const STOP_VALUE: bigint = -(2n ** 63n);

/** When the running statement must stop (`performance.now()` time); `Infinity` for never. */
let deadlineAt = Infinity;
/** Whether a function of the running statement returned {@link STOP_VALUE}. */
let stopped = false;
/** Looks at the clock the running statement made, and how many it must make before a stop. */
let checks = 0;
let minChecks = 0;

/** Pattern work between two looks at the clock (characters compared). */
const CLOCK_EVERY = 1 << 14;

/** Thrown by {@link runWithDeadline} when the statement was stopped at its deadline. */
export class DeadlineExceeded extends Error {
  /** Creates the error. */
  constructor() {
    super("The statement ran past its deadline");
    this.name = "DeadlineExceeded";
  }
}

/**
 * How many rows one call of `strata_deadline(SAMPLE_ROWS)` stands for: a term that calls
 * it for one row in that many on average passes it, so a read's work counts alike.
 */
export const SAMPLE_ROWS = 64;

/**
 * The SQL of a deadline check for rows that cost little each: `strata_deadline` is called
 * for one row in {@link SAMPLE_ROWS} on average (`random()` at or below its quantile) and
 * counts for that many. A call from SQLite into JavaScript costs ~0.2 µs, several times a
 * cheap row: a count over an index range spent three quarters of its time there. Chance
 * picks the rows, so no arrangement of data can dodge the checks: the odds of 2,000 rows in
 * a row going unchecked are below 1e-13.
 */
export const SAMPLED_DEADLINE_SQL: string = `(random() > ${
  -(2n ** 63n) + 2n ** 64n / BigInt(SAMPLE_ROWS)
} or abs(strata_deadline(${SAMPLE_ROWS})))`;

function pastDeadline(rows = 1): boolean {
  if (deadlineAt === Infinity || (checks += rows) < minChecks) return false;
  if (performance.now() <= deadlineAt) return false;
  stopped = true;
  return true;
}

/**
 * Runs `fn`, which executes one statement synchronously, with a deadline `ms` from now.
 * The statement's deadline checks and pattern functions stop it once the deadline passes;
 * `fn` then throws {@link DeadlineExceeded}. With `work`, the statement also has to have
 * looked at the clock that many times (rows read, pattern work done) before it stops: a
 * short budget then stops real work, not a statement the machine merely paused.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { registerSqliteFunctions, runWithDeadline } from "./sqlite_functions.ts";
 * const db = new DatabaseSync(":memory:");
 * registerSqliteFunctions(db);
 * runWithDeadline(1000, () => db.prepare("select abs(strata_deadline()) as ok").get());
 * ```
 */
export function runWithDeadline<T>(ms: number, fn: () => T, work = 0): T {
  deadlineAt = performance.now() + ms;
  stopped = false;
  checks = 0;
  minChecks = work;
  try {
    return fn();
  } catch (error) {
    if (stopped) throw new DeadlineExceeded();
    throw error;
  } finally {
    deadlineAt = Infinity;
    stopped = false;
  }
}

type Matched = 0 | 1 | bigint | null;

function verdict(match: boolean | null): Matched {
  if (match === null) return stopped ? STOP_VALUE : null;
  return match ? 1 : 0;
}

/**
 * Whether `text` matches a `LIKE` pattern without an escape character (`%` any run, `_` one
 * character), comparing exactly; `null` when the deadline passed first. Runs in about
 * linear time: each `%`-separated segment is found at its leftmost place after the last.
 *
 * @example
 * ```ts
 * import { matchLike } from "./sqlite_functions.ts";
 * matchLike("hello world", "h_llo%d"); // true
 * ```
 */
export function matchLike(text: string, pattern: string): boolean | null {
  // `_` stands for one character, not one UTF-16 unit: outside the BMP, compare code points.
  const wide = /[\ud800-\udfff]/.test(text) || /[\ud800-\udfff]/.test(pattern);
  const chars: ArrayLike<string> = wide ? Array.from(text) : text;
  const segments = pattern.split("%").map((s) => wide ? Array.from(s) : s);
  if (segments.length === 1) {
    return segments[0].length === chars.length &&
      matchesAt(chars, segments[0], 0);
  }
  const first = segments[0];
  const last = segments[segments.length - 1];
  if (first.length + last.length > chars.length) return false;
  if (!matchesAt(chars, first, 0)) return false;
  let from = first.length;
  const end = chars.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i];
    if (segment.length === 0) continue;
    const at = find(chars, segment, from, end);
    if (at === null) return null;
    if (at < 0) return false;
    from = at + segment.length;
  }
  return from <= end && matchesAt(chars, last, end);
}

function matchesAt(
  chars: ArrayLike<string>,
  segment: ArrayLike<string>,
  at: number,
): boolean {
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] !== "_" && segment[i] !== chars[at + i]) return false;
  }
  return true;
}

/** The leftmost start of `segment` in `chars[from, end)`, -1 if none, null past the deadline. */
function find(
  chars: ArrayLike<string>,
  segment: ArrayLike<string>,
  from: number,
  end: number,
): number | null {
  if (typeof chars === "string" && typeof segment === "string") {
    if (!segment.includes("_")) {
      const at = chars.indexOf(segment, from);
      return at >= 0 && at + segment.length <= end ? at : -1;
    }
  }
  let work = 0;
  for (let at = from; at + segment.length <= end; at++) {
    if (matchesAt(chars, segment, at)) return at;
    work += segment.length;
    if (work >= CLOCK_EVERY) {
      work = 0;
      if (pastDeadline()) return null;
    }
  }
  return -1;
}

function folded(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return String(value).toLowerCase();
}

/**
 * Registers Strata's functions on a SQLite connection.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { registerSqliteFunctions } from "./sqlite_functions.ts";
 * const db = new DatabaseSync(":memory:");
 * registerSqliteFunctions(db);
 * db.prepare("select abs(strata_contains('Café au lait', 'CAFÉ')) as hit").get(); // { hit: 1 }
 * ```
 */
export function registerSqliteFunctions(db: DatabaseSync): void {
  db.function(
    "lower",
    { deterministic: true },
    (value: unknown) =>
      typeof value === "string" ? value.toLowerCase() : value as null,
  );
  db.function(
    "strata_deadline",
    { deterministic: false, varargs: true },
    (rows?: unknown) =>
      pastDeadline(typeof rows === "number" && rows > 1 ? rows : 1)
        ? STOP_VALUE
        : 1,
  );
  // The needle arrives lowercased; the value is folded here, like lower(value) would be.
  const pattern = (
    name: string,
    test: (text: string, needle: string) => boolean | null,
  ) =>
    db.function(name, { deterministic: false }, (value, needle) => {
      if (pastDeadline()) return STOP_VALUE;
      const text = folded(value);
      if (text === null || typeof needle !== "string") return null;
      return verdict(test(text, needle));
    });
  db.function(
    "strata_fold",
    { deterministic: true },
    (value: unknown) =>
      value === null || value === undefined ? null : foldText(String(value)),
  );
  pattern("strata_contains", (text, needle) => text.includes(needle));
  pattern("strata_starts", (text, needle) => text.startsWith(needle));
  pattern("strata_ends", (text, needle) => text.endsWith(needle));
  pattern("strata_like", matchLike);
}
