/**
 * Default storage per field kind: the column's SQL type per dialect and the conversions
 * between JS values and database values. `records` has no column (junction table).
 *
 * @module
 */

import type { FieldKind } from "../where.ts";
import type { SqlDialect } from "../db/open_database.ts";

/** Column type and conversions of one kind; a missing conversion is the identity. */
export interface KindStorage {
  /** SQL type of the column per dialect (`null`: the kind has no column). */
  readonly columnType: (dialect: SqlDialect) => string | null;
  /** JS → database. */
  readonly toDb?: (value: unknown, dialect: SqlDialect) => unknown;
  /** Database → JS. */
  readonly fromDb?: (value: unknown, dialect: SqlDialect) => unknown;
}

/** Every field kind. */
export const FIELD_KINDS: readonly FieldKind[] = Object.freeze([
  "text",
  "integer",
  "number",
  "boolean",
  "date",
  "dateTime",
  "time",
  "select",
  "multiSelect",
  "record",
  "records",
  "file",
  "files",
]);

const text = (): string => "text";
const bigint = (dialect: SqlDialect): string =>
  dialect === "postgres" ? "bigint" : "integer";

/** PostgreSQL hands back unsafe `int8` values as bigint: refuse to read them as numbers. */
function safeInteger(value: unknown): unknown {
  if (typeof value === "bigint") {
    throw new RangeError(
      `The database returned the integer ${value}, beyond Number.MAX_SAFE_INTEGER`,
    );
  }
  return value;
}

/** A list stored as JSON (`jsonb` on PostgreSQL). */
const jsonList: KindStorage = {
  columnType: (dialect) => dialect === "postgres" ? "jsonb" : "text",
  toDb: (value) =>
    value === null || value === undefined ? null : JSON.stringify(value),
  fromDb: (value) =>
    typeof value === "string" ? JSON.parse(value) : value ?? null,
};

/** Storage of every kind. */
export const KIND_STORAGE: Readonly<Record<FieldKind, KindStorage>> = Object
  .freeze({
    text: { columnType: text },
    integer: { columnType: bigint, fromDb: safeInteger },
    number: {
      columnType: (dialect) =>
        dialect === "postgres" ? "double precision" : "real",
    },
    boolean: {
      columnType: (dialect) => dialect === "postgres" ? "boolean" : "integer",
      toDb: (value, dialect) =>
        dialect === "sqlite" && typeof value === "boolean"
          ? (value ? 1 : 0)
          : value,
      fromDb: (value) =>
        value === null || value === undefined ? null : Boolean(value),
    },
    date: { columnType: text },
    dateTime: { columnType: bigint, fromDb: safeInteger },
    time: { columnType: text },
    select: { columnType: text },
    multiSelect: jsonList,
    record: { columnType: text },
    records: { columnType: () => null },
    file: { columnType: text },
    files: jsonList,
  });
