/**
 * Executes reads: the main select (with the translation table joined at the read's
 * locale), then batched loads of `records` lists, `_translations` and populated relations.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import {
  CompiledQuery,
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
}

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
  if (wheres.length === 0 && (!hooks || ctx.queryFilters.length === 0)) {
    return null;
  }
  const scope = rootScope(ctx, collection, locale);
  const parts: Condition[] = wheres.map((w) => compileFilter(w, scope));
  if (hooks) {
    parts.push(hookConditions(scope, andFilters(...wheres), "where"));
  }
  return andConditions(parts);
}

/**
 * `SELECT … FROM table AS m [LEFT JOIN translations AS t]` with the read's condition.
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
): SelectQueryBuilder<any, any, any> {
  let query: SelectQueryBuilder<any, any, any> = ctx.executor().selectFrom(
    `${collection.table} as m`,
  );
  if (collection.translationTable) {
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
): SelectQueryBuilder<any, any, any> {
  let tiebreak = false;
  options.order.forEach((key, i) => {
    const desc = key.startsWith("-");
    const name = desc ? key.slice(1) : key;
    const path = `order[${i}]`;
    let column: string;
    if (name === "UUID" || name === "_updatedAt") {
      column = `m.${name}`;
      if (name === "UUID") tiebreak = true;
    } else {
      const field = fieldOrThrow(collection, name, path);
      if (field.kind === "records" || field.kind === "multiSelect") {
        throw new QueryError(
          "invalidField",
          path,
          `Cannot order by the list field "${name}" at ${path}`,
        );
      }
      column = field.storage === "translation" ? `t.${name}` : `m.${name}`;
    }
    // NULLs sort as the smallest value on both databases (SQLite's own behaviour).
    query = query.orderBy(
      column,
      (ob: any) => desc ? ob.desc().nullsLast() : ob.asc().nullsFirst(),
    );
  });
  if (options.order.length > 0 && !tiebreak) query = query.orderBy("m.UUID");
  if (options.limit !== null) query = query.limit(options.limit);
  else if (options.offset !== null && ctx.dialect === "sqlite") {
    query = query.limit(-1);
  }
  if (options.offset !== null) query = query.offset(options.offset);
  return query;
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
 * The SQLite read of `options`, compiled without building and compiling a Kysely query per
 * request: everything but the condition (selection, join, order, window) depends only on the
 * plan and the shape of the window, so it is compiled once with marks for its values and
 * kept; only the condition is compiled per request. The SQL is exactly what Kysely compiles
 * for the whole query: SQLite's positional `?` parameters keep their order when the
 * condition's are spliced in between.
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
    template = readTemplate(ctx, collection, plan, options, condition !== null);
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(key, template);
  }
  const values = {
    locale: options.locale,
    limit: options.limit,
    offset: options.offset,
  };
  const head = fill(template.headParameters, values);
  const tail = fill(template.tailParameters, values);
  if (condition === null) {
    return CompiledQuery.raw(template.head + template.tail, [...head, ...tail]);
  }
  const where = condition.compile(ctx.executor());
  return CompiledQuery.raw(
    template.head + where.sql + template.tail,
    [...head, ...where.parameters, ...tail],
  );
}

function readTemplate(
  ctx: LayerContext,
  collection: ResolvedCollection,
  plan: ReadPlan,
  options: Pick<ReadOptions, "order" | "limit" | "offset">,
  hasCondition: boolean,
): ReadTemplate {
  let query = baseQuery(
    ctx,
    collection,
    LOCALE_MARK,
    hasCondition ? sql<SqlBool>`${sql.raw(CONDITION_MARK)}` : null,
  ).select(plan.columns as string[]);
  query = applyWindow(ctx, collection, query, {
    order: options.order,
    limit: options.limit === null ? null : LIMIT_MARK as unknown as number,
    offset: options.offset === null ? null : OFFSET_MARK as unknown as number,
  });
  const compiled = query.compile();
  const at = hasCondition ? compiled.sql.indexOf(CONDITION_MARK) : -1;
  const head = at === -1 ? compiled.sql : compiled.sql.slice(0, at);
  const tail = at === -1 ? "" : compiled.sql.slice(at + CONDITION_MARK.length);
  // Parameters before the mark belong to the head: count its placeholders (identifiers are
  // quoted names and values are all parameters, so every `?` is one).
  const headCount = placeholders(head);
  if (
    (hasCondition && (at === -1 || tail.includes(CONDITION_MARK))) ||
    headCount + placeholders(tail) !== compiled.parameters.length
  ) {
    throw new Error(`Unexpected SQL for a read template: ${compiled.sql}`);
  }
  return {
    head,
    tail,
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
export async function readRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  options: ReadOptions,
  extra: Condition = null,
): Promise<DataRecord[]> {
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
  let rows: Record<string, unknown>[];
  if (ctx.dialect === "sqlite") {
    const result = await ctx.executor().executeQuery(
      compileRead(ctx, collection, plan, options, condition),
    );
    rows = result.rows as Record<string, unknown>[];
  } else {
    let query = baseQuery(ctx, collection, options.locale, condition)
      .select(plan.columns as string[]);
    query = applyWindow(ctx, collection, query, options);
    rows = await query.execute() as Record<string, unknown>[];
  }
  const records = mapRows(rows, collection, options.spec.select);
  await hydrate(ctx, collection, records, options.spec, options.locale);
  return records;
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
 * selection, then only its parameters change.
 *
 * @example
 * ```ts ignore
 * const record = await readByUuid(ctx, posts, uuid, DEFAULT_SPEC, "en");
 * ```
 */
export async function readByUuid(
  ctx: LayerContext,
  collection: ResolvedCollection,
  uuid: string,
  spec: ReadSpec,
  locale: string,
): Promise<DataRecord | null> {
  const plan = readPlan(collection, spec.select);
  let template = pointReads.get(plan);
  if (!template) {
    const compiled = baseQuery(
      ctx,
      collection,
      LOCALE_MARK,
      sql`${UUID_REF} = ${UUID_MARK}`,
    ).select(plan.columns as string[]).limit(1).compile();
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
  const result = await ctx.executor().executeQuery(
    CompiledQuery.raw(template.sql, parameters),
  );
  if (result.rows.length === 0) return null;
  const records = mapRows(
    result.rows as Record<string, unknown>[],
    collection,
    spec.select,
  );
  await hydrate(ctx, collection, records, spec, locale);
  return records[0];
}
