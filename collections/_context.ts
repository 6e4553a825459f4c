/**
 * The internal state shared by the query builder, the write pipeline and schema sync.
 *
 * @module
 */

import type { Kysely } from "kysely";
import type { SqlDialect } from "./db/open_database.ts";
import type { ConnectionReader } from "./db/sqlite_dialect.ts";
import type { ResolvedCollection } from "./resolve.ts";
import type { MessageRenderer } from "./messages.ts";
import type { WhereFilter } from "./where.ts";
import type { QueryBuilder } from "./query_builder.ts";
import type { ChangeEntry, ChangeOp } from "./changes/log.ts";
import type { BeforeWriteHooks } from "./changes/before_write.ts";
import type { FileRow } from "./files/table.ts";

/** The acting user of a write, as the `record:actor` hook names it. */
export interface ActingUser {
  /** The user's UUID (the change log's `actor`). */
  readonly UUID: string;
}

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

/** How reads name the URL of a stored file. */
export interface FileUrls {
  /** The URL a read hands out for `row` (signed and expiring for a private file). */
  urlOf(row: FileRow): string;
}

/** A record's INSERT, as {@link LayerContext.insertAlone} runs it. */
export interface LoneInsert {
  /**
   * The INSERT in the dialect's parameters (`?`, or `$1`…`$n` on PostgreSQL). On SQLite it
   * ends with its `values (…)`; on PostgreSQL, for a create with a change to log, it writes
   * the log row too (`createWithLogText`).
   */
  readonly sql: string;
  /** Its parameters. */
  readonly parameters: readonly unknown[];
}

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
  /** SQLite: reads on the connection without Kysely's round trip (see `ConnectionReader`). */
  readonly reader?: ConnectionReader | null;
  /** Runs `fn` in a transaction (joining the current one). */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `insert` as a write of its own (never call it inside a transaction), with the
   * change-log row of `change` when given, and tells the change feed once it committed. On
   * SQLite it commits at the end of this turn of the event loop with the other such writes
   * of the turn (`ConnectionReader.writeSoon`) when nobody holds the connection, else in a
   * transaction that waits its turn; on PostgreSQL it is one statement, which writes the
   * log row of `change` itself (see {@link LoneInsert.sql}). A failure is thrown
   * as the database reported it, and nothing of it stays.
   */
  insertAlone(
    insert: LoneInsert,
    change: ChangeEntry | null,
  ): Promise<void>;
  /**
   * Queues a change of the current transaction for the change log (nothing for a collection
   * without events); written just before commit, dropped if the transaction rolls back.
   */
  recordChange(
    collection: ResolvedCollection,
    uuid: string,
    op: ChangeOp,
    changed: readonly string[],
    locale: string | null,
  ): void;
  /** The `record:beforeWrite` functions, or `null` when none is registered. */
  readonly beforeWrite: BeforeWriteHooks | null;
  /** Collections whose deleted records keep their last state (see `changes/deleted.ts`). */
  readonly keepDeleted: ReadonlySet<string>;
  /** The acting user of the current write (the request's signed-in user), or `null`. */
  actingUser(): ActingUser | null;
  /** How many changes the current transaction queued (a savepoint's mark). */
  changeMark(): number;
  /** Drops the changes queued after `mark` (its savepoint rolled back). */
  rewindChanges(mark: number): void;
  /** File URLs, or `null` for plain unsigned paths. */
  readonly files: FileUrls | null;
  /** Opens a query builder. */
  query(collection: string): QueryBuilder;
  /** The collection, or a thrown error naming it. */
  collection(name: string): ResolvedCollection;
}
