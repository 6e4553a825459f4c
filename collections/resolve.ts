/**
 * Resolves collection definitions against the field types and the dialect, once, when the
 * data layer opens: tables, columns, conversions, indexes, incoming references and the
 * default read plan. Nothing here runs per query.
 *
 * @module
 */

import type {
  CollectionDefinition,
  FieldOptions,
  RecordOnDelete,
  Sanitizer,
  Validator,
} from "./define.ts";
import type { FieldType } from "./field_types.ts";
import type { FieldKind } from "./where.ts";
import type { SqlDialect } from "./db/open_database.ts";
import { KIND_STORAGE } from "./types/_storage.ts";

/** Where a field's value lives. */
export type FieldStorageKind = "column" | "translation" | "junction";

/** A field with its type and every option settled. */
export interface ResolvedField {
  /** Field name (also its column name). */
  readonly name: string;
  /** The collection it belongs to. */
  readonly collection: string;
  /** Its field type. */
  readonly type: FieldType;
  /** The type's kind. */
  readonly kind: FieldKind;
  /** Options: the type's defaults under the field's own. */
  readonly options: Readonly<FieldOptions>;
  /** `null` accepted. */
  readonly nullable: boolean;
  /** Returned by reads (false: write-only). */
  readonly readable: boolean;
  /** Accepted in write input. */
  readonly writable: boolean;
  /** Refused in update input. */
  readonly immutable: boolean;
  /** One value per locale. */
  readonly translatable: boolean;
  /** Unique (per locale when translatable). */
  readonly unique: boolean;
  /** Indexed. */
  readonly index: boolean;
  /** Full-text searchable (text fields only). */
  readonly search: boolean;
  /** A default exists. */
  readonly hasDefault: boolean;
  /** Where the value lives (see {@link FieldStorageKind}). */
  readonly storage: FieldStorageKind;
  /** SQL column type (`null` for junction fields). */
  readonly columnType: string | null;
  /** Target collection of `record` / `records`. */
  readonly target?: string;
  /** Delete behaviour of `record` / `records`. */
  readonly onDelete?: RecordOnDelete;
  /** Junction table of `records`. */
  readonly junctionTable?: string;
  /** Type sanitizers. */
  readonly typeSanitizers: readonly Sanitizer[];
  /** Type validators. */
  readonly typeValidators: readonly Validator[];
  /** Field sanitizers. */
  readonly fieldSanitizers: readonly Sanitizer[];
  /** Field validators. */
  readonly fieldValidators: readonly Validator[];
  /** JS → database (null passes through). */
  readonly toDb: (value: unknown) => unknown;
  /** Database → JS, or `undefined` for the identity. */
  readonly fromDb: ((value: unknown) => unknown) | undefined;
  /** A fresh default value (the default function called, or the value). */
  defaultValue(): unknown;
}

/** An index to keep in sync. */
export interface ResolvedIndex {
  /** Index name (unique within the database schema). */
  readonly name: string;
  /** Table it indexes. */
  readonly table: string;
  /** Columns in order. */
  readonly columns: readonly string[];
  /** A unique index. */
  readonly unique: boolean;
}

/** A field of some collection that points at another collection. */
export interface IncomingReference {
  /** The collection holding the field. */
  readonly from: ResolvedCollection;
  /** The `record` or `records` field. */
  readonly field: ResolvedField;
}

/** A collection ready for queries. */
export interface ResolvedCollection {
  /** Collection name. */
  readonly name: string;
  /** The definition it was resolved from. */
  readonly definition: CollectionDefinition;
  /** Main table. */
  readonly table: string;
  /** Translation table, or `null` without translatable fields. */
  readonly translationTable: string | null;
  /** Fields by name. */
  readonly fields: ReadonlyMap<string, ResolvedField>;
  /** Fields in definition order. */
  readonly fieldList: readonly ResolvedField[];
  /** Fields stored in the main table. */
  readonly columnFields: readonly ResolvedField[];
  /** Fields stored in the translation table. */
  readonly translatedFields: readonly ResolvedField[];
  /** `records` fields. */
  readonly junctionFields: readonly ResolvedField[];
  /** Readable fields, in order (the default selection). */
  readonly readableFields: readonly ResolvedField[];
  /** `record` and `records` fields (their targets are checked on write). */
  readonly relationFields: readonly ResolvedField[];
  /** Fields whose type prepares values for storage. */
  readonly preparedFields: readonly ResolvedField[];
  /** Full-text searchable fields, in order (see `search/`). */
  readonly searchFields: readonly ResolvedField[];
  /**
   * The most UTF-8 bytes a value of each indexed text field may hold (field name → bytes),
   * so that its index entry fits PostgreSQL's B-tree limit; enforced on every database.
   */
  readonly indexedTextLimits: ReadonlyMap<string, number>;
  /** Groups that must be unique together (single unique fields included). */
  readonly uniqueGroups: readonly (readonly ResolvedField[])[];
  /** Indexes of the main and translation tables. */
  readonly indexes: readonly ResolvedIndex[];
  /** Fields elsewhere pointing here; filled once every collection is resolved. */
  readonly incoming: IncomingReference[];
  /** Whether its writes produce change events (`events` of the definition). */
  readonly events: boolean;
}

const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/**
 * A PostgreSQL-safe index name: readable when short, hashed when longer than 63 bytes.
 *
 * @example
 * ```ts
 * import { indexName } from "./resolve.ts";
 * indexName("Posts", ["title"], false); // "Posts__title__idx"
 * ```
 */
export function indexName(
  table: string,
  columns: readonly string[],
  unique: boolean,
): string {
  const name = `${table}__${columns.join("_")}__${unique ? "uniq" : "idx"}`;
  if (name.length <= 63) return name;
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `${name.slice(0, 50)}_${hash.toString(16).padStart(8, "0")}`;
}

/** A field's definition refused when the data layer opens. */
function invalid(collection: string, name: string, problem: string): Error {
  return new Error(`Invalid field ${collection}.${name}: ${problem}`);
}

/** `toDb` of a kind without a conversion: `undefined` is stored as null. */
const storedAsIs = (value: unknown): unknown => value ?? null;

/**
 * The sanitizers or validators of a field or type without any: one frozen list for all, where
 * a list each made four arrays a field at boot.
 */
const NONE: readonly never[] = Object.freeze([]);

/**
 * Whether `list` is a plain array of primitives without holes or other own keys (the
 * default of a `records`, `multiSelect` or tags field), whose spread copy is what
 * `structuredClone` would make of it: such a default is copied by spreading, for each
 * create and for the boot's check of defaults alike.
 */
function isPrimitiveList(list: readonly unknown[]): boolean {
  if (Object.getPrototypeOf(list) !== Array.prototype) return false;
  if (Object.keys(list).length !== list.length) return false;
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (item !== null && typeof item === "object") return false;
    if (typeof item === "function" || typeof item === "symbol") return false;
  }
  return true;
}

/** `defaultValue` of a field without a default. */
const noDefault = (): unknown => undefined;

function resolveField(
  collection: string,
  name: string,
  definition: FieldOptions & { type: string },
  types: Readonly<Record<string, FieldType>>,
  dialect: SqlDialect,
): ResolvedField {
  const type = Object.hasOwn(types, definition.type)
    ? types[definition.type]
    : undefined;
  if (!type) {
    throw new Error(
      `Unknown field type "${definition.type}" for ${collection}.${name}`,
    );
  }
  // The type's defaults under the field's own options, minus `type`: one object filled key
  // by key (a rest pattern and two spreads made three objects per field).
  const filled: Record<string, unknown> = {};
  const defaults = type.defaults as Record<string, unknown> | undefined;
  if (defaults !== undefined) {
    for (const key in defaults) filled[key] = defaults[key];
  }
  const own = definition as unknown as Record<string, unknown>;
  for (const key in own) if (key !== "type") filled[key] = own[key];
  const options = filled as FieldOptions;
  const problem = type.checkOptions?.(options);
  if (problem) throw invalid(collection, name, problem);
  const kind = type.kind;
  const relation = kind === "record" || kind === "records";
  if (relation && options.translatable) {
    throw invalid(collection, name, "relations cannot be translatable");
  }
  if (
    (kind === "multiSelect" || kind === "records" || kind === "files") &&
    (options.unique || options.index)
  ) {
    throw invalid(
      collection,
      name,
      `"unique" and "index" do not apply to lists`,
    );
  }
  if (options.search && kind !== "text") {
    throw invalid(collection, name, `"search" applies to text fields only`);
  }
  const nullable = options.nullable === true;
  if (options.onDelete === "setNull" && !nullable) {
    throw invalid(collection, name, `onDelete "setNull" needs nullable: true`);
  }
  const hasDefault = "default" in options && options.default !== undefined;
  const writable = options.writable !== false;
  if (!writable && !nullable && !hasDefault) {
    throw invalid(
      collection,
      name,
      `writable: false needs nullable: true or a default`,
    );
  }
  const storage: FieldStorageKind = kind === "records"
    ? "junction"
    : options.translatable
    ? "translation"
    : "column";
  const kindStorage = KIND_STORAGE[kind];
  const columnType = storage === "junction"
    ? null
    : (type.columnType ?? kindStorage.columnType)(dialect);
  const toDbRaw = type.toDb ?? kindStorage.toDb;
  const fromDbRaw = type.fromDb ?? kindStorage.fromDb;
  const toDb = toDbRaw
    ? (value: unknown) =>
      value === null || value === undefined ? null : toDbRaw(value, dialect)
    : storedAsIs;
  const fromDb = fromDbRaw
    ? (value: unknown) =>
      value === null || value === undefined ? null : fromDbRaw(value, dialect)
    : undefined;
  const fallback = options.default;
  const defaultValue = fallback === undefined
    ? noDefault
    : typeof fallback === "function"
    ? () => (fallback as () => unknown)()
    : Array.isArray(fallback) && isPrimitiveList(fallback)
    ? () => [...fallback]
    : fallback !== null && typeof fallback === "object"
    ? () => structuredClone(fallback)
    : () => fallback;
  const onDelete: RecordOnDelete | undefined = kind === "record"
    ? options.onDelete ?? "restrict"
    : kind === "records"
    ? options.onDelete ?? "cascade"
    : undefined;
  return Object.freeze({
    name,
    collection,
    type,
    kind,
    options: Object.freeze(options),
    nullable,
    readable: options.readable !== false,
    writable,
    immutable: options.immutable === true,
    translatable: storage === "translation",
    unique: options.unique === true,
    index: options.index === true,
    search: options.search === true,
    hasDefault,
    storage,
    columnType,
    target: relation ? options.collection : undefined,
    onDelete,
    junctionTable: storage === "junction"
      ? `${collection}__${name}`
      : undefined,
    typeSanitizers: type.sanitizers ?? NONE,
    typeValidators: type.validators ?? NONE,
    fieldSanitizers: options.sanitizers ?? NONE,
    fieldValidators: options.validators ?? NONE,
    toDb,
    fromDb,
    defaultValue,
  });
}

/** What {@link addIndex} fills while a collection is resolved. */
interface IndexTarget {
  readonly name: string;
  readonly translationTable: string | null;
  readonly indexes: ResolvedIndex[];
  readonly uniqueGroups: ResolvedField[][];
  readonly indexedTextLimits: Map<string, number>;
}

function fieldNames(group: readonly ResolvedField[]): string {
  let names = group[0].name;
  for (let i = 1; i < group.length; i++) names += `, ${group[i].name}`;
  return names;
}

function addIndex(
  target: IndexTarget,
  group: ResolvedField[],
  unique: boolean,
): void {
  const { name } = target;
  limitIndexedText(group, target.indexedTextLimits);
  let translated = 0;
  let junction = false;
  for (let i = 0; i < group.length; i++) {
    const field = group[i];
    if (field.translatable) translated++;
    if (field.storage === "junction") junction = true;
  }
  if (translated > 0 && translated < group.length) {
    throw new Error(
      `Collection ${name}: an index cannot mix translatable and plain fields (${
        fieldNames(group)
      })`,
    );
  }
  if (junction) {
    throw new Error(
      `Collection ${name}: records fields cannot be indexed (${
        fieldNames(group)
      })`,
    );
  }
  const table = translated > 0 ? target.translationTable! : name;
  // A translatable unique holds per locale. Lists order by their keys, then by UUID: ending
  // the index in UUID lets one index scan answer an ordered, limited list without sorting
  // the rows that tie. The columns are written into an array of their number: pushed, each
  // index's array took room for 17.
  const first = translated > 0 && unique ? 1 : 0;
  const last = translated === 0 && !unique ? 1 : 0;
  const columns: string[] = new Array(first + group.length + last);
  if (first) columns[0] = "locale";
  for (let i = 0; i < group.length; i++) columns[first + i] = group[i].name;
  if (last) columns[first + group.length] = "UUID";
  target.indexes.push({
    name: indexName(table, columns, unique),
    table,
    columns,
    unique,
  });
  if (unique) target.uniqueGroups.push(group);
}

function addIndexes(
  target: IndexTarget,
  groups: readonly (readonly string[])[] | undefined,
  fields: ReadonlyMap<string, ResolvedField>,
  unique: boolean,
): void {
  if (groups === undefined) return;
  for (let g = 0; g < groups.length; g++) {
    const names = groups[g];
    const group: ResolvedField[] = [];
    for (let i = 0; i < names.length; i++) {
      const field = fields.get(names[i]);
      if (!field) {
        throw new Error(
          `Collection ${target.name}: unknown field ${names[i]} in index`,
        );
      }
      group.push(field);
    }
    addIndex(target, group, unique);
  }
}

// Loops here count instead of using for…of: this runs cold at boot, where each for…of step
// allocated an iterator result (a fifth of what resolving 100 collections allocated).
function resolveCollection(
  name: string,
  definition: CollectionDefinition,
  types: Readonly<Record<string, FieldType>>,
  dialect: SqlDialect,
): ResolvedCollection {
  if (!COLLECTION_NAME.test(name) || name.includes("__")) {
    throw new Error(
      `Invalid collection name ${
        JSON.stringify(name)
      }: use a letter then letters, digits or single underscores (at most 40)`,
    );
  }
  if (!definition || typeof definition.fields !== "object") {
    throw new Error(`Collection ${name} has no fields`);
  }
  // One pass sorts the fields into every list the queries use: at boot this runs cold, once
  // per field of every collection, where a pass per list cost several times as much.
  const fieldList: ResolvedField[] = [];
  const fields = new Map<string, ResolvedField>();
  const columnFields: ResolvedField[] = [];
  const translatedFields: ResolvedField[] = [];
  const junctionFields: ResolvedField[] = [];
  const readableFields: ResolvedField[] = [];
  const relationFields: ResolvedField[] = [];
  const preparedFields: ResolvedField[] = [];
  const searchFields: ResolvedField[] = [];
  const definitions = definition.fields;
  const names = Object.keys(definitions);
  for (let i = 0; i < names.length; i++) {
    const fieldName = names[i];
    const field = resolveField(
      name,
      fieldName,
      definitions[fieldName],
      types,
      dialect,
    );
    fieldList.push(field);
    fields.set(fieldName, field);
    if (field.storage === "column") columnFields.push(field);
    else if (field.storage === "translation") translatedFields.push(field);
    else junctionFields.push(field);
    if (field.readable) readableFields.push(field);
    if (field.target !== undefined) relationFields.push(field);
    if (field.type.prepareForStorage) preparedFields.push(field);
    if (field.search) searchFields.push(field);
  }
  const target: IndexTarget = {
    name,
    translationTable: translatedFields.length > 0
      ? `${name}__translations`
      : null,
    indexes: [],
    uniqueGroups: [],
    indexedTextLimits: new Map<string, number>(),
  };
  for (let i = 0; i < fieldList.length; i++) {
    const field = fieldList[i];
    if (field.unique) addIndex(target, [field], true);
    else if (field.index || field.kind === "record") {
      addIndex(target, [field], false);
    }
  }
  addIndexes(target, definition.indexes, fields, false);
  addIndexes(target, definition.uniques, fields, true);
  const { indexes } = target;
  const seen = new Set<string>();
  for (let i = 0; i < indexes.length; i++) {
    const index = indexes[i];
    if (seen.has(index.name)) {
      throw new Error(
        `Collection ${name}: the index over ${
          index.columns.filter((c) => c !== "UUID").join(", ")
        } is declared twice`,
      );
    }
    seen.add(index.name);
  }
  return {
    name,
    definition,
    table: name,
    translationTable: target.translationTable,
    fields,
    fieldList,
    columnFields,
    translatedFields,
    junctionFields,
    readableFields,
    relationFields,
    preparedFields,
    searchFields,
    indexedTextLimits: target.indexedTextLimits,
    uniqueGroups: target.uniqueGroups,
    indexes,
    incoming: [],
    events: definition.events !== false,
  };
}

/**
 * PostgreSQL refuses a B-tree entry over 2704 bytes (an error at write time, where SQLite has
 * no limit). The text fields of one index share a budget kept safely below it, after room
 * for the index's other columns (UUIDs, numbers, the locale); each field keeps its smallest
 * share over the indexes it is in.
 */
const INDEX_ENTRY_BUDGET = 2400;
const OTHER_COLUMN_BYTES = 48;

function limitIndexedText(
  group: readonly ResolvedField[],
  limits: Map<string, number>,
): void {
  let texts = 0;
  for (let i = 0; i < group.length; i++) {
    if (group[i].kind === "text") texts++;
  }
  if (texts === 0) return;
  // One more column's room than the group has: the tuple header, and the locale column a
  // translatable unique adds.
  const others = group.length - texts + 1;
  const share = Math.floor(
    (INDEX_ENTRY_BUDGET - others * OTHER_COLUMN_BYTES) / texts,
  );
  for (let i = 0; i < group.length; i++) {
    const field = group[i];
    if (field.kind !== "text") continue;
    limits.set(field.name, Math.min(limits.get(field.name) ?? share, share));
  }
}

/**
 * Resolves every collection and links references (each target learns who points at it).
 *
 * @example
 * ```ts
 * import { resolveCollections } from "./resolve.ts";
 * import { builtinFieldTypes } from "./field_types.ts";
 * import { defineCollection, field } from "./define.ts";
 * const map = resolveCollections(
 *   { Posts: defineCollection({ fields: { title: field("text") } }) },
 *   builtinFieldTypes,
 *   "sqlite",
 * );
 * map.get("Posts")!.table; // "Posts"
 * ```
 */
export function resolveCollections(
  definitions: Readonly<Record<string, CollectionDefinition>>,
  types: Readonly<Record<string, FieldType>>,
  dialect: SqlDialect,
): Map<string, ResolvedCollection> {
  const resolved = new Map<string, ResolvedCollection>();
  const list: ResolvedCollection[] = [];
  const lowerNames = new Map<string, string>();
  const names = Object.keys(definitions);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    // PostgreSQL identifiers are case-sensitive when quoted, but tools are not; a second
    // collection differing only by case is almost surely a mistake.
    const lower = name.toLowerCase();
    if (lowerNames.has(lower)) {
      throw new Error(
        `Collections ${lowerNames.get(lower)} and ${name} differ only by case`,
      );
    }
    lowerNames.set(lower, name);
    const collection = resolveCollection(
      name,
      definitions[name],
      types,
      dialect,
    );
    resolved.set(name, collection);
    list.push(collection);
  }
  for (let c = 0; c < list.length; c++) {
    const collection = list[c];
    const relations = collection.relationFields;
    for (let i = 0; i < relations.length; i++) {
      const field = relations[i];
      if (!field.target) continue;
      const target = resolved.get(field.target);
      if (!target) {
        throw new Error(
          `${collection.name}.${field.name} references unknown collection ${field.target}`,
        );
      }
      target.incoming.push({ from: collection, field });
    }
  }
  return resolved;
}
