/**
 * Collection and field definitions: `defineCollection({ fields, api?, indexes?, uniques? })`
 * and `field(type, options)`. Shapes are checked here; field types are resolved when the
 * data layer opens (layers may add types).
 *
 * @module
 */

import type { QueryBuilder } from "./query_builder.ts";

/** What a write is doing. */
export type WriteOperation = "create" | "update";

/** What sanitizers and validators receive besides the value. */
export interface FieldContext {
  /** The collection being written. */
  readonly collection: string;
  /** The field being checked. */
  readonly field: string;
  /** The error path of the field (its name). */
  readonly path: string;
  /** `create` or `update`. */
  readonly operation: WriteOperation;
  /** The locale translatable values are written at. */
  readonly locale: string;
  /** The whole write input as given (before sanitizing). */
  readonly input: Readonly<Record<string, unknown>>;
  /** The field's resolved options (type defaults merged under the field's own). */
  readonly options: Readonly<FieldOptions>;
  /** Opens a query builder inside the write's transaction. */
  query(collection: string): QueryBuilder;
}

/**
 * A refusal: a message key (rendered through the data layer's `messages`) or a literal
 * message, optionally with parameters for the template.
 */
export type ValidationIssue =
  | string
  | { key: string; params?: Record<string, unknown> };

/** Rewrites a value before it is validated further; may be async. */
export type Sanitizer = (value: unknown, ctx: FieldContext) => unknown;

/** Returns `undefined` to accept, or a {@link ValidationIssue} to refuse; may be async. */
export type Validator = (
  value: unknown,
  ctx: FieldContext,
) =>
  | ValidationIssue
  | undefined
  | Promise<ValidationIssue | undefined>;

/** What a `record` field does when its target is deleted. */
export type RecordOnDelete = "setNull" | "cascade" | "restrict";

/** Options of {@link field}. */
export interface FieldOptions {
  /** `null` is a valid value; the field is not required. */
  nullable?: boolean;
  /** Value used on create when the key is absent; a function is called per record. */
  default?: unknown;
  /** No two records hold the same value (per locale when translatable). */
  unique?: boolean;
  /** Create a database index over the field. */
  index?: boolean;
  /** `false`: write-only, never read back unless selected explicitly by trusted code. */
  readable?: boolean;
  /** `false`: server-computed, refused in write input (it needs `nullable` or a `default`). */
  writable?: boolean;
  /** Refused in update input once created. */
  immutable?: boolean;
  /** One value per content locale, stored in the collection's translation table. */
  translatable?: boolean;
  /** Minimum: length (text), value (numbers, dates, times), count (lists). */
  min?: number | string;
  /** Maximum: length (text), value (numbers, dates, times), count (lists). */
  max?: number | string;
  /** `text` only: accept `''` (refused by default). */
  allowEmpty?: boolean;
  /** Run after the type's own sanitizers and validators. */
  sanitizers?: readonly Sanitizer[];
  /** Run after the field's sanitizers; the first refusal stops the field. */
  validators?: readonly Validator[];
  /** `select` / `multiSelect`: the allowed values. */
  choices?: readonly string[];
  /** `record` / `records`: the target collection. */
  collection?: string;
  /**
   * `record`: `setNull` (needs `nullable`), `cascade` (delete this record too) or
   * `restrict` (default: the target's delete answers 409). `records`: `cascade` (default:
   * the link is removed from the list) or `restrict`.
   */
  onDelete?: RecordOnDelete;
}

/** A field: its type name and options (see {@link field}). */
export type FieldDefinition = Readonly<FieldOptions & { type: string }>;

/** A collection definition (see {@link defineCollection}). */
export interface CollectionDefinition {
  /** Field name → field. */
  readonly fields: Readonly<Record<string, FieldDefinition>>;
  /** The collections API options; kept as is for the HTTP layer. */
  readonly api?: unknown;
  /** Extra (composite) indexes: lists of field names. */
  readonly indexes?: readonly (readonly string[])[];
  /** Extra (composite) unique constraints: lists of field names. */
  readonly uniques?: readonly (readonly string[])[];
}

const OPTION_KEYS: ReadonlySet<string> = new Set([
  "nullable",
  "default",
  "unique",
  "index",
  "readable",
  "writable",
  "immutable",
  "translatable",
  "min",
  "max",
  "allowEmpty",
  "sanitizers",
  "validators",
  "choices",
  "collection",
  "onDelete",
]);

const BOOLEAN_OPTIONS = [
  "nullable",
  "unique",
  "index",
  "readable",
  "writable",
  "immutable",
  "translatable",
  "allowEmpty",
] as const;

/** Names no field may take: they are reserved or prototype members. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  "UUID",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "or",
  "not",
]);

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;

/**
 * Whether `name` may name a field: a letter then letters, digits or `_` (no `__`), at most
 * 48 characters, not reserved (`UUID`, `or`, `not`, prototype names).
 *
 * @example
 * ```ts
 * import { isValidFieldName } from "./define.ts";
 * isValidFieldName("title"); // true
 * isValidFieldName("_updatedAt"); // false
 * ```
 */
export function isValidFieldName(name: string): boolean {
  return FIELD_NAME.test(name) && !name.includes("__") &&
    !RESERVED_NAMES.has(name);
}

/**
 * Builds a field definition. The type is resolved when the data layer opens.
 *
 * @example
 * ```ts
 * import { field } from "./define.ts";
 * const title = field("text", { max: 200, translatable: true });
 * const author = field("record", { collection: "Users", onDelete: "setNull", nullable: true });
 * ```
 */
export function field(
  type: string,
  options: FieldOptions = {},
): FieldDefinition {
  if (typeof type !== "string" || type === "") {
    throw new TypeError("A field type must be a non-empty string");
  }
  if (options === null || typeof options !== "object") {
    throw new TypeError(`Options of a ${type} field must be an object`);
  }
  checkOptions(options, `${type} field`);
  const definition: FieldOptions & { type: string } = { ...options, type };
  if (options.sanitizers) {
    definition.sanitizers = Object.freeze([...options.sanitizers]);
  }
  if (options.validators) {
    definition.validators = Object.freeze([...options.validators]);
  }
  if (options.choices) definition.choices = Object.freeze([...options.choices]);
  return Object.freeze(definition);
}

function checkOptions(options: FieldOptions, where: string): void {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key) && key !== "type") {
      throw new TypeError(`Unknown option "${key}" on ${where}`);
    }
  }
  for (const key of BOOLEAN_OPTIONS) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean") {
      throw new TypeError(`Option "${key}" on ${where} must be a boolean`);
    }
  }
  for (const key of ["min", "max"] as const) {
    const value = options[key];
    if (
      value !== undefined &&
      !(typeof value === "string" ||
        (typeof value === "number" && Number.isFinite(value)))
    ) {
      throw new TypeError(
        `Option "${key}" on ${where} must be a finite number or a string`,
      );
    }
  }
  if (
    typeof options.min === "number" && typeof options.max === "number" &&
    options.min > options.max
  ) {
    throw new TypeError(`Option "min" on ${where} is greater than "max"`);
  }
  for (const key of ["sanitizers", "validators"] as const) {
    const list = options[key];
    if (
      list !== undefined &&
      (!Array.isArray(list) || list.some((fn) => typeof fn !== "function"))
    ) {
      throw new TypeError(
        `Option "${key}" on ${where} must be an array of functions`,
      );
    }
  }
  const { choices } = options;
  if (choices !== undefined) {
    if (
      !Array.isArray(choices) || choices.length === 0 ||
      choices.some((choice) => typeof choice !== "string" || choice === "") ||
      new Set(choices).size !== choices.length
    ) {
      throw new TypeError(
        `Option "choices" on ${where} must be a non-empty list of distinct non-empty strings`,
      );
    }
  }
  if (
    options.collection !== undefined &&
    (typeof options.collection !== "string" || options.collection === "")
  ) {
    throw new TypeError(
      `Option "collection" on ${where} must be a collection name`,
    );
  }
  if (
    options.onDelete !== undefined &&
    !["setNull", "cascade", "restrict"].includes(options.onDelete)
  ) {
    throw new TypeError(
      `Option "onDelete" on ${where} must be "setNull", "cascade" or "restrict"`,
    );
  }
  if (options.onDelete === "setNull" && options.nullable !== true) {
    throw new TypeError(`onDelete "setNull" on ${where} needs nullable: true`);
  }
  if (
    options.writable === false && options.nullable !== true &&
    !("default" in options)
  ) {
    throw new TypeError(
      `${where} is writable: false and needs nullable: true or a default`,
    );
  }
}

function checkIndexList(
  list: unknown,
  key: "indexes" | "uniques",
  fields: Record<string, FieldDefinition>,
): readonly (readonly string[])[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) {
    throw new TypeError(`"${key}" must be a list of field name lists`);
  }
  return Object.freeze(list.map((names, i) => {
    if (
      !Array.isArray(names) || names.length === 0 ||
      new Set(names).size !== names.length
    ) {
      throw new TypeError(
        `${key}[${i}] must be a non-empty list of distinct field names`,
      );
    }
    for (const name of names) {
      if (typeof name !== "string" || !Object.hasOwn(fields, name)) {
        throw new TypeError(
          `${key}[${i}] names unknown field ${JSON.stringify(name)}`,
        );
      }
    }
    return Object.freeze([...names] as string[]);
  }));
}

/**
 * Checks a collection definition and returns it frozen. Field names: a letter then letters,
 * digits or `_`; `UUID` and names starting with `_` are reserved.
 *
 * @example
 * ```ts
 * import { defineCollection, field } from "./define.ts";
 * export default defineCollection({
 *   fields: {
 *     title: field("text", { max: 200 }),
 *     views: field("integer", { default: 0, min: 0 }),
 *   },
 *   api: { read: "public" },
 * });
 * ```
 */
export function defineCollection(
  definition: CollectionDefinition,
): CollectionDefinition {
  if (definition === null || typeof definition !== "object") {
    throw new TypeError("A collection definition must be an object");
  }
  for (const key of Object.keys(definition)) {
    if (!["fields", "api", "indexes", "uniques"].includes(key)) {
      throw new TypeError(`Unknown collection option "${key}"`);
    }
  }
  const { fields } = definition;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw new TypeError('A collection definition needs a "fields" object');
  }
  const frozenFields: Record<string, FieldDefinition> = {};
  for (const [name, def] of Object.entries(fields)) {
    if (!isValidFieldName(name)) {
      throw new TypeError(
        `Invalid field name ${
          JSON.stringify(name)
        }: use a letter then letters, digits or single underscores (UUID, or, not and names starting with "_" are reserved)`,
      );
    }
    if (
      def === null || typeof def !== "object" || typeof def.type !== "string"
    ) {
      throw new TypeError(
        `Field "${name}" must be built with field(type, options)`,
      );
    }
    checkOptions(def, `field "${name}"`);
    frozenFields[name] = Object.isFrozen(def) ? def : Object.freeze({ ...def });
  }
  const result: CollectionDefinition = {
    fields: Object.freeze(frozenFields),
    ...(definition.api !== undefined ? { api: definition.api } : {}),
    ...(definition.indexes !== undefined
      ? { indexes: checkIndexList(definition.indexes, "indexes", frozenFields) }
      : {}),
    ...(definition.uniques !== undefined
      ? { uniques: checkIndexList(definition.uniques, "uniques", frozenFields) }
      : {}),
  };
  return Object.freeze(result);
}
