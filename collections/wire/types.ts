/**
 * The shapes the wire query grammar reads (collections, guards, context) and
 * produces (plans).
 *
 * @module
 */

import type { FieldKind, WhereFilter } from "../where.ts";

/** What the wire grammar needs to know about one field. */
export interface WireField {
  /** The storage kind, which decides the operators and value types. */
  kind: FieldKind;
  /** Whether the field may hold null (`isNull` is allowed only then). */
  nullable: boolean;
  /** `false` for a write-only field, which queries treat as non-existent. */
  readable: boolean;
  /** Whether the field holds one value per locale. */
  translatable: boolean;
  /** `record`/`records`: the target collection's name. */
  target?: string;
  /** `select`/`multiSelect`: the allowed values (informational). */
  choices?: readonly string[];
  /** Whether `search=` matches the field (a text field with `search: true`). */
  search?: boolean;
}

/** What the wire grammar needs to know about one collection. */
export interface WireCollection {
  /** The collection name (`Posts`). */
  name: string;
  /** The defined fields by name; `UUID` is implicit and not listed. */
  fields: Readonly<Record<string, WireField>>;
}

/** Limits on queries that arrive over HTTP (config key `query.guards`). */
export interface QueryGuards {
  /** Conditions (operators, equalities, `or`, `not`, `has`) in one `where`. */
  maxConditions: number;
  /** Nested `has` levels. */
  maxHasDepth: number;
  /** Items in an `in` / `includesAll` / `includesAny` list. */
  maxInLength: number;
  /** Entries in `select`. */
  maxSelect: number;
  /** Entries in `order`. */
  maxOrder: number;
  /** Entries in `populate`. */
  maxPopulate: number;
  /** Relation steps in one `populate` path (`comments.author` is 2). */
  maxPopulateDepth: number;
  /** UTF-8 bytes of one string value in `where`. */
  maxValueBytes: number;
  /** UTF-8 bytes of a `like` / `contains` / `startsWith` / `endsWith` value. */
  maxPatternBytes: number;
  /** `like` / `contains` / `startsWith` / `endsWith` conditions in one `where`. */
  maxPatterns: number;
  /** UTF-8 bytes of all pattern values of one `where` together. */
  maxPatternBytesTotal: number;
  /** UTF-8 bytes of a `search` text. */
  maxSearchBytes: number;
  /** Rows of an unpaginated list; a larger `limit` is lowered to it. */
  maxLimit: number;
  /** Rows of one page; a larger `perPage` is lowered to it. */
  maxPerPage: number;
}

/**
 * The default {@link QueryGuards}.
 *
 * @example
 * ```ts
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const guards = { ...DEFAULT_QUERY_GUARDS, maxLimit: 500 };
 * ```
 */
export const DEFAULT_QUERY_GUARDS: Readonly<QueryGuards> = Object.freeze({
  maxConditions: 100,
  maxHasDepth: 8,
  maxInLength: 2000,
  maxSelect: 200,
  maxOrder: 10,
  maxPopulate: 20,
  maxPopulateDepth: 2,
  maxValueBytes: 4096,
  maxPatternBytes: 512,
  maxPatterns: 8,
  maxPatternBytesTotal: 1024,
  maxSearchBytes: 256,
  maxLimit: 2000,
  maxPerPage: 500,
});

/** Everything a parse needs besides the input. */
export interface WireContext {
  /** The collection the request addresses. */
  collection: WireCollection;
  /** Looks up `has` and `populate` targets. */
  collectionByName(name: string): WireCollection | undefined;
  /**
   * Fields a caller may reach in a collection (the scope's `select`);
   * `undefined` means all readable fields plus `UUID`. A write-only field
   * stays unreachable even when listed.
   */
  reachable?(collection: string): ReadonlySet<string> | undefined;
  /** The guards in force. */
  guards: QueryGuards;
  /** The configured content locales (canonical BCP-47). */
  locales: readonly string[];
}

/** One relation to load, with the relations to load below it. */
export interface PopulatePlan {
  /** The `record` / `records` field. */
  field: string;
  /** Relations of the target collection to load in turn. */
  populate: PopulatePlan[];
}

/** One order key. */
export interface OrderKey {
  /** The field to order by. */
  field: string;
  /** `true` for a leading `-`. */
  descending: boolean;
}

/** A validated `search` of a list read. */
export interface SearchPlan {
  /** The text as given (the data layer parses its syntax). */
  text: string;
  /** The searchable fields the caller may read: the ones matched and ranked. */
  fields: string[];
}

/** A validated list read. */
export interface ListPlan {
  /** A full-text search (ordered by relevance unless `order` says otherwise). */
  search?: SearchPlan;
  /** The normalised filter, keyed to the collection's fields. */
  where?: WhereFilter;
  /** Fields to return, duplicates removed; absent means all reachable. */
  select?: string[];
  /** Order keys, most significant first. */
  order: OrderKey[];
  /** Relations to load. */
  populate: PopulatePlan[];
  /** Unpaginated: the row cap (never above `maxLimit`). */
  limit?: number;
  /** Unpaginated: rows to skip. */
  offset?: number;
  /** Paginated: the 1-based page. */
  page?: number;
  /** Paginated: rows per page (never above `maxPerPage`). */
  perPage?: number;
  /** Whether the answer is the paginated envelope. */
  paginated: boolean;
  /** The canonical locale asked for. */
  locale?: string;
}

/** A validated by-UUID read. */
export interface ReadOnePlan {
  /** Fields to return, duplicates removed; absent means all reachable. */
  select?: string[];
  /** Relations to load. */
  populate: PopulatePlan[];
  /** The canonical locale asked for. */
  locale?: string;
}

/** The validated params of a create or update (`?locale=` only). */
export interface WriteParams {
  /** The canonical locale to write. */
  locale?: string;
}
