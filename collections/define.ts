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

// How checkOptions's loop checks an option's value (choices, collection, onDelete, accept and
// the presentation options are checked after it).
const ANY = 0;
const BOOLEAN = 1;
const BOUND = 2;
const FUNCTIONS = 3;
const PRESENTATION = 4;
type OptionCheck =
  | typeof ANY
  | typeof BOOLEAN
  | typeof BOUND
  | typeof FUNCTIONS
  | typeof PRESENTATION;

/** Every field option, with the check of its value in checkOptions's loop. */
const OPTION_CHECKS: ReadonlyMap<string, OptionCheck> = new Map<
  string,
  OptionCheck
>([
  ["nullable", BOOLEAN],
  ["default", ANY],
  ["unique", BOOLEAN],
  ["index", BOOLEAN],
  ["readable", BOOLEAN],
  ["writable", BOOLEAN],
  ["immutable", BOOLEAN],
  ["translatable", BOOLEAN],
  ["min", BOUND],
  ["max", BOUND],
  ["allowEmpty", BOOLEAN],
  ["search", BOOLEAN],
  ["sanitizers", FUNCTIONS],
  ["validators", FUNCTIONS],
  ["choices", ANY],
  ["collection", ANY],
  ["onDelete", ANY],
  ["maxSize", ANY],
  ["accept", ANY],
  ["private", BOOLEAN],
  ...FIELD_PRESENTATION_KEYS.map((key): [string, OptionCheck] => [
    key,
    PRESENTATION,
  ]),
]);

// The list checks skip holes, as `some` did.
function isFunctionList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) {
    if (i in value && typeof value[i] !== "function") return false;
  }
  return true;
}

function isChoiceList(choices: unknown): boolean {
  if (!Array.isArray(choices) || choices.length === 0) return false;
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i];
    if (i in choices && (typeof choice !== "string" || choice === "")) {
      return false;
    }
  }
  return new Set(choices).size === choices.length;
}

const MIME_TYPE = /^[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+)$/i;

function isMimeTypeList(accept: unknown): boolean {
  if (!Array.isArray(accept)) return false;
  for (let i = 0; i < accept.length; i++) {
    const type = accept[i];
    if (i in accept && (typeof type !== "string" || !MIME_TYPE.test(type))) {
      return false;
    }
  }
  return true;
}

/** The message of an option whose value {@link checkOptions}'s loop refuses. */
function badValue(key: string, check: OptionCheck, where: string): string {
  return check === BOOLEAN
    ? `Option "${key}" on ${where} must be a boolean`
    : check === BOUND
    ? `Option "${key}" on ${where} must be a finite number or a string`
    : `Option "${key}" on ${where} must be an array of functions`;
}

// One counting pass over the keys a field sets, one map lookup each: this runs cold for every
// field of every collection file, where two for…of passes allocated an iterator result at
// every step. An unknown option is still reported before a bad value, whatever their order.
function checkOptions(options: FieldOptions, where: string): void {
  const keys = Object.keys(options);
  let refused: string | undefined;
  let presentation = false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const check = OPTION_CHECKS.get(key);
    if (check === undefined) {
      if (key === "type") continue;
      throw new TypeError(`Unknown option "${key}" on ${where}`);
    }
    if (check === ANY || refused !== undefined) continue;
    if (check === PRESENTATION) {
      presentation = true;
      continue;
    }
    const value = options[key as keyof FieldOptions];
    if (value === undefined) continue;
    if (
      check === BOOLEAN
        ? typeof value !== "boolean"
        : check === BOUND
        ? !(typeof value === "string" ||
          (typeof value === "number" && Number.isFinite(value)))
        : !isFunctionList(value)
    ) {
      refused = badValue(key, check, where);
    }
  }
  if (refused !== undefined) throw new TypeError(refused);
  if (
    typeof options.min === "number" && typeof options.max === "number" &&
    options.min > options.max
  ) {
    throw new TypeError(`Option "min" on ${where} is greater than "max"`);
  }
  if (options.choices !== undefined && !isChoiceList(options.choices)) {
    throw new TypeError(
      `Option "choices" on ${where} must be a non-empty list of distinct non-empty strings`,
    );
  }
  if (
    options.collection !== undefined &&
    (typeof options.collection !== "string" || options.collection === "")
  ) {
    throw new TypeError(
      `Option "collection" on ${where} must be a collection name`,
    );
  }
  const { onDelete } = options;
  if (
    onDelete !== undefined && onDelete !== "setNull" &&
    onDelete !== "cascade" && onDelete !== "restrict"
  ) {
    throw new TypeError(
      `Option "onDelete" on ${where} must be "setNull", "cascade" or "restrict"`,
    );
  }
  if (options.accept !== undefined && !isMimeTypeList(options.accept)) {
    throw new TypeError(
      `Option "accept" on ${where} must be a list of MIME types such as "image/png" or "image/*"`,
    );
  }
  if (onDelete === "setNull" && options.nullable !== true) {
    throw new TypeError(`onDelete "setNull" on ${where} needs nullable: true`);
  }
  if (presentation) checkFieldPresentation(options, where);
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

// Copies the presentation options a definition sets into `out`, lists copied and frozen.
function copyPresentation(
  definition: CollectionPresentationOptions,
  out: Record<string, unknown>,
): void {
  for (let i = 0; i < COLLECTION_PRESENTATION_KEYS.length; i++) {
    const key = COLLECTION_PRESENTATION_KEYS[i];
    const value = (definition as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
}

/** The options of a collection definition besides its presentation. */
const COLLECTION_KEYS: ReadonlySet<string> = new Set([
  "fields",
  "api",
  "indexes",
  "uniques",
  "events",
]);

const PRESENTATION_KEYS: ReadonlySet<string> = new Set(
  COLLECTION_PRESENTATION_KEYS,
);

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
  // Counting loops, and the presentation checked only when set: this runs cold once per
  // collection file at boot, where for…of and Object.entries allocated at every step.
  const keys = Object.keys(definition);
  let presentation = false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (COLLECTION_KEYS.has(key)) continue;
    if (!PRESENTATION_KEYS.has(key)) {
      throw new TypeError(`Unknown collection option "${key}"`);
    }
    presentation = true;
  }
  const { fields } = definition;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) {
    throw new TypeError('A collection definition needs a "fields" object');
  }
  const frozenFields: Record<string, FieldDefinition> = {};
  const names = Object.keys(fields);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const def = fields[name];
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
  if (presentation) checkCollectionPresentation(definition, frozenFields);
  // Filled in the order the keys always had: fields, presentation, api, indexes, uniques,
  // events.
  const result: Record<string, unknown> = {
    fields: Object.freeze(frozenFields),
  };
  if (presentation) copyPresentation(definition, result);
  if (definition.api !== undefined) result.api = definition.api;
  if (definition.indexes !== undefined) {
    result.indexes = checkIndexList(
      definition.indexes,
      "indexes",
      frozenFields,
    );
  }
  if (definition.uniques !== undefined) {
    result.uniques = checkIndexList(
      definition.uniques,
      "uniques",
      frozenFields,
    );
  }
  if (definition.events !== undefined) {
    result.events = checkEvents(definition.events);
  }
  return Object.freeze(result) as unknown as CollectionDefinition<F>;
}
