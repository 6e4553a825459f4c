/**
 * The internal state shared by the query builder, the write pipeline and schema sync.
 *
 * @module
 */

import type { Kysely } from "kysely";
import type { SqlDialect } from "./db/open_database.ts";
import type { ResolvedCollection } from "./resolve.ts";
import type { MessageRenderer } from "./messages.ts";
import type { WhereFilter } from "./where.ts";
import type { QueryBuilder } from "./query_builder.ts";

/** What a `query:filter` hook receives. */
export interface QueryFilterContext {
  /** The collection being read. */
  readonly collection: string;
  /** The read's own filter (all its conditions ANDed; `{}` when none). */
  readonly where: WhereFilter;
  /** The locale of the read. */
  readonly locale: string;
}

/** The `query:filter` hook: a filter ANDed into every read of the collection, or nothing. */
export type QueryFilter = (
  ctx: QueryFilterContext,
) => WhereFilter | undefined | null;

/** Internal state of one open data layer. */
export interface LayerContext {
  /** Kysely over the database (outside any transaction). */
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  /** The dialect. */
  readonly dialect: SqlDialect;
  /** Resolved collections. */
  readonly collections: ReadonlyMap<string, ResolvedCollection>;
  /** Content locales in configured order. */
  readonly locales: readonly string[];
  /** Position of each locale (for ordering `_translations`). */
  readonly localeOrder: ReadonlyMap<string, number>;
  /** The default content locale. */
  readonly defaultLocale: string;
  /** `query:filter` hooks. */
  readonly queryFilters: readonly QueryFilter[];
  /** Renders validation messages. */
  readonly render: MessageRenderer;
  /** The clock. */
  readonly now: () => number;
  /** The current transaction, or `db`. */
  // deno-lint-ignore no-explicit-any
  executor(): Kysely<any>;
  /** Whether the caller runs inside a transaction. */
  inTransaction(): boolean;
  /** Runs `fn` in a transaction (joining the current one). */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Opens a query builder. */
  query(collection: string): QueryBuilder;
  /** The collection, or a thrown error naming it. */
  collection(name: string): ResolvedCollection;
}
