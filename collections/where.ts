/**
 * The object form of a filter, shared by the query builder (trusted code), the wire
 * query grammar (`?where=`) and access scopes.
 *
 * A filter object maps field names to a condition; sibling keys AND together.
 * - `{ title: "x" }` is equality (`{ title: { equalsTo: "x" } }`).
 * - `{ views: { atLeast: 10, lessThan: 100 } }`: several operators on one field AND together.
 * - `{ or: [filter, filter] }` matches when any matches; `{ not: filter }` negates.
 * - `{ author: { has: filter } }` matches when the linked record (`record`) or any linked
 *   record (`records`) matches `filter`, which is keyed to the target collection's fields.
 * - `{ tags: { empty: true } }` matches an empty `records` list / a null `record`.
 * - On `file` / `files` fields `has` takes a filter over the file's metadata (`name`, `type`,
 *   `size`, `sha256`, `width`, `height`): `{ avatar: { has: { type: { startsWith: "image/" } } } }`.
 *
 * Operator semantics:
 * - `equalsTo` equality; `in` membership in a list (an empty list matches nothing).
 * - `greaterThan` `atLeast` `lessThan` `atMost`: ordered comparison (numbers, dates, times, text).
 * - `contains` `startsWith` `endsWith`: case-insensitive substring tests on text; the value is
 *   literal (`%` and `_` have no special meaning).
 * - `like`: case-insensitive SQL LIKE pattern (`%` any run, `_` one character).
 * - `isNull`: `true` matches null, `false` non-null (nullable fields only).
 * - `includes` (one value), `includesAll`, `includesAny` (lists): multiSelect values, or the
 *   UUIDs of a `records` relation.
 * - `has`: see above. `empty`: see above.
 *
 * @module
 */

/** Every operator of the filter object form. */
export const WHERE_OPERATORS = [
  "equalsTo",
  "in",
  "greaterThan",
  "atLeast",
  "lessThan",
  "atMost",
  "contains",
  "startsWith",
  "endsWith",
  "like",
  "isNull",
  "includes",
  "includesAll",
  "includesAny",
  "has",
  "empty",
] as const;

/** One operator name of the filter object form. */
export type WhereOperator = typeof WHERE_OPERATORS[number];

/** A scalar value a condition compares against. */
export type WhereScalar = string | number | boolean | null;

/** Operators applied to one field; several AND together. */
export type FieldCondition = {
  [K in WhereOperator]?: K extends "has" ? WhereFilter
    : WhereScalar | WhereScalar[];
};

/** A filter object (see the module documentation). */
export interface WhereFilter {
  /** Any of the filters matches. */
  or?: WhereFilter[];
  /** The filter does not match. */
  not?: WhereFilter;
  /** A field name mapped to a literal (equality) or to operators. */
  [field: string]:
    | WhereScalar
    | FieldCondition
    | WhereFilter
    | WhereFilter[]
    | undefined;
}

/** The storage kinds every field type maps to; operators are allowed per kind. */
export type FieldKind =
  | "text"
  | "integer"
  | "number"
  | "boolean"
  | "date"
  | "dateTime"
  | "time"
  | "select"
  | "multiSelect"
  | "record"
  | "records"
  | "file"
  | "files";

/** Which operators each field kind accepts (`isNull` only on nullable fields, `UUID` takes `equalsTo` and `in`). */
export const OPERATORS_BY_KIND: Readonly<
  Record<FieldKind, readonly WhereOperator[]>
> = Object.freeze({
  text: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "contains",
    "startsWith",
    "endsWith",
    "like",
    "isNull",
  ],
  integer: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "isNull",
  ],
  number: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "isNull",
  ],
  boolean: ["equalsTo", "isNull"],
  date: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "isNull",
  ],
  dateTime: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "isNull",
  ],
  time: [
    "equalsTo",
    "in",
    "greaterThan",
    "atLeast",
    "lessThan",
    "atMost",
    "isNull",
  ],
  select: ["equalsTo", "in", "isNull"],
  multiSelect: ["includes", "includesAll", "includesAny", "empty"],
  record: ["equalsTo", "in", "isNull", "has", "empty"],
  records: ["includes", "includesAll", "includesAny", "has", "empty"],
  file: ["isNull", "has"],
  files: ["has", "empty"],
});
