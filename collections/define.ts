/**
 * Collection and field definitions: `defineCollection({ fields, api?, indexes?, uniques? })`
 * and `field(type, options)`. Shapes are checked here; field types are resolved when the
 * data layer opens (layers may add types).
 *
 * @module
 */

import type { QueryBuilder } from "./query_builder.ts";
import {
  checkCollectionPresentation,
  checkFieldPresentation,
  COLLECTION_PRESENTATION_KEYS,
  type CollectionPresentationOptions,
  FIELD_PRESENTATION_KEYS,
  type FieldPresentationOptions,
} from "./presentation.ts";

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
export interface FieldOptions extends FieldPresentationOptions {
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
  /** Text fields only: full-text searchable (`search=` on list reads, `query().search()`). */
  search?: boolean;
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
  /** `file` / `files`: the largest file in bytes or as `'10mb'` (default `'10mb'`). */
  maxSize?: number | string;
  /** `file` / `files`: accepted MIME types or globs such as `image/*` (default any). */
  accept?: readonly string[];
  /** `file` / `files`: served only through signed, expiring URLs (default false). */
  private?: boolean;
}

/** A field: its type name and options (see {@link field}). */
export type FieldDefinition = Readonly<FieldOptions & { type: string }>;

/** Field name → field, as a collection definition holds them. */
export type FieldMap = Readonly<Record<string, FieldDefinition>>;

/**
 * A collection definition (see {@link defineCollection}); `F` keeps the field map's types
 * for `RecordOf`, `CreateInputOf`, `UpdateInputOf` and `query(definition)`.
 */
export interface CollectionDefinition<F extends FieldMap = FieldMap>
  extends CollectionPresentationOptions {
  /** Field name → field. */
  readonly fields: F;
  /** The collections API options; kept as is for the HTTP layer. */
  readonly api?: unknown;
  /** Extra (composite) indexes: lists of field names. */
  readonly indexes?: readonly (readonly string[])[];
  /** Extra (composite) unique constraints: lists of field names. */
  readonly uniques?: readonly (readonly string[])[];
  /**
   * Whether writes to the collection produce change events (record hooks, realtime
   * streams); default `true`. The framework's own bookkeeping collections set `false`.
   */
  readonly events?: boolean;
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
  "search",
  "sanitizers",
  "validators",
  "choices",
  "collection",
  "onDelete",
  "maxSize",
  "accept",
  "private",
  ...FIELD_PRESENTATION_KEYS,
]);

const BOOLEAN_OPTIONS: ReadonlySet<string> = new Set([
  "nullable",
  "unique",
  "index",
  "readable",
  "writable",
  "immutable",
  "translatable",
  "allowEmpty",
  "search",
  "private",
]);

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
 * import { field } from "@strata/strata";
 * const title = field("text", { max: 200, translatable: true });
 * const author = field("record", { collection: "Users", onDelete: "setNull", nullable: true });
 * ```
 */
export function field<
  const T extends string,
  const O extends FieldOptions = Record<never, never>,
>(
  type: T,
  options: O & FieldOptions = {} as O,
): Readonly<NoInfer<O> & { type: T }> {
  if (typeof type !== "string" || type === "") {
    throw new TypeError("A field type must be a non-empty string");
  }
  if (options === null || typeof options !== "object") {
    throw new TypeError(`Options of a ${type} field must be an object`);
  }
  // The options are checked by defineCollection, which knows the field's name.
  const definition: FieldOptions & { type: string } = { ...options, type };
  if (options.sanitizers) {
    definition.sanitizers = Object.freeze([...options.sanitizers]);
  }
  if (options.validators) {
    definition.validators = Object.freeze([...options.validators]);
  }
  if (options.choices) definition.choices = Object.freeze([...options.choices]);
  if (Array.isArray(options.accept)) {
    definition.accept = Object.freeze([...options.accept]);
  }
  return Object.freeze(definition) as Readonly<O & { type: T }>;
}

/**
 * A field's options refused by {@link defineCollection}; `field` names the field, so a loader
 * that knows the collection can say `Posts.views`.
 */
export class FieldOptionError extends TypeError {
  /** The field whose options are refused. */
  readonly field: string;

  /** Creates the error for `field`. */
  constructor(field: string, message: string) {
    super(message);
    this.name = "FieldOptionError";
    this.field = field;
  }
}

function checkOptions(options: FieldOptions, where: string): void {
  const keys = Object.keys(options);
  for (const key of keys) {
    if (!OPTION_KEYS.has(key) && key !== "type") {
      throw new TypeError(`Unknown option "${key}" on ${where}`);
    }
  }
  // Only the keys a field sets are looked at: reading each known option by a computed key,
  // mostly absent, made this check the costliest part of loading a collection file.
  for (const key of keys) {
    const value = options[key as keyof FieldOptions];
    if (value === undefined) continue;
    if (BOOLEAN_OPTIONS.has(key)) {
      if (typeof value !== "boolean") {
        throw new TypeError(`Option "${key}" on ${where} must be a boolean`);
      }
    } else if (key === "min" || key === "max") {
      if (
        !(typeof value === "string" ||
          (typeof value === "number" && Number.isFinite(value)))
      ) {
        throw new TypeError(
          `Option "${key}" on ${where} must be a finite number or a string`,
        );
      }
    } else if (key === "sanitizers" || key === "validators") {
      if (
        !Array.isArray(value) ||
        value.some((fn: unknown) => typeof fn !== "function")
      ) {
        throw new TypeError(
          `Option "${key}" on ${where} must be an array of functions`,
        );
      }
    }
  }
  if (
    typeof options.min === "number" && typeof options.max === "number" &&
    options.min > options.max
  ) {
    throw new TypeError(`Option "min" on ${where} is greater than "max"`);
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
  const { accept } = options;
  if (
    accept !== undefined &&
    (!Array.isArray(accept) ||
      accept.some((type) =>
        typeof type !== "string" ||
        !/^[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+)$/i.test(type)
      ))
  ) {
    throw new TypeError(
      `Option "accept" on ${where} must be a list of MIME types such as "image/png" or "image/*"`,
    );
  }
  if (options.onDelete === "setNull" && options.nullable !== true) {
    throw new TypeError(`onDelete "setNull" on ${where} needs nullable: true`);
  }
  checkFieldPresentation(options, where);
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

// The presentation options a definition sets, lists copied and frozen.
function presentationOf(
  definition: CollectionPresentationOptions,
): CollectionPresentationOptions {
  const out: Record<string, unknown> = {};
  for (const key of COLLECTION_PRESENTATION_KEYS) {
    const value = (definition as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return out as CollectionPresentationOptions;
}

function checkEvents(value: unknown): boolean {
  if (typeof value !== "boolean") {
    throw new TypeError('The collection option "events" must be true or false');
  }
  return value;
}

/**
 * Checks a collection definition and returns it frozen. Field names: a letter then letters,
 * digits or `_`; `UUID` and names starting with `_` are reserved.
 *
 * @example
 * ```ts
 * import { defineCollection, field } from "@strata/strata";
 * export default defineCollection({
 *   fields: {
 *     title: field("text", { max: 200 }),
 *     views: field("integer", { default: 0, min: 0 }),
 *   },
 *   api: { read: "public" },
 * });
 * ```
 */
export function defineCollection<const F extends FieldMap>(
  definition: CollectionDefinition<F>,
): CollectionDefinition<F> {
  if (definition === null || typeof definition !== "object") {
    throw new TypeError("A collection definition must be an object");
  }
  for (const key of Object.keys(definition)) {
    if (
      !["fields", "api", "indexes", "uniques", "events"].includes(key) &&
      !COLLECTION_PRESENTATION_KEYS.includes(key)
    ) {
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
    try {
      checkOptions(def, `field "${name}"`);
    } catch (error) {
      throw new FieldOptionError(name, (error as Error).message);
    }
    frozenFields[name] = Object.isFrozen(def) ? def : Object.freeze({ ...def });
  }
  checkCollectionPresentation(definition, frozenFields);
  const result: CollectionDefinition<F> = {
    fields: Object.freeze(frozenFields) as F,
    ...presentationOf(definition),
    ...(definition.api !== undefined ? { api: definition.api } : {}),
    ...(definition.indexes !== undefined
      ? { indexes: checkIndexList(definition.indexes, "indexes", frozenFields) }
      : {}),
    ...(definition.uniques !== undefined
      ? { uniques: checkIndexList(definition.uniques, "uniques", frozenFields) }
      : {}),
    ...(definition.events !== undefined
      ? { events: checkEvents(definition.events) }
      : {}),
  };
  return Object.freeze(result);
}
