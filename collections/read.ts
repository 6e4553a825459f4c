/**
 * Executes reads: the main select (with the translation table joined at the read's
 * locale), then batched loads of `records` lists, `_translations` and populated relations.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import {
  CompiledQuery,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from "kysely";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import type { WhereFilter } from "./where.ts";
import type { DataRecord } from "./results.ts";
import {
  andConditions,
  compileFilter,
  type Condition,
  hookConditions,
  type WhereScope,
} from "./compile_where.ts";
import { andFilters } from "./filters.ts";
import { type ReadPlan, readPlan, type ReadSpec } from "./read_spec.ts";
import { fieldOrThrow, QueryError } from "./query_error.ts";
import { currentQueryTimeout } from "./db/deadline.ts";
import { arrayRows } from "./db/sqlite_dialect.ts";
import { type MaybePromise, thenMaybe } from "../utils/_maybe_promise.ts";
import { SAMPLED_DEADLINE_SQL } from "./db/sqlite_functions.ts";
import { countIsBounded, windowIsBounded } from "./_bounded_reads.ts";
import {
  type CompiledSearch,
  compileSearch,
  RELEVANCE,
  type SearchSpec,
} from "./search/condition.ts";
import { describeFiles } from "./files/descriptors.ts";

/** Everything that shapes a read. */
export interface ReadOptions {
  /** Filters, ANDed. */
  readonly wheres: readonly WhereFilter[];
  /** Order keys (`-views`, `title`). */
  readonly order: readonly string[];
  /** Row limit. */
  readonly limit: number | null;
  /** Rows to skip. */
  readonly offset: number | null;
  /** Locale for translatable fields. */
  readonly locale: string;
  /** Selection and populate. */
  readonly spec: ReadSpec;
  /** Apply the `query:filter` hooks (false only for a write's own answer). */
  readonly hooks: boolean;
  /** A full-text search the rows must match (ordered by relevance unless `order` says). */
  readonly search?: SearchSpec | null;
}

/** The order of a search without one of its own: most relevant first. */
const RELEVANCE_ORDER: readonly string[] = Object.freeze([`-${RELEVANCE}`]);

/** The largest list bound into one `IN (…)`. */
export const CHUNK = 500;

/**
 * Splits `items` into chunks of {@link CHUNK}.
 *
 * @example
 * ```ts ignore
 * chunks(ids).length; // ⌈ids.length / 500⌉
 * ```
 */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) {
    out.push(items.slice(i, i + CHUNK));
  }
  return out;
}

/**
 * The where scope of a top-level read (`m`, translation joined as `t`).
 *
 * @example
 * ```ts ignore
 * const scope = rootScope(ctx, posts, "en");
 * ```
 */
export function rootScope(
  ctx: LayerContext,
  collection: ResolvedCollection,
  locale: string,
): WhereScope {
  return {
    ctx,
    collection,
    alias: "m",
    translationAlias: collection.translationTable ? "t" : null,
    locale,
    depth: 0,
    aliases: { n: 0 },
  };
}

/**
 * The combined condition of filters and (optionally) hooks.
 *
 * @example
 * ```ts ignore
 * const condition = readCondition(ctx, posts, [{ views: 1 }], "en", true);
 * ```
 */
export function readCondition(
  ctx: LayerContext,
  collection: ResolvedCollection,
  wheres: readonly WhereFilter[],
  locale: string,
  hooks: boolean,
): Condition {
  const deadline = ctx.dialect === "sqlite" && currentQueryTimeout() > 0;
  if (wheres.length === 0 && (!hooks || ctx.queryFilters.length === 0)) {
    return deadline ? SAMPLED_DEADLINE_CHECK : null;
  }
  const scope = rootScope(ctx, collection, locale);
  if (wheres.length === 1) {
    const kept = keptCondition(scope, wheres[0]);
    // Hooks are asked per read: they may answer differently each time.
    const extra = hooks
      ? hookConditions(scope, andFilters(wheres[0]), "where")
      : null;
    if (extra === null && scope.aliases.n === 0) {
      return deadline ? kept.sampled : kept.condition;
    }
    return withDeadline(scope, deadline, [kept.condition, extra]);
  }
  const parts: Condition[] = [];
  for (const where of wheres) parts.push(compileFilter(where, scope));
  if (hooks) {
    parts.push(hookConditions(scope, andFilters(...wheres), "where"));
  }
  return withDeadline(scope, deadline, parts);
}

function withDeadline(
  scope: WhereScope,
  deadline: boolean,
  parts: Condition[],
): Condition {
  if (deadline) {
    // Every subquery takes an alias: without one, a row costs a few comparisons (pattern
    // functions look at the clock themselves), so a look every 64 rows or so is as good.
    parts.unshift(
      scope.aliases.n > 0 ? DEADLINE_CHECK : SAMPLED_DEADLINE_CHECK,
    );
  }
  return andConditions(parts);
}

/** One filter compiled at the root of a read, alone and behind the sampled deadline check. */
interface KeptCondition {
  readonly condition: Condition;
  readonly sampled: Condition;
}

/**
 * Filters compiled once, per collection, filter object and locale: a filter kept and read
 * again (a builder refined once and run often, a wire plan the API keeps) skips compiling,
 * and the same condition object lets {@link instantiate} skip compiling its SQL too. A
 * filter with a subquery is compiled afresh each time: its `has` asks the target's hooks.
 */
const keptConditions = new WeakMap<
  ResolvedCollection,
  WeakMap<WhereFilter, Map<string, KeptCondition>>
>();

/** Distinct locales kept per filter. */
const MAX_KEPT_LOCALES = 16;

function keptCondition(scope: WhereScope, where: WhereFilter): KeptCondition {
  let byFilter = keptConditions.get(scope.collection);
  if (!byFilter) keptConditions.set(scope.collection, byFilter = new WeakMap());
  let byLocale = byFilter.get(where);
  const found = byLocale?.get(scope.locale);
  if (found) return found;
  const condition = compileFilter(where, scope);
  const kept = {
    condition,
    sampled: andConditions([SAMPLED_DEADLINE_CHECK, condition]),
  };
  if (scope.aliases.n > 0) return kept;
  uncheckedOf.set(kept.sampled!, condition);
  if (!byLocale) byFilter.set(where, byLocale = new Map());
  if (byLocale.size >= MAX_KEPT_LOCALES) byLocale.clear();
  byLocale.set(scope.locale, kept);
  return kept;
}

/**
 * On SQLite under a query deadline: a term that stops the statement once the deadline
 * passes (see db/sqlite_functions.ts), evaluated for each row the statement looks at. It
 * comes first, so SQLite evaluates it before the terms that may reject the row.
 */
const DEADLINE_CHECK = sql<SqlBool>`abs(strata_deadline())`;

/** The deadline term for rows that cost little each (see `SAMPLED_DEADLINE_SQL`). */
const SAMPLED_DEADLINE_CHECK = sql<SqlBool>`${sql.raw(SAMPLED_DEADLINE_SQL)}`;

/**
 * The condition without its sampled deadline check, for the conditions {@link readCondition}
 * answers with one (no filter, or one kept filter): a count may drop the check when it
 * cannot run long (see _bounded_reads.ts).
 */
const uncheckedOf = new WeakMap<RawBuilder<SqlBool>, Condition>([
  [SAMPLED_DEADLINE_CHECK, null],
]);

/**
 * `SELECT … FROM table AS m [LEFT JOIN translations AS t]` with the read's condition
 * (`translations: false` leaves the join out, for a condition that does not need it).
 *
 * @example
 * ```ts ignore
 * const rows = await baseQuery(ctx, posts, "en", null).select("m.UUID").execute();
 * ```
 */
export function baseQuery(
  ctx: LayerContext,
  collection: ResolvedCollection,
  locale: string,
  condition: Condition,
  translations = true,
): SelectQueryBuilder<any, any, any> {
  let query: SelectQueryBuilder<any, any, any> = ctx.executor().selectFrom(
    `${collection.table} as m`,
  );
  if (collection.translationTable && translations) {
    query = query.leftJoin(
      `${collection.translationTable} as t`,
      (join: any) =>
        join.onRef("t.record", "=", "m.UUID").on("t.locale", "=", locale),
    );
  }
  return condition ? query.where(condition) : query;
}

/**
 * Applies order keys (with `UUID` as the final tiebreaker), limit and offset.
 *
 * @example
 * ```ts ignore
 * const query = applyWindow(ctx, posts, baseQuery(ctx, posts, "en", null), {
 *   order: ["-views"],
 *   limit: 10,
 *   offset: null,
 * });
 * ```
 */
export function applyWindow(
  ctx: LayerContext,
  collection: ResolvedCollection,
  query: SelectQueryBuilder<any, any, any>,
  options: Pick<ReadOptions, "order" | "limit" | "offset">,
  search: CompiledSearch | null = null,
): SelectQueryBuilder<any, any, any> {
  let tiebreak = false;
  let lastDescending = false;
  options.order.forEach((key, i) => {
    const desc = key.startsWith("-");
    const name = desc ? key.slice(1) : key;
    const path = `order[${i}]`;
    lastDescending = desc;
    if (name === RELEVANCE) {
      if (!search) {
        throw new QueryError(
          "invalidField",
          path,
          `Ordering by ${RELEVANCE} needs a search at ${path}`,
        );
      }
      query = query.orderBy(search.relevance, desc ? "desc" : "asc");
      return;
    }
    if (name === "UUID" || name === "_updatedAt") {
      if (name === "UUID") tiebreak = true;
      // Never NULL: no NULLS clause, so the primary key's index serves both directions.
      query = query.orderBy(`m.${name}`, desc ? "desc" : "asc");
      return;
    }
    const field = fieldOrThrow(collection, name, path);
    if (
      field.kind === "records" || field.kind === "multiSelect" ||
      field.kind === "file" || field.kind === "files"
    ) {
      throw new QueryError(
        "invalidField",
        path,
        `Cannot order by the list field "${name}" at ${path}`,
      );
    }
    const column = field.storage === "translation" ? `t.${name}` : `m.${name}`;
    // A unique value that is never NULL orders the rows totally: its unique index (which
    // cannot end in UUID) serves the list alone.
    if (field.unique && !field.nullable && field.storage === "column") {
      tiebreak = true;
    }
    query = query.orderBy(column, nullsAsSmallest(ctx.dialect, desc));
  });
  // The tiebreak runs in the direction of the last key: the indexes schema sync creates end
  // in UUID, so a scan of one (forwards or backwards) yields exactly this order.
  if (options.order.length > 0 && !tiebreak) {
    query = query.orderBy("m.UUID", lastDescending ? "desc" : "asc");
  }
  if (options.limit !== null) query = query.limit(options.limit);
  else if (options.offset !== null && ctx.dialect === "sqlite") {
    query = query.limit(-1);
  }
  if (options.offset !== null) query = query.offset(options.offset);
  return query;
}

/**
 * NULLs sort as the smallest value on both databases. SQLite does so by default; on
 * PostgreSQL the clause is spelled out, matching the `NULLS FIRST` of the indexes schema
 * sync creates (scanned backwards for a descending order).
 */
function nullsAsSmallest(
  dialect: string,
  desc: boolean,
): (ob: any) => any {
  if (dialect !== "postgres") return (ob) => desc ? ob.desc() : ob.asc();
  return (ob) => desc ? ob.desc().nullsLast() : ob.asc().nullsFirst();
}

/**
 * Turns rows of column values in the order of the plan's `columns` (SQLite's array rows,
 * see `arrayRows`) into records, exactly as {@link mapRows} would.
 */
function mapArrayRows(
  rows: readonly unknown[][],
  collection: ResolvedCollection,
  select: readonly string[] | null,
): DataRecord[] {
  const plan = readPlan(collection, select);
  const { fields, updatedAt, translations } = plan;
  const first = updatedAt ? 2 : 1;
  const out = new Array<DataRecord>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const record: DataRecord = { UUID: row[0] as string };
    let column = first;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      if (field.storage === "junction") {
        record[field.name] = [];
        continue;
      }
      const value = row[column++];
      record[field.name] = field.fromDb
        ? field.fromDb(value)
        : value === undefined
        ? null
        : value;
    }
    if (updatedAt) record._updatedAt = row[1];
    if (translations) record._translations = [];
    out[r] = record;
  }
  return out;
}

/** Turns rows into records (junction lists and `_translations` still empty). */
function mapRows(
  rows: readonly Record<string, unknown>[],
  collection: ResolvedCollection,
  select: readonly string[] | null,
): DataRecord[] {
  const plan = readPlan(collection, select);
  const { fields, updatedAt, translations } = plan;
  const out = new Array<DataRecord>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const record: DataRecord = { UUID: row.UUID as string };
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      if (field.storage === "junction") {
        record[field.name] = [];
        continue;
      }
      const value = row[field.name];
      record[field.name] = field.fromDb
        ? field.fromDb(value)
        : value === undefined
        ? null
        : value;
    }
    if (updatedAt) record._updatedAt = row._updatedAt;
    if (translations) record._translations = [];
    out[r] = record;
  }
  return out;
}

/** A read's SQL around its condition, with marks where the request's values go. */
interface ReadTemplate {
  /** SQL before the condition (ends with `where ` when there is one). */
  readonly head: string;
  /** SQL after the condition. */
  readonly tail: string;
  /** PostgreSQL: `tail` cut at its placeholders (renumbered after the condition's). */
  readonly tailParts: readonly string[] | null;
  /** Parameters of `head`, then of `tail` (marks included). */
  readonly headParameters: readonly unknown[];
  readonly tailParameters: readonly unknown[];
}

const CONDITION_MARK = "\u0000condition";
const LIMIT_MARK = "\u0000limit";
const OFFSET_MARK = "\u0000offset";
const readTemplates = new WeakMap<ReadPlan, Map<string, ReadTemplate>>();
/** Distinct order/window shapes kept per plan (order keys come from requests). */
const MAX_TEMPLATES = 64;

function fill(parameters: readonly unknown[], values: ReadTemplateValues) {
  return parameters.map((value) =>
    value === LOCALE_MARK
      ? values.locale
      : value === LIMIT_MARK
      ? values.limit
      : value === OFFSET_MARK
      ? values.offset
      : value
  );
}

interface ReadTemplateValues {
  readonly locale: string;
  readonly limit: number | null;
  readonly offset: number | null;
}

/**
 * The read of `options`, compiled without building and compiling a Kysely query per
 * request: everything but the condition (selection, join, order, window) depends only on the
 * plan and the shape of the window, so it is compiled once with marks for its values and
 * kept; only the condition is compiled per request. The SQL is exactly what Kysely compiles
 * for the whole query: SQLite's positional `?` parameters keep their order when the
 * condition's are spliced in between; PostgreSQL's numbered `$n` are renumbered around it
 * (identifiers are validated names and values are parameters, so every `$n` is one).
 */
function compileRead(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: Pick<ReadOptions, "order" | "limit" | "offset" | "locale">,
  condition: Condition,
): CompiledQuery {
  let templates = readTemplates.get(plan);
  if (!templates) readTemplates.set(plan, templates = new Map());
  const key = `${condition === null ? 0 : 1}${options.limit === null ? 0 : 1}${
    options.offset === null ? 0 : 1
  }${options.order.join("\u0000")}`;
  let template = templates.get(key);
  if (!template) {
    template = readTemplate(ctx, condition !== null, (marked) =>
      applyWindow(
        ctx,
        collection,
        baseQuery(ctx, collection, LOCALE_MARK, marked)
          .select(plan.columns as string[]),
        {
          order: options.order,
          limit: options.limit === null
            ? null
            : LIMIT_MARK as unknown as number,
          offset: options.offset === null
            ? null
            : OFFSET_MARK as unknown as number,
        },
      ));
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(key, template);
  }
  return instantiate(ctx, template, options, condition);
}

const countTemplates = new WeakMap<
  ResolvedCollection,
  Map<string, ReadTemplate>
>();

/**
 * `select count(*) as "count"` of the rows `condition` admits (at most `atMost` of them),
 * compiled like {@link compileRead}: once per shape, the condition spliced in per request.
 * On SQLite under a deadline, a count that cannot run long goes without the sampled
 * deadline check its condition carries (see _bounded_reads.ts).
 *
 * @example
 * ```ts ignore
 * const { rows } = await ctx.executor().executeQuery(
 *   compileCount(ctx, posts, "en", condition),
 * );
 * ```
 */
export function compileCount(
  ctx: LayerContext,
  collection: ResolvedCollection,
  locale: string,
  condition: Condition,
  atMost?: number,
): CompiledQuery {
  return judgedCount(ctx, collection, locale, condition, atMost).query;
}

/** {@link compileCount}, and whether it is a count that cannot run long (unchecked). */
function judgedCount(
  ctx: LayerContext,
  collection: ResolvedCollection,
  locale: string,
  condition: Condition,
  atMost?: number,
): { query: CompiledQuery; bounded: boolean } {
  const unchecked = atMost === undefined ? withoutCheck(ctx, condition) : null;
  if (unchecked) {
    // A record has at most one translation per locale: the join, when the condition does
    // not read it, changes no count, and costs a lookup per row.
    const query = countQuery(ctx, collection, locale, unchecked.condition, {
      translations: unchecked.sql.includes(`"t".`),
    });
    if (countIsBounded(ctx, collection, { ...unchecked, query })) {
      return { query, bounded: true };
    }
  }
  return {
    query: countQuery(ctx, collection, locale, condition, { atMost }),
    bounded: false,
  };
}

/**
 * A condition of {@link readCondition} that carries the sampled deadline check, without it
 * (with its SQL, parameter count and the deadline in force), for the judges of
 * _bounded_reads.ts; `null` for any other.
 */
function withoutCheck(ctx: LayerContext, condition: Condition): {
  condition: Condition;
  sql: string;
  parameters: number;
  timeout: number;
} | null {
  const unchecked = condition === null ? undefined : uncheckedOf.get(condition);
  if (unchecked === undefined) return null;
  const where = unchecked === null ? null : compiledCondition(ctx, unchecked);
  return {
    condition: unchecked,
    sql: where?.sql ?? "",
    parameters: where?.parameters.length ?? 0,
    timeout: currentQueryTimeout(),
  };
}

function countQuery(
  ctx: LayerContext,
  collection: ResolvedCollection,
  locale: string,
  condition: Condition,
  { atMost, translations = true }: {
    atMost?: number;
    translations?: boolean;
  },
): CompiledQuery {
  let templates = countTemplates.get(collection);
  if (!templates) countTemplates.set(collection, templates = new Map());
  const key = `${condition === null ? 0 : 1}${atMost === undefined ? 0 : 1}${
    translations ? 1 : 0
  }`;
  let template = templates.get(key);
  if (!template) {
    template = readTemplate(ctx, condition !== null, (marked) => {
      const matching = baseQuery(
        ctx,
        collection,
        LOCALE_MARK,
        marked,
        translations,
      );
      return atMost === undefined
        ? matching.select(sql<number>`count(*)`.as("count"))
        : ctx.executor().selectFrom(
          matching.select(sql`1`.as("one"))
            .limit(LIMIT_MARK as unknown as number).as("matching"),
        ).select(sql<number>`count(*)`.as("count"));
    });
    templates.set(key, template);
  }
  return instantiate(ctx, template, {
    locale,
    limit: atMost ?? null,
    offset: null,
  }, condition);
}

/** A template with its values filled in and `condition` spliced at its mark. */
function instantiate(
  ctx: LayerContext,
  template: ReadTemplate,
  values: ReadTemplateValues,
  condition: Condition,
): CompiledQuery {
  const head = fill(template.headParameters, values);
  const tail = fill(template.tailParameters, values);
  if (condition === null) {
    return CompiledQuery.raw(template.head + template.tail, [...head, ...tail]);
  }
  const where = compiledCondition(ctx, condition);
  if (ctx.dialect !== "postgres") {
    return CompiledQuery.raw(
      template.head + where.sql + template.tail,
      [...head, ...where.parameters, ...tail],
    );
  }
  const condition$ = where.parts!;
  return CompiledQuery.raw(
    template.head + joinNumbered(condition$, head.length + 1) +
      joinNumbered(
        template.tailParts!,
        head.length + where.parameters.length + 1,
      ),
    [...head, ...where.parameters, ...tail],
  );
}

/** A condition's SQL and parameters; on PostgreSQL also the SQL cut at its `$n`. */
interface CompiledCondition {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly parts: readonly string[] | null;
}

/**
 * Conditions compiled once per dialect (the kept ones of `keptCondition` come back as the
 * same object; constant conditions are shared by every database of the process).
 */
const compiledByDialect = {
  sqlite: new WeakMap<RawBuilder<SqlBool>, CompiledCondition>(),
  postgres: new WeakMap<RawBuilder<SqlBool>, CompiledCondition>(),
};

function compiledCondition(
  ctx: LayerContext,
  condition: RawBuilder<SqlBool>,
): CompiledCondition {
  const compiledConditions = ctx.dialect === "postgres"
    ? compiledByDialect.postgres
    : compiledByDialect.sqlite;
  let compiled = compiledConditions.get(condition);
  if (compiled) return compiled;
  const { sql, parameters } = condition.compile(ctx.executor());
  let parts: string[] | null = null;
  if (ctx.dialect === "postgres") {
    parts = numberedParts(sql, 1);
    if (!parts || parts.length !== parameters.length + 1) {
      throw new Error(`Unexpected SQL for a read condition: ${sql}`);
    }
  }
  compiled = { sql, parameters, parts };
  compiledConditions.set(condition, compiled);
  return compiled;
}

const PG_PLACEHOLDER = /\$(\d+)/g;

/**
 * PostgreSQL SQL cut at its `$n` placeholders, which must be numbered in order from
 * `first`; `null` otherwise.
 */
function numberedParts(text: string, first: number): string[] | null {
  const parts: string[] = [];
  let from = 0;
  let next = first;
  for (const match of text.matchAll(PG_PLACEHOLDER)) {
    if (Number(match[1]) !== next++) return null;
    parts.push(text.slice(from, match.index));
    from = match.index + match[0].length;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Joins {@link numberedParts} with placeholders numbered from `first`. */
function joinNumbered(parts: readonly string[], first: number): string {
  let text = parts[0];
  for (let i = 1; i < parts.length; i++) text += `$${first + i - 1}` + parts[i];
  return text;
}

/**
 * Compiles the query `build` makes around a mark standing for the condition (when there is
 * one) and cuts it there.
 */
function readTemplate(
  ctx: LayerContext,
  hasCondition: boolean,
  build: (condition: Condition) => { compile(): CompiledQuery },
): ReadTemplate {
  const query = build(
    hasCondition ? sql<SqlBool>`${sql.raw(CONDITION_MARK)}` : null,
  );
  const compiled = query.compile();
  const at = hasCondition ? compiled.sql.indexOf(CONDITION_MARK) : -1;
  const head = at === -1 ? compiled.sql : compiled.sql.slice(0, at);
  const tail = at === -1 ? "" : compiled.sql.slice(at + CONDITION_MARK.length);
  const postgres = ctx.dialect === "postgres";
  // Parameters before the mark belong to the head: count its placeholders (identifiers are
  // quoted names and values are all parameters, so every `?` or `$n` is one).
  const headParts = postgres ? numberedParts(head, 1) : null;
  const headCount = postgres
    ? (headParts?.length ?? 0) - 1
    : placeholders(head);
  const tailParts = postgres ? numberedParts(tail, headCount + 1) : null;
  const tailCount = postgres
    ? (tailParts?.length ?? 0) - 1
    : placeholders(tail);
  if (
    (hasCondition && (at === -1 || tail.includes(CONDITION_MARK))) ||
    (postgres && (!headParts || !tailParts)) ||
    headCount + tailCount !== compiled.parameters.length
  ) {
    throw new Error(`Unexpected SQL for a read template: ${compiled.sql}`);
  }
  return {
    head,
    tail,
    tailParts,
    headParameters: compiled.parameters.slice(0, headCount),
    tailParameters: compiled.parameters.slice(headCount),
  };
}

function placeholders(text: string): number {
  let count = 0;
  for (let at = text.indexOf("?"); at !== -1; at = text.indexOf("?", at + 1)) {
    count++;
  }
  return count;
}

/**
 * Runs a compiled read: on SQLite outside a transaction straight on the connection (see
 * `DirectReader.read`), otherwise through Kysely.
 *
 * @example
 * ```ts ignore
 * const { rows } = await runRead(ctx, compileCount(ctx, posts, "en", null));
 * ```
 */
export async function runRead(
  ctx: LayerContext,
  query: CompiledQuery,
): Promise<{ rows: unknown[] }> {
  const direct = ctx.reader && !ctx.inTransaction()
    ? ctx.reader.read<unknown>(query)
    : undefined;
  return await (direct ?? ctx.executor().executeQuery(query));
}

/**
 * Reads records per `options`.
 *
 * @example
 * ```ts ignore
 * const records = await readRecords(ctx, posts, {
 *   wheres: [],
 *   order: [],
 *   limit: 10,
 *   offset: null,
 *   locale: "en",
 *   spec: DEFAULT_SPEC,
 *   hooks: true,
 * });
 * ```
 */
export function readRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  options: ReadOptions,
  extra: Condition = null,
): MaybePromise<DataRecord[]> {
  const condition = andConditions([
    readCondition(
      ctx,
      collection,
      options.wheres,
      options.locale,
      options.hooks,
    ),
    extra,
  ]);
  const plan = readPlan(collection, options.spec.select);
  if (options.search) {
    return searchRecords(ctx, collection, plan, options, condition);
  }
  return thenMaybe(
    plainRead(ctx, collection, plan, options, condition),
    ({ records }) => hydrated(ctx, collection, plan, options, records, records),
  );
}

/** {@link readRecords} with a search. */
async function searchRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: ReadOptions,
  condition: Condition,
): Promise<DataRecord[]> {
  const search = compileSearch(
    ctx,
    collection,
    options.search!,
    options.locale,
  );
  const matching = search.join(baseQuery(
    ctx,
    collection,
    options.locale,
    andConditions([condition, search.condition]),
  ));
  const window = {
    ...options,
    order: options.order.length > 0 ? options.order : RELEVANCE_ORDER,
  };
  if (ctx.dialect === "sqlite") {
    return await sqliteSearchRead(
      ctx,
      collection,
      options,
      condition,
      matching,
      window,
      search,
    );
  }
  const query = applyWindow(
    ctx,
    collection,
    matching.select(plan.columns as string[]),
    window,
    search,
  );
  const rows = await query.execute() as Record<string, unknown>[];
  const records = mapRows(rows, collection, options.spec.select);
  await hydrate(ctx, collection, records, options.spec, options.locale);
  return records;
}

/** The column of {@link readPage}'s rows that holds the count of all matches. */
const TOTAL_COLUMN = "__strata_total";

/**
 * A read without a search, run; with `total`, its statement also counts every match (see
 * {@link readPage}), and `total` is that count (`null` when no row came back to carry it).
 */
function plainRead(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: ReadOptions,
  condition: Condition,
  total = false,
): MaybePromise<{ records: DataRecord[]; total: number | null }> {
  const bounded = boundedRead(ctx, collection, plan, options, condition);
  let query = bounded ?? compileRead(ctx, collection, plan, options, condition);
  let atOnce = bounded !== null;
  if (total) {
    const count = judgedCount(ctx, collection, options.locale, condition);
    query = withTotal(ctx, query, count.query);
    atOnce &&= count.bounded;
  }
  const sqlite = ctx.dialect === "sqlite";
  const shape = (rows: unknown[]) => {
    const select = options.spec.select;
    const records = sqlite
      ? mapArrayRows(rows as unknown[][], collection, select)
      : mapRows(rows as Record<string, unknown>[], collection, select);
    if (!total || rows.length === 0) return { records, total: null };
    const count = sqlite
      ? (rows[0] as unknown[]).at(-1)
      : (rows[0] as Record<string, unknown>)[TOTAL_COLUMN];
    return { records, total: Number(count) };
  };
  // A window that cannot run long (and a count beside it that cannot either) needs neither
  // the deadline nor a reader thread: on a free SQLite connection it is read at once.
  if (atOnce) {
    const rows = readAtOnce(ctx, query.sql, query.parameters);
    if (rows !== undefined) return shape(rows);
  }
  return runRead(ctx, sqlite ? arrayRows(query) : query).then(({ rows }) =>
    shape(rows)
  );
}

/**
 * The read of `options` without the sampled deadline check its condition carries, when its
 * window cannot run long (see _bounded_reads.ts); `null` otherwise.
 */
function boundedRead(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: ReadOptions,
  condition: Condition,
): CompiledQuery | null {
  if (options.limit === null) return null;
  const unchecked = withoutCheck(ctx, condition);
  if (!unchecked) return null;
  const query = compileRead(
    ctx,
    collection,
    plan,
    options,
    unchecked.condition,
  );
  const rows = options.limit + (options.offset ?? 0);
  return windowIsBounded(ctx, collection, { ...unchecked, query }, rows)
    ? query
    : null;
}

/**
 * `read` with the count of `count` as one more (last) column: an uncorrelated scalar
 * subquery, which both databases evaluate once. Its alias `m` shadows the read's inside it.
 */
function withTotal(
  ctx: LayerContext,
  read: CompiledQuery,
  count: CompiledQuery,
): CompiledQuery {
  let sql = read.sql;
  if (ctx.dialect === "postgres") {
    // Every `$n` is a placeholder (see `instantiate`): the count's come first now.
    const shift = count.parameters.length;
    sql = sql.replace(PG_PLACEHOLDER, (_, n) => `$${Number(n) + shift}`);
  }
  // The select list holds quoted column names only: its end is the first " from ".
  const at = sql.indexOf(" from ");
  if (at === -1) throw new Error(`Unexpected SQL for a read: ${read.sql}`);
  return CompiledQuery.raw(
    `${sql.slice(0, at)}, (${count.sql}) as "${TOTAL_COLUMN}"${sql.slice(at)}`,
    [...count.parameters, ...read.parameters],
  );
}

/**
 * One page of a read without a search and the count of all its matches, in one statement
 * (one snapshot, one round trip). `total` is `null` when the page holds no row: count
 * alone then. At once when both cannot run long (see `plainRead`).
 *
 * @example
 * ```ts ignore
 * const { records, total } = await readPage(ctx, posts, { ...options, limit: 20, offset: 20 });
 * ```
 */
export function readPage(
  ctx: LayerContext,
  collection: ResolvedCollection,
  options: ReadOptions,
): MaybePromise<{ records: DataRecord[]; total: number | null }> {
  const condition = readCondition(
    ctx,
    collection,
    options.wheres,
    options.locale,
    options.hooks,
  );
  const plan = readPlan(collection, options.spec.select);
  return thenMaybe(
    plainRead(ctx, collection, plan, options, condition, true),
    (page) => hydrated(ctx, collection, plan, options, page.records, page),
  );
}

/**
 * A search read on SQLite in two steps: the window's UUIDs in order first, then their rows.
 * Sorting the matches by relevance in one statement carries every match's columns (bodies
 * of text, read from overflow pages) through the sort to keep one page of them; the UUIDs
 * alone sort in a fraction of the time.
 */
async function sqliteSearchRead(
  ctx: LayerContext,
  collection: ResolvedCollection,
  options: ReadOptions,
  condition: Condition,
  matching: SelectQueryBuilder<any, any, any>,
  window: Pick<ReadOptions, "order" | "limit" | "offset">,
  search: CompiledSearch,
): Promise<DataRecord[]> {
  const key = window.order.length === 1 ? window.order[0] : "";
  const direction = sql.raw(key === RELEVANCE ? "asc" : "desc");
  const ordered = search.ranked && !filtersRows(condition) &&
      (key === RELEVANCE || key === `-${RELEVANCE}`)
    // Nothing but the search filters and relevance orders: the index's matches are the
    // rows, ordered as applyWindow would (relevance, then UUID the same way).
    ? (await sql<{ UUID: string }>`select "record" as "UUID"
        from ${search.ranked} as "s"
        order by "relevance" ${direction}, "record" ${direction}
        limit ${window.limit ?? -1} offset ${window.offset ?? 0}`
      .execute(ctx.executor())).rows
    : await applyWindow(
      ctx,
      collection,
      matching.select("m.UUID as UUID"),
      window,
      search,
    ).execute() as { UUID: string }[];
  const rank = new Map(ordered.map((row, i) => [row.UUID, i]));
  const records: DataRecord[] = [];
  for (const part of chunks([...rank.keys()])) {
    records.push(
      ...await readRecords(ctx, collection, {
        wheres: [{ UUID: { in: part } }],
        order: [],
        limit: null,
        offset: null,
        locale: options.locale,
        spec: options.spec,
        hooks: false,
      }),
    );
  }
  return records.sort((a, b) => rank.get(a.UUID)! - rank.get(b.UUID)!);
}

/**
 * Whether `condition` (of {@link readCondition}) filters rows: not when it is absent or only
 * the deadline check.
 *
 * @example
 * ```ts ignore
 * filtersRows(readCondition(ctx, posts, [], "en", true)); // false without hook filters
 * ```
 */
export function filtersRows(condition: Condition): boolean {
  return condition !== null && condition !== SAMPLED_DEADLINE_CHECK;
}

/** Whether {@link hydrate} has anything to fill in for a read of `plan` under `spec`. */
function hydrates(plan: ReadPlan, spec: ReadSpec): boolean {
  return plan.fileFields.length > 0 || plan.junctionFields.length > 0 ||
    plan.translations || spec.populate.size > 0;
}

/**
 * `value` once `records` (read per `plan` and `options`) are hydrated: at once when there
 * is nothing to fill in, so that a read that waited for nothing answers without a promise.
 */
function hydrated<T>(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: ReadOptions,
  records: DataRecord[],
  value: T,
): MaybePromise<T> {
  if (records.length === 0 || !hydrates(plan, options.spec)) return value;
  return hydrate(ctx, collection, records, options.spec, options.locale)
    .then(() => value);
}

/**
 * Fills `records` lists, `_translations` and populated relations.
 *
 * @example
 * ```ts ignore
 * await hydrate(ctx, posts, records, DEFAULT_SPEC, "en");
 * ```
 */
export async function hydrate(
  ctx: LayerContext,
  collection: ResolvedCollection,
  records: DataRecord[],
  spec: ReadSpec,
  locale: string,
): Promise<void> {
  if (records.length === 0) return;
  const plan = readPlan(collection, spec.select);
  if (!hydrates(plan, spec)) return;
  if (plan.fileFields.length > 0) {
    await describeFiles(ctx, records, plan.fileFields);
  }
  if (
    plan.junctionFields.length === 0 && !plan.translations &&
    spec.populate.size === 0
  ) {
    return;
  }
  const byId = new Map(records.map((r) => [r.UUID, r]));
  const ids = [...byId.keys()];
  for (const field of plan.junctionFields) {
    for (const part of chunks(ids)) {
      const rows = await ctx.executor()
        .selectFrom(field.junctionTable!)
        .select(["owner", "target"])
        .where("owner", "in", part)
        .orderBy("owner")
        .orderBy("position")
        .execute() as { owner: string; target: string }[];
      for (const row of rows) {
        (byId.get(row.owner)![field.name] as string[]).push(row.target);
      }
    }
  }
  if (plan.translations) {
    const found = await translationLocales(ctx, collection, ids);
    for (const record of records) {
      record._translations = found.get(record.UUID) ?? [];
    }
  }
  await populateRecords(ctx, collection, records, spec, locale);
}

/**
 * Replaces relation values by the records they point at, per `spec.populate`.
 *
 * @example
 * ```ts ignore
 * await populateRecords(ctx, posts, records, spec, "en");
 * ```
 */
export async function populateRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  records: DataRecord[],
  spec: ReadSpec,
  locale: string,
): Promise<void> {
  if (records.length === 0) return;
  for (const [name, childSpec] of spec.populate) {
    await populate(
      ctx,
      collection.fields.get(name)!,
      records,
      childSpec,
      locale,
    );
  }
}

/**
 * Locales holding a translation, per record, in configured order.
 *
 * @example
 * ```ts ignore
 * const locales = await translationLocales(ctx, posts, [uuid]);
 * ```
 */
export async function translationLocales(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const part of chunks(ids)) {
    const rows = await ctx.executor()
      .selectFrom(collection.translationTable!)
      .select(["record", "locale"])
      .where("record", "in", part)
      .execute() as { record: string; locale: string }[];
    for (const row of rows) {
      let list = found.get(row.record);
      if (!list) found.set(row.record, list = []);
      list.push(row.locale);
    }
  }
  const order = ctx.localeOrder;
  const rank = (l: string) => order.get(l) ?? Number.MAX_SAFE_INTEGER;
  for (const list of found.values()) list.sort((a, b) => rank(a) - rank(b));
  return found;
}

async function populate(
  ctx: LayerContext,
  field: ResolvedField,
  records: DataRecord[],
  spec: ReadSpec,
  locale: string,
): Promise<void> {
  const target = ctx.collection(field.target!);
  const wanted = new Set<string>();
  for (const record of records) {
    const value = record[field.name];
    if (typeof value === "string") wanted.add(value);
    else if (Array.isArray(value)) { for (const id of value) wanted.add(id); }
  }
  const found = new Map<string, DataRecord>();
  for (const part of chunks([...wanted])) {
    const rows = await readRecords(ctx, target, {
      wheres: [{ UUID: { in: part } }],
      order: [],
      limit: null,
      offset: null,
      locale,
      spec,
      hooks: true,
    });
    for (const row of rows) found.set(row.UUID, row);
  }
  for (const record of records) {
    const value = record[field.name];
    if (typeof value === "string") {
      record[field.name] = found.get(value) ?? null;
    } else if (Array.isArray(value)) {
      record[field.name] = value.map((id) => found.get(id)).filter((r) => r);
    }
  }
}

interface PointReadTemplate {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly uuidAt: number;
  readonly localeAt: number;
}

const UUID_MARK = "\u0000uuid";
const LOCALE_MARK = "\u0000locale";
const pointReads = new WeakMap<ReadPlan, PointReadTemplate>();
const UUID_REF = sql.ref("m.UUID");

/**
 * A read by UUID without filters or hooks: the SQL is compiled once per collection and
 * selection, then only its parameters change. It has no LIMIT: the primary key matches one
 * row at most, and a bound `limit ?` measured twice as slow on SQLite.
 *
 * On SQLite, outside a transaction, when the record needs nothing filled in afterwards (no
 * `records` list, translation list, file or populate) and the connection is free, the
 * record comes back at once rather than as a promise. The statement then runs without the
 * query deadline's clock, as a bounded read does (_bounded_reads.ts): one primary-key lookup
 * (and one of its translation) cannot run long.
 *
 * @example
 * ```ts ignore
 * const record = await readByUuid(ctx, posts, uuid, DEFAULT_SPEC, "en");
 * ```
 */
export function readByUuid(
  ctx: LayerContext,
  collection: ResolvedCollection,
  uuid: string,
  spec: ReadSpec,
  locale: string,
): MaybePromise<DataRecord | null> {
  const plan = readPlan(collection, spec.select);
  let template = pointReads.get(plan);
  if (!template) {
    const compiled = baseQuery(
      ctx,
      collection,
      LOCALE_MARK,
      sql`${UUID_REF} = ${UUID_MARK}`,
    ).select(plan.columns as string[]).compile();
    template = {
      sql: compiled.sql,
      parameters: compiled.parameters,
      uuidAt: compiled.parameters.indexOf(UUID_MARK),
      localeAt: compiled.parameters.indexOf(LOCALE_MARK),
    };
    pointReads.set(plan, template);
  }
  const parameters = template.parameters.slice();
  parameters[template.uuidAt] = uuid;
  if (template.localeAt >= 0) parameters[template.localeAt] = locale;
  if (!hydrates(plan, spec)) {
    const rows = readAtOnce(ctx, template.sql, parameters);
    if (rows !== undefined) {
      return rows.length === 0
        ? null
        : mapArrayRows(rows, collection, spec.select)[0];
    }
  }
  return readByUuidLater(
    ctx,
    collection,
    CompiledQuery.raw(template.sql, parameters),
    spec,
    locale,
  );
}

/**
 * The rows of a read run now on the free SQLite connection, outside a transaction, or
 * `undefined` when it cannot be (PostgreSQL, a transaction, the connection held, the read
 * failed): the full path then runs it, waiting its turn, retrying a busy database and
 * reporting any other failure as every read does.
 */
function readAtOnce(
  ctx: LayerContext,
  text: string,
  parameters: readonly unknown[],
): unknown[][] | undefined {
  if (!ctx.reader || ctx.inTransaction()) return undefined;
  try {
    return ctx.reader.readArrays(text, parameters);
  } catch {
    return undefined;
  }
}

async function readByUuidLater(
  ctx: LayerContext,
  collection: ResolvedCollection,
  query: CompiledQuery,
  spec: ReadSpec,
  locale: string,
): Promise<DataRecord | null> {
  const sqlite = ctx.dialect === "sqlite";
  const result = await runRead(ctx, sqlite ? arrayRows(query) : query);
  if (result.rows.length === 0) return null;
  const records = sqlite
    ? mapArrayRows(result.rows as unknown[][], collection, spec.select)
    : mapRows(
      result.rows as Record<string, unknown>[],
      collection,
      spec.select,
    );
  await hydrate(ctx, collection, records, spec, locale);
  return records[0];
}
