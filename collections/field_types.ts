/**
 * Field types: how a kind of value is sanitized, validated and stored. The built-in types
 * are in `types/`; layers add their own with {@link defineFieldType} and pass them to the
 * data layer as `fieldTypes`.
 *
 * @module
 */

import type {
  FieldContext,
  FieldOptions,
  Sanitizer,
  Validator,
} from "./define.ts";
import type { FieldKind } from "./where.ts";
import type { SqlDialect } from "./db/open_database.ts";
import { FIELD_KINDS, KIND_STORAGE } from "./types/_storage.ts";
import { textType } from "./types/text.ts";
import { integerType } from "./types/integer.ts";
import { numberType } from "./types/number.ts";
import { booleanType } from "./types/boolean.ts";
import { dateType } from "./types/date.ts";
import { dateTimeType } from "./types/date_time.ts";
import { timeType } from "./types/time.ts";
import { selectType } from "./types/select.ts";
import { multiSelectType } from "./types/multi_select.ts";
import { recordType } from "./types/record.ts";
import { recordsType } from "./types/records.ts";
import { filesType, fileType } from "./types/file.ts";

/**
 * A field type. `kind` decides storage defaults and which where-operators apply; the
 * pipeline runs the type's `sanitizers`, then its `validators`, then the field's own, and
 * `prepareForStorage` last, just before the value is stored.
 */
export interface FieldType {
  /** The name used in `field(name, …)`. */
  readonly name: string;
  /** The storage kind (see `where.ts`). */
  readonly kind: FieldKind;
  /** Run first, in order; a sanitizer must not throw on a value of the wrong JS type. */
  readonly sanitizers?: readonly Sanitizer[];
  /** Run after the sanitizers; the first refusal stops the field. */
  readonly validators?: readonly Validator[];
  /** Runs last, once every field is valid (e.g. hashing a password); may be async. */
  readonly prepareForStorage?: (
    value: unknown,
    ctx: FieldContext,
  ) => unknown | Promise<unknown>;
  /** The column's SQL type per dialect; defaults to the kind's. */
  readonly columnType?: (dialect: SqlDialect) => string;
  /** JS value → database value; defaults to the kind's. */
  readonly toDb?: (value: unknown, dialect: SqlDialect) => unknown;
  /** Database value → JS value; defaults to the kind's. */
  readonly fromDb?: (value: unknown, dialect: SqlDialect) => unknown;
  /** Option defaults for fields of this type (a field's own options win). */
  readonly defaults?: Readonly<FieldOptions>;
  /** Checks a field's options when the data layer opens; returns a problem or nothing. */
  readonly checkOptions?: (
    options: Readonly<FieldOptions>,
  ) => string | undefined;
}

/**
 * Checks a field type and returns it frozen.
 *
 * @example
 * ```ts
 * import { defineFieldType } from "@strata/strata";
 * const slug = defineFieldType({
 *   name: "slug",
 *   kind: "text",
 *   sanitizers: [(v) => typeof v === "string" ? v.trim().toLowerCase() : v],
 *   validators: [
 *     (v) => typeof v === "string" && /^[a-z0-9-]+$/.test(v) ? undefined : "invalidSlug",
 *   ],
 * });
 * ```
 */
export function defineFieldType(type: FieldType): FieldType {
  if (type === null || typeof type !== "object") {
    throw new TypeError("A field type must be an object");
  }
  if (
    typeof type.name !== "string" || !/^[A-Za-z][A-Za-z0-9_]*$/.test(type.name)
  ) {
    throw new TypeError(
      `Invalid field type name ${JSON.stringify(type.name)}`,
    );
  }
  if (!FIELD_KINDS.includes(type.kind)) {
    throw new TypeError(
      `Field type "${type.name}" has unknown kind ${JSON.stringify(type.kind)}`,
    );
  }
  for (const key of ["sanitizers", "validators"] as const) {
    const list = type[key];
    if (
      list !== undefined &&
      (!Array.isArray(list) || list.some((fn) => typeof fn !== "function"))
    ) {
      throw new TypeError(
        `"${key}" of field type "${type.name}" must be an array of functions`,
      );
    }
  }
  for (
    const key of [
      "prepareForStorage",
      "columnType",
      "toDb",
      "fromDb",
      "checkOptions",
    ] as const
  ) {
    if (type[key] !== undefined && typeof type[key] !== "function") {
      throw new TypeError(
        `"${key}" of field type "${type.name}" must be a function`,
      );
    }
  }
  return Object.freeze({
    ...type,
    ...(type.sanitizers
      ? { sanitizers: Object.freeze([...type.sanitizers]) }
      : {}),
    ...(type.validators
      ? { validators: Object.freeze([...type.validators]) }
      : {}),
  });
}

/** The storage of a kind: column type and conversions (used when a type names none). */
export { KIND_STORAGE };

/**
 * The built-in field types: `text integer number boolean date dateTime time select
 * multiSelect record records file files`.
 *
 * @example
 * ```ts
 * import { builtinFieldTypes } from "./field_types.ts";
 * builtinFieldTypes.integer.kind; // "integer"
 * ```
 */
export const builtinFieldTypes: Readonly<Record<string, FieldType>> = Object
  .freeze({
    text: textType,
    integer: integerType,
    number: numberType,
    boolean: booleanType,
    date: dateType,
    dateTime: dateTimeType,
    time: timeType,
    select: selectType,
    multiSelect: multiSelectType,
    record: recordType,
    records: recordsType,
    file: fileType,
    files: filesType,
  });
