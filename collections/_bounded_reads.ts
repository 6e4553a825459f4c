/**
 * Which SQLite reads may run without the sampled per-row deadline check.
 *
 * Under a query deadline every row a SQLite read looks at passes `SAMPLED_DEADLINE_SQL`
 * (db/sqlite_functions.ts): its `random()` costs more than the row when the row is an index
 * entry, so a page's total over 1,000 entries took three times as long with it. The check
 * exists to stop long statements and to move slow reads off the event loop; a statement
 * that cannot run long needs neither. Both judges below ask first that
 * - the deadline in force is at least {@link MIN_TIMEOUT_MS},
 * - the condition calls no function, reaches no other table and has at most
 *   {@link MAX_TERMS} parameters (a row costs a few comparisons; pattern functions,
 *   `lower()` and subqueries cost more),
 * and they read the plan (`EXPLAIN QUERY PLAN` of the statement without the check, once
 * per SQL whatever the values, again after {@link VERDICT_TTL_MS}):
 * - a count is bounded when its plan is one walk of one covering index (an entry per row of
 *   the table, no table row read, no sort) and the table holds at most
 *   {@link BOUNDED_ROWS} rows (the span of its rowids bounds that; read at most every
 *   {@link SPAN_TTL_MS} ms per collection, two B-tree descents). It walks at most 250,000
 *   entries: ~5 ms here (19 ns an entry, measured over 100,000), within the event loop's
 *   budget for a read before it moves to a reader thread;
 * - a window (`limit`, `offset`) is bounded when its plan walks one index of the table in
 *   the order asked (no sort), with every term of the condition a bound of that walk, so
 *   each row it visits matches and it stops after `limit + offset` rows, at most
 *   {@link MAX_WINDOW} (a translation looked up per row is allowed).
 * Every other statement keeps the check.
 *
 * @module
 */

import type { CompiledQuery } from "kysely";
import { quoteIdentifier } from "./db/quote_identifier.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection } from "./resolve.ts";

/** The most rows a table may hold for a count over it to run unchecked. */
export const BOUNDED_ROWS = 250_000;

/** The most rows (`limit + offset`) a window may visit to run unchecked. */
export const MAX_WINDOW = 2_000;

/** The most parameters (terms, roughly) a bounded statement's condition may have. */
export const MAX_TERMS = 4;

/** Below this deadline every read keeps the check: a bounded one could take a good part of it. */
export const MIN_TIMEOUT_MS = 100;

/** How long a table's rowid span is trusted before it is read again. */
export const SPAN_TTL_MS = 1000;

/**
 * How long a verdict stands: a plan may change under a running app (an `ANALYZE` run by
 * hand, an index made by another process), so each shape is judged again now and then.
 */
export const VERDICT_TTL_MS = 60_000;

/** Statements judged, per collection and SQL (one shape of filter, whatever its values). */
const verdicts = new WeakMap<
  ResolvedCollection,
  Map<string, { bounded: boolean; at: number }>
>();

/** Shapes judged per collection (filters come from requests); all forgotten past it. */
const MAX_VERDICTS = 256;

/** Whether a table's rowid span is within {@link BOUNDED_ROWS}, and when it was read. */
const smallTables = new WeakMap<
  ResolvedCollection,
  { small: boolean; at: number }
>();

/** A function call in SQL: a name right before a parenthesis (`in (…)` has a space). */
const CALL = /[\w"]\(/;

/** A statement a judge looks at. */
export interface ReadToJudge {
  /** The statement compiled without the deadline check. */
  readonly query: CompiledQuery;
  /** The SQL of its condition (empty without one). */
  readonly sql: string;
  /** How many parameters the condition binds. */
  readonly parameters: number;
  /** The deadline in force, in ms (0 for none). */
  readonly timeout: number;
}

/**
 * Whether the count `judged` (of `collection`, compiled without the deadline check) is
 * bounded, per the rules above.
 *
 * @example
 * ```ts ignore
 * const query = countQuery(ctx, posts, "en", unchecked);
 * if (countIsBounded(ctx, posts, { query, sql, parameters: 1, timeout: 10_000 })) {
 *   // run query as it is
 * }
 * ```
 */
export function countIsBounded(
  ctx: LayerContext,
  collection: ResolvedCollection,
  judged: ReadToJudge,
): boolean {
  return judge(ctx, collection, judged, walksOneCoveringIndex) &&
    tableIsSmall(ctx, collection);
}

/**
 * Whether the window `judged` (a read of `collection` with a limit, compiled without the
 * deadline check) is bounded, per the rules above; `rows` is its `limit + offset`.
 *
 * @example
 * ```ts ignore
 * const query = compileRead(ctx, posts, plan, options, unchecked);
 * if (windowIsBounded(ctx, posts, { query, sql, parameters: 1, timeout: 10_000 }, 40)) {
 *   // run query as it is
 * }
 * ```
 */
export function windowIsBounded(
  ctx: LayerContext,
  collection: ResolvedCollection,
  judged: ReadToJudge,
  rows: number,
): boolean {
  return rows <= MAX_WINDOW &&
    judge(
      ctx,
      collection,
      judged,
      (plan) => walksOneIndexInOrder(plan, judged.parameters),
    );
}

function judge(
  ctx: LayerContext,
  collection: ResolvedCollection,
  judged: ReadToJudge,
  planIsBounded: (plan: readonly string[]) => boolean,
): boolean {
  const reader = ctx.reader;
  if (!reader || judged.timeout < MIN_TIMEOUT_MS) return false;
  let judgedShapes = verdicts.get(collection);
  if (!judgedShapes) verdicts.set(collection, judgedShapes = new Map());
  const { query } = judged;
  const now = performance.now();
  const known = judgedShapes.get(query.sql);
  let verdict = known && now - known.at < VERDICT_TTL_MS
    ? known.bounded
    : undefined;
  if (verdict === undefined) {
    if (
      judged.parameters > MAX_TERMS || CALL.test(judged.sql) ||
      /\bselect\b/i.test(judged.sql)
    ) {
      verdict = false;
    } else {
      const plan = reader.readArrays(
        `explain query plan ${query.sql}`,
        query.parameters,
      );
      // The connection is busy with another request's transaction: judge another time.
      if (!plan) return false;
      verdict = planIsBounded(plan.map((row) => String(row[3])));
    }
    if (judgedShapes.size >= MAX_VERDICTS) judgedShapes.clear();
    judgedShapes.set(query.sql, { bounded: verdict, at: now });
  }
  return verdict;
}

/**
 * Whether an `EXPLAIN QUERY PLAN` (its `detail` column, one entry per node) is a single walk
 * of one covering index of the read's table (`m`), searched or scanned.
 *
 * @example
 * ```ts
 * import { walksOneCoveringIndex } from "./_bounded_reads.ts";
 * walksOneCoveringIndex(["SEARCH m USING COVERING INDEX Posts__views_UUID__idx (views>?)"]); // true
 * walksOneCoveringIndex(["SEARCH m USING INDEX Posts__views_UUID__idx (views>?)"]); // false
 * ```
 */
export function walksOneCoveringIndex(plan: readonly string[]): boolean {
  return plan.length === 1 &&
    /^(SEARCH|SCAN) m USING COVERING INDEX \S+( \([^()]*\))?$/.test(plan[0]);
}

/** A walk of one index of `m` (or of `m` itself), and the terms it is bounded by. */
const INDEX_WALK =
  /^(?:(?:SEARCH|SCAN) m USING (?:COVERING )?INDEX \S+(?: \(([^()]*)\))?|SCAN m)$/;

/** The lookup of a record's translation: one row of `t` per row of `m`. */
const TRANSLATION_LOOKUP =
  /^SEARCH t USING (?:COVERING )?INDEX \S+ \(record=\? AND locale=\?\)(?: LEFT-JOIN)?$/;

/**
 * Whether an `EXPLAIN QUERY PLAN` walks one index of the read's table (`m`) in the order
 * asked (no sort), bounded by as many terms as the condition has parameters (`terms`): so
 * every row the walk visits matches, and a limit stops it. A translation looked up per row
 * may join it.
 *
 * @example
 * ```ts
 * import { walksOneIndexInOrder } from "./_bounded_reads.ts";
 * walksOneIndexInOrder(["SEARCH m USING INDEX Posts__views_UUID__idx (views>?)"], 1); // true
 * walksOneIndexInOrder(["SCAN m", "USE TEMP B-TREE FOR ORDER BY"], 0); // false
 * ```
 */
export function walksOneIndexInOrder(
  plan: readonly string[],
  terms: number,
): boolean {
  let walk: RegExpExecArray | null = null;
  for (const node of plan) {
    const found = INDEX_WALK.exec(node);
    if (found && !walk) walk = found;
    else if (!TRANSLATION_LOOKUP.test(node)) return false;
  }
  if (!walk) return false;
  const bounds = walk[1] ?? "";
  return (bounds.match(/\?/g)?.length ?? 0) === terms;
}

/**
 * Whether `collection`'s table holds at most {@link BOUNDED_ROWS} rows: its rowids are
 * distinct integers, so it holds no more rows than the span from the smallest to the largest.
 * An empty table's span is NULL, and small.
 */
function tableIsSmall(
  ctx: LayerContext,
  collection: ResolvedCollection,
): boolean {
  const now = performance.now();
  const known = smallTables.get(collection);
  if (known && now - known.at < SPAN_TTL_MS) return known.small;
  const table = quoteIdentifier(collection.table);
  const found = ctx.reader?.readArrays(
    `select coalesce((select max(rowid) from ${table}) - (select min(rowid) from ${table}) < ?, 1)`,
    [BOUNDED_ROWS],
  );
  if (!found) return false;
  const small = found[0]?.[0] === 1;
  smallTables.set(collection, { small, at: now });
  return small;
}
