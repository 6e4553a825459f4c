/**
 * Compiles the filter object form (`where.ts`) into SQL for Kysely, on both dialects.
 * Every `has` subquery ANDs the target's `query:filter` hooks; translatable fields match at
 * the read's locale; `not` treats an unknown (NULL) comparison as "does not match" before
 * negating, so `{ not: { title: { equalsTo: "x" } } }` also matches a null title.
 *
 * @module
 */

import { type RawBuilder, sql, type SqlBool } from "kysely";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import {
  type FieldKind,
  OPERATORS_BY_KIND,
  WHERE_OPERATORS,
  type WhereFilter,
  type WhereOperator,
} from "./where.ts";
import { fileMetadataCollection, FILES_TABLE } from "./files/table.ts";
import { fieldOrThrow, QueryError } from "./query_error.ts";

/** Where a filter is compiled: which table alias, locale and nesting. */
export interface WhereScope {
  /** Data layer state. */
  readonly ctx: LayerContext;
  /** The collection the filter's keys belong to. */
  readonly collection: ResolvedCollection;
  /** SQL alias of its main table. */
  readonly alias: string;
  /** Alias of a translation table already joined at `locale`, if any. */
  readonly translationAlias: string | null;
  /** Locale for translatable fields. */
  readonly locale: string;
  /** Nesting depth (`has`, `or`, `not`). */
  readonly depth: number;
  /** Generates fresh aliases. */
  readonly aliases: { n: number };
}

/** A compiled condition; `null` means "always true". */
export type Condition = RawBuilder<SqlBool> | null;

const MAX_DEPTH = 64;
const FALSE: RawBuilder<SqlBool> = sql<SqlBool>`1 = 0`;
const OPERATOR_SET: ReadonlySet<string> = new Set(WHERE_OPERATORS);

/**
 * ANDs conditions (nulls are "true").
 *
 * @example
 * ```ts ignore
 * const both = andConditions([compileFilter({ a: 1 }, scope), null]);
 * ```
 */
export function andConditions(parts: readonly Condition[]): Condition {
  const real = parts.filter((p): p is RawBuilder<SqlBool> => p !== null);
  if (real.length === 0) return null;
  if (real.length === 1) return real[0];
  return sql<SqlBool>`(${sql.join(real, sql` and `)})`;
}

function orConditions(parts: readonly Condition[]): Condition {
  if (parts.length === 0) return FALSE;
  if (parts.some((p) => p === null)) return null;
  if (parts.length === 1) return parts[0];
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

function negate(condition: Condition): RawBuilder<SqlBool> {
  if (condition === null) return FALSE;
  return sql<SqlBool>`not coalesce(${condition}, ${sql.lit(false)})`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The `query:filter` conditions of a collection, compiled in `scope`.
 *
 * @example
 * ```ts ignore
 * const extra = hookConditions(scope, { title: "x" }, "where");
 * ```
 */
export function hookConditions(
  scope: WhereScope,
  where: WhereFilter,
  path: string,
): Condition {
  const extras = hookFilters(scope.ctx, scope.collection, where, scope.locale);
  if (extras.length === 0) return null;
  return andConditions(
    extras.map((extra) => compileFilter(extra, scope, `${path}(filter)`)),
  );
}

/**
 * What the `query:filter` hooks add to a read of `collection` whose own filter is `where`
 * (each hook called once).
 *
 * @example
 * ```ts ignore
 * const extras = hookFilters(ctx, posts, { UUID: id }, "en"); // [] when no hook filters
 * ```
 */
export function hookFilters(
  ctx: LayerContext,
  collection: ResolvedCollection,
  where: WhereFilter,
  locale: string,
): WhereFilter[] {
  const extras: WhereFilter[] = [];
  for (const hook of ctx.queryFilters) {
    const extra = hook({ collection: collection.name, where, locale });
    if (extra) extras.push(extra);
  }
  return extras;
}

/**
 * Compiles one filter object in `scope`. Throws {@link QueryError} for unknown fields,
 * operators a kind does not take and values of the wrong type.
 *
 * @example
 * ```ts ignore
 * const condition = compileFilter({ views: { atLeast: 10 } }, scope, "where");
 * ```
 */
export function compileFilter(
  filter: WhereFilter,
  scope: WhereScope,
  path = "where",
): Condition {
  if (!isPlainObject(filter)) {
    throw new QueryError(
      "invalidShape",
      path,
      `A filter must be an object at ${path}`,
    );
  }
  if (scope.depth > MAX_DEPTH) {
    throw new QueryError(
      "tooDeep",
      path,
      `The filter nests too deep at ${path}`,
    );
  }
  const parts: Condition[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (value === undefined) continue;
    const at = `${path}.${key}`;
    if (key === "or") {
      if (!Array.isArray(value)) {
        throw new QueryError(
          "invalidShape",
          at,
          `"or" takes a list of filters at ${at}`,
        );
      }
      const inner = { ...scope, depth: scope.depth + 1 };
      parts.push(orConditions(
        value.map((f, i) =>
          compileFilter(f as WhereFilter, inner, `${at}[${i}]`)
        ),
      ));
    } else if (key === "not") {
      const inner = { ...scope, depth: scope.depth + 1 };
      parts.push(negate(compileFilter(value as WhereFilter, inner, at)));
    } else {
      parts.push(compileField(key, value, scope, at));
    }
  }
  return andConditions(parts);
}

interface Target {
  kind: FieldKind | "uuid";
  field: ResolvedField | null;
  ref: RawBuilder<unknown>;
}

function resolveTarget(name: string, scope: WhereScope, path: string): Target {
  const { collection, alias } = scope;
  if (name === "UUID") {
    return { kind: "uuid", field: null, ref: sql.ref(`${alias}.UUID`) };
  }
  if (name === "_updatedAt") {
    return {
      kind: "dateTime",
      field: null,
      ref: sql.ref(`${alias}._updatedAt`),
    };
  }
  const field = fieldOrThrow(collection, name, path);
  const ref = field.storage === "junction"
    ? sql.ref(`${alias}.UUID`)
    : fieldRef(field, scope);
  return { kind: field.kind, field, ref };
}

/**
 * A SQL reference to a field's value in `scope` (translatable: at the scope's locale).
 *
 * @example
 * ```ts ignore
 * const ref = fieldRef(posts.fields.get("title")!, scope);
 * ```
 */
export function fieldRef(
  field: ResolvedField,
  scope: WhereScope,
): RawBuilder<unknown> {
  if (field.storage === "column") {
    return sql.ref(`${scope.alias}.${field.name}`);
  }
  if (field.storage === "translation") {
    if (scope.translationAlias) {
      return sql.ref(`${scope.translationAlias}.${field.name}`);
    }
    const t = `s${++scope.aliases.n}`;
    return sql`(select ${sql.ref(`${t}.${field.name}`)} from ${
      sql.table(scope.collection.translationTable!)
    } as ${sql.id(t)} where ${sql.ref(`${t}.record`)} = ${
      sql.ref(`${scope.alias}.UUID`)
    } and ${sql.ref(`${t}.locale`)} = ${scope.locale})`;
  }
  throw new Error(`Field ${field.name} has no column`);
}

function compileField(
  name: string,
  value: unknown,
  scope: WhereScope,
  path: string,
): Condition {
  const target = resolveTarget(name, scope, path);
  if (value === null) {
    throw new QueryError(
      "nullEquality",
      path,
      `Use { isNull: true } to match null at ${path}`,
    );
  }
  if (!isPlainObject(value)) {
    return compileOperator(target, "equalsTo", value, scope, path);
  }
  const parts: Condition[] = [];
  for (const op of Object.keys(value)) {
    const operand = value[op];
    if (operand === undefined) continue;
    parts.push(compileOperator(target, op, operand, scope, `${path}.${op}`));
  }
  return andConditions(parts);
}

function allowed(target: Target, op: string): boolean {
  if (target.kind === "uuid") return op === "equalsTo" || op === "in";
  if (target.field === null) {
    return OPERATORS_BY_KIND.dateTime.includes(op as WhereOperator) &&
      op !== "isNull";
  }
  return OPERATORS_BY_KIND[target.kind].includes(op as WhereOperator);
}

function scalarOk(kind: FieldKind | "uuid", value: unknown): boolean {
  switch (kind) {
    case "integer":
    case "number":
    case "dateTime":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    default:
      return typeof value === "string";
  }
}

function toDb(target: Target, value: unknown): unknown {
  if (target.kind === "uuid" || target.kind === "record") {
    return typeof value === "string" ? value.toLowerCase() : value;
  }
  return target.field ? target.field.toDb(value) : value;
}

function invalid(path: string, expected: string): QueryError {
  return new QueryError(
    "invalidValue",
    path,
    `Expected ${expected} at ${path}`,
  );
}

// No stored text holds U+0000 (writes refuse it, and PostgreSQL cannot even bind it), so a
// filter value carrying it is malformed on every database.
function refuseNul(value: string, path: string): void {
  if (value.includes("\u0000")) throw invalid(path, "text without U+0000");
}

function scalar(target: Target, value: unknown, path: string): unknown {
  if (!scalarOk(target.kind, value)) {
    throw invalid(
      path,
      `a ${target.kind === "uuid" ? "UUID" : target.kind} value`,
    );
  }
  if (typeof value === "string") refuseNul(value, path);
  return toDb(target, value);
}

function stringList(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw invalid(path, "a list of strings");
  }
  value.forEach((item, i) => refuseNul(item as string, `${path}[${i}]`));
  return [...new Set(value as string[])];
}

/**
 * `ref` lowercased for the case-insensitive operators. On PostgreSQL text columns use the
 * "C" collation (code-point order, see schema_sync.ts), whose `lower()` folds ASCII only;
 * the database's default collation folds all of Unicode, as SQLite's overridden `lower()`.
 */
function folded(
  ref: RawBuilder<unknown>,
  dialect: string,
): RawBuilder<unknown> {
  return dialect === "postgres"
    ? sql`lower(${ref} collate "default")`
    : sql`lower(${ref})`;
}

const SQLITE_PATTERN_FUNCTIONS = {
  contains: "strata_contains",
  startsWith: "strata_starts",
  endsWith: "strata_ends",
} as const;

/**
 * A pattern operator on SQLite: Strata's function (see db/sqlite_functions.ts) folds the
 * value as `lower()` does and matches in linear time, stopping at the statement's deadline;
 * `abs()` turns its stop value into an error that ends the statement.
 */
function sqlitePattern(
  name: string,
  ref: RawBuilder<unknown>,
  value: string,
): Condition {
  return sql<SqlBool>`abs(${sql.raw(name)}(${ref}, ${value.toLowerCase()}))`;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function compileOperator(
  target: Target,
  op: string,
  value: unknown,
  scope: WhereScope,
  path: string,
): Condition {
  if (!OPERATOR_SET.has(op)) {
    throw new QueryError(
      "unknownOperator",
      path,
      `Unknown operator "${op}" at ${path}`,
    );
  }
  if (!allowed(target, op)) {
    throw new QueryError(
      "invalidField",
      path,
      `Operator "${op}" does not apply to this field at ${path}`,
    );
  }
  const { ref } = target;
  const { dialect } = scope.ctx;
  switch (op) {
    case "equalsTo":
      if (value === null) {
        throw new QueryError(
          "nullEquality",
          path,
          `Use isNull to match null at ${path}`,
        );
      }
      return sql<SqlBool>`${ref} = ${scalar(target, value, path)}`;
    case "in": {
      if (!Array.isArray(value)) throw invalid(path, "a list");
      if (value.length === 0) return FALSE;
      const items = value.map((v, i) => scalar(target, v, `${path}[${i}]`));
      return sql<SqlBool>`${ref} in (${sql.join(items)})`;
    }
    case "greaterThan":
      return sql<SqlBool>`${ref} > ${scalar(target, value, path)}`;
    case "atLeast":
      return sql<SqlBool>`${ref} >= ${scalar(target, value, path)}`;
    case "lessThan":
      return sql<SqlBool>`${ref} < ${scalar(target, value, path)}`;
    case "atMost":
      return sql<SqlBool>`${ref} <= ${scalar(target, value, path)}`;
    case "contains":
    case "startsWith":
    case "endsWith": {
      if (typeof value !== "string") throw invalid(path, "a string");
      refuseNul(value, path);
      if (dialect === "sqlite") {
        return sqlitePattern(SQLITE_PATTERN_FUNCTIONS[op], ref, value);
      }
      const literal = escapeLike(value.toLowerCase());
      const pattern = op === "contains"
        ? `%${literal}%`
        : op === "startsWith"
        ? `${literal}%`
        : `%${literal}`;
      return sql<SqlBool>`${folded(ref, dialect)} like ${pattern} escape ${
        sql.lit("\\")
      }`;
    }
    case "like": {
      if (typeof value !== "string") throw invalid(path, "a string");
      refuseNul(value, path);
      // PostgreSQL's LIKE escapes with a backslash by default; SQLite's function has none.
      return dialect === "postgres"
        ? sql<SqlBool>`${
          folded(ref, dialect)
        } like ${value.toLowerCase()} escape ''`
        : sqlitePattern("strata_like", ref, value);
    }
    case "isNull":
      if (typeof value !== "boolean") throw invalid(path, "true or false");
      return value
        ? sql<SqlBool>`${ref} is null`
        : sql<SqlBool>`${ref} is not null`;
    case "includes":
    case "includesAll":
    case "includesAny":
      return compileIncludes(target, op, value, scope, path);
    case "empty":
      if (typeof value !== "boolean") throw invalid(path, "true or false");
      return value
        ? emptyCondition(target, scope)
        : negate(emptyCondition(target, scope));
    case "has":
      return compileHas(target, value, scope, path);
  }
  throw new QueryError(
    "unknownOperator",
    path,
    `Unknown operator "${op}" at ${path}`,
  );
}

function emptyCondition(
  target: Target,
  scope: WhereScope,
): RawBuilder<SqlBool> {
  const { ref } = target;
  if (target.kind === "record") return sql<SqlBool>`${ref} is null`;
  if (target.kind === "records") {
    const j = `j${++scope.aliases.n}`;
    return sql<SqlBool>`not exists (select 1 from ${
      sql.table(target.field!.junctionTable!)
    } as ${sql.id(j)} where ${sql.ref(`${j}.owner`)} = ${
      sql.ref(`${scope.alias}.UUID`)
    })`;
  }
  return scope.ctx.dialect === "postgres"
    ? sql<SqlBool>`(${ref} is null or jsonb_array_length(${ref}) = 0)`
    : sql<SqlBool>`(${ref} is null or json_array_length(${ref}) = 0)`;
}

function compileIncludes(
  target: Target,
  op: "includes" | "includesAll" | "includesAny",
  value: unknown,
  scope: WhereScope,
  path: string,
): Condition {
  let list: string[];
  if (op === "includes") {
    if (typeof value !== "string") throw invalid(path, "a string");
    list = [value];
  } else {
    list = stringList(value, path);
  }
  if (target.kind === "records") list = list.map((v) => v.toLowerCase());
  if (list.length === 0) return op === "includesAll" ? null : FALSE;
  const { ref } = target;
  if (target.kind === "records") {
    const j = `j${++scope.aliases.n}`;
    const from = sql`from ${sql.table(target.field!.junctionTable!)} as ${
      sql.id(j)
    } where ${sql.ref(`${j}.owner`)} = ${sql.ref(`${scope.alias}.UUID`)} and ${
      sql.ref(`${j}.target`)
    } in (${sql.join(list)})`;
    return op === "includesAll" && list.length > 1
      ? sql<SqlBool>`(select count(*) ${from}) = ${list.length}`
      : sql<SqlBool>`exists (select 1 ${from})`;
  }
  if (scope.ctx.dialect === "postgres") {
    if (op === "includesAny" && list.length > 1) {
      return sql<SqlBool>`${ref} ?| ${sql.val(list)}::text[]`;
    }
    return sql<SqlBool>`${ref} @> ${JSON.stringify(list)}::jsonb`;
  }
  const e = `e${++scope.aliases.n}`;
  const from = sql`from json_each(${ref}) as ${sql.id(e)} where ${
    sql.ref(`${e}.value`)
  } in (${sql.join(list)})`;
  return op === "includesAll" && list.length > 1
    ? sql<SqlBool>`(select count(distinct ${
      sql.ref(`${e}.value`)
    }) ${from}) = ${list.length}`
    : sql<SqlBool>`exists (select 1 ${from})`;
}

function compileHas(
  target: Target,
  value: unknown,
  scope: WhereScope,
  path: string,
): Condition {
  if (!isPlainObject(value)) {
    throw new QueryError(
      "invalidShape",
      path,
      `"has" takes a filter at ${path}`,
    );
  }
  const field = target.field!;
  if (field.kind === "file" || field.kind === "files") {
    return compileFileHas(target, value as WhereFilter, scope, path);
  }
  const other = scope.ctx.collection(field.target!);
  const h = `h${++scope.aliases.n}`;
  const inner: WhereScope = {
    ctx: scope.ctx,
    collection: other,
    alias: h,
    translationAlias: null,
    locale: scope.locale,
    depth: scope.depth + 1,
    aliases: scope.aliases,
  };
  const condition = andConditions([
    compileFilter(value as WhereFilter, inner, path),
    hookConditions(inner, value as WhereFilter, path),
  ]);
  const where = condition === null ? sql`` : sql` and ${condition}`;
  if (field.kind === "record") {
    return sql<SqlBool>`exists (select 1 from ${sql.table(other.table)} as ${
      sql.id(h)
    } where ${sql.ref(`${h}.UUID`)} = ${target.ref}${where})`;
  }
  const j = `j${++scope.aliases.n}`;
  return sql<SqlBool>`exists (select 1 from ${
    sql.table(field.junctionTable!)
  } as ${sql.id(j)} inner join ${sql.table(other.table)} as ${sql.id(h)} on ${
    sql.ref(`${h}.UUID`)
  } = ${sql.ref(`${j}.target`)} where ${sql.ref(`${j}.owner`)} = ${
    sql.ref(`${scope.alias}.UUID`)
  }${where})`;
}

/**
 * `has` on a file field: a filter over the metadata of its file(s) in `_strata_files`. A
 * `file` column holds the UUID; the files of a `files` value are found by their owner.
 */
function compileFileHas(
  target: Target,
  value: WhereFilter,
  scope: WhereScope,
  path: string,
): Condition {
  const field = target.field!;
  const files = fileMetadataCollection(scope.ctx.dialect);
  const h = `h${++scope.aliases.n}`;
  const inner: WhereScope = {
    ctx: scope.ctx,
    collection: files,
    alias: h,
    translationAlias: null,
    locale: scope.locale,
    depth: scope.depth + 1,
    aliases: scope.aliases,
  };
  const condition = compileFilter(value, inner, path);
  const where = condition === null ? sql`` : sql` and ${condition}`;
  if (field.kind === "file") {
    return sql<SqlBool>`exists (select 1 from ${sql.table(FILES_TABLE)} as ${
      sql.id(h)
    } where ${sql.ref(`${h}.UUID`)} = ${target.ref}${where})`;
  }
  return sql<SqlBool>`exists (select 1 from ${sql.table(FILES_TABLE)} as ${
    sql.id(h)
  } where ${sql.ref(`${h}.record`)} = ${sql.ref(`${scope.alias}.UUID`)} and ${
    sql.ref(`${h}.collection`)
  } = ${field.collection} and ${sql.ref(`${h}.field`)} = ${field.name} and ${
    sql.ref(`${h}.state`)
  } = 'attached'${where})`;
}
