/**
 * The data layer: opens the database, resolves and syncs the collections, and hands out
 * query builders. `transaction(fn)` runs `fn` in one database transaction; every `query()`
 * inside it (found through AsyncLocalStorage) joins that transaction.
 *
 * @module
 */

import type { Database } from "./database.ts";
import { checkFieldDefaults } from "./check_defaults.ts";
import { CompiledQuery, type Transaction } from "kysely";
import type { CollectionDefinition } from "./define.ts";
import { builtinFieldTypes, type FieldType } from "./field_types.ts";
import {
  openDatabase,
  type OpenedDatabase,
  type SqlDialect,
} from "./db/open_database.ts";
import { bootError, isDeadlockError } from "./db/busy.ts";
import type { DirectReader } from "./db/sqlite_dialect.ts";
import { resolveCollections, type ResolvedCollection } from "./resolve.ts";
import { syncSchema } from "./schema_sync.ts";
import { type MessageRenderer, renderDefaultMessage } from "./messages.ts";
import { createQueryBuilder, type QueryBuilder } from "./query_builder.ts";
import type {
  ActingUser,
  FileUrls,
  LayerContext,
  LoneInsert,
  QueryFilter,
} from "./_context.ts";
import { filesTableStatements } from "./files/table.ts";
import type { BeforeWriteHooks } from "./changes/before_write.ts";
import {
  type ChangeEntry,
  changeLogTables,
  changeRowStatement,
  CHANGES_TABLE,
  pruneChanges,
  type Retention,
  writeChanges,
} from "./changes/log.ts";
import { ChangeFeed } from "./changes/feed.ts";
import { asyncCarrier } from "../utils/_async_carrier.ts";
import { DELETED_TABLE_STATEMENTS } from "./changes/deleted.ts";

export type {
  ActingUser,
  FileUrls,
  QueryFilter,
  QueryFilterContext,
} from "./_context.ts";
import { backgroundInterval } from "../utils/_background_interval.ts";

/** Options of {@link openDataLayer}. */
export interface DataLayerOptions {
  /** `:memory:`, a SQLite file path (its folder is created), or `postgres://…`. */
  url: string;
  /** PostgreSQL: a schema to create if missing and use through `search_path`. */
  pgSchema?: string;
  /** Collection name → definition (already merged across layers). */
  collections: Readonly<Record<string, CollectionDefinition>>;
  /** Field types added by layers (by name; they may not replace built-in ones). */
  fieldTypes?: Readonly<Record<string, FieldType>>;
  /** Content locales (BCP-47; canonicalised); default `["en"]`. */
  locales?: readonly string[];
  /** The default content locale; default the first locale. */
  defaultLocale?: string;
  /** Schema sync: `force` applies destructive changes. */
  sync?: { force?: boolean };
  /** The `query:filter` hooks, ANDed into every read. */
  queryFilters?: readonly QueryFilter[];
  /** Renders validation messages; default English. */
  messages?: MessageRenderer;
  /** The clock (epoch ms), for `_updatedAt`. */
  now?: () => number;
  /**
   * How long a write waits for a lock before answering 503, in milliseconds (SQLite
   * `busy_timeout`, PostgreSQL `lock_timeout`); default 2000.
   */
  busyTimeout?: number;
  /**
   * PostgreSQL: how many distinct statement texts are sent as named prepared statements
   * (parsed and planned once per connection); 0 sends every statement unnamed. Default 200.
   */
  preparedStatements?: number;
  /** The acting user of a write (change log `actor`, `record:beforeWrite` `user`); default none. */
  actingUser?: () => ActingUser | null;
  /** The `record:beforeWrite` functions. */
  beforeWrite?: BeforeWriteHooks;
  /** The change log and its feed. */
  events?: ChangeLogOptions;
  /**
   * Collections whose deleted records keep their last stored state (in `_strata_deleted`,
   * written in the delete's transaction), for consumers that announce deletes with it.
   */
  keepDeleted?: readonly string[];
  /** How reads name file URLs (the app signs private files); default plain paths. */
  files?: FileUrls;
  /**
   * Statements making tables of other parts of the framework (`CREATE … IF NOT EXISTS`, the
   * mail outbox's), run by schema sync in its transaction and part of its fingerprint.
   */
  ownTables?: readonly string[];
}

/** How the change log is kept and read (`events` of the config). */
export interface ChangeLogOptions {
  /** Changes older than this many ms are pruned; default 24 h. */
  retention?: number;
  /** At most this many changes are kept; default 1,000,000. */
  maxRows?: number;
  /** How often other processes' writes are looked for on SQLite, in ms; default 100. */
  pollInterval?: number;
}

/** How often an instance tries to prune the change log (one instance does per period). */
const PRUNE_EVERY = 60_000;

/** An open data layer. */
export interface DataLayer {
  /** The raw database (Kysely at run time, see {@link Database}). */
  readonly db: Database;
  /** Which database. */
  readonly dialect: SqlDialect;
  /** The resolved collections. */
  readonly collections: ReadonlyMap<string, ResolvedCollection>;
  /** Content locales in configured order. */
  readonly locales: readonly string[];
  /** The default content locale. */
  readonly defaultLocale: string;
  /** A query builder over a collection (throws for an unknown name). */
  query(name: string): QueryBuilder;
  /**
   * Runs `fn` in one transaction (a nested call joins the outer one). Builders used inside
   * join it; for raw Kysely inside, use {@link DataLayer.executor}. A transaction the
   * database rolls back as a deadlock (PostgreSQL) runs `fn` once more before failing.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** The current transaction's handle, or `db` outside a transaction. */
  executor(): Database;
  /**
   * Calls `fn` once the current transaction commits (never when it rolls back), or at once
   * outside a transaction: for work that must only see committed rows, such as waking a
   * worker that reads them.
   */
  afterCommit(fn: () => void): void;
  /**
   * Synchronous reads on the SQLite connection for the hottest statements (see
   * {@link DirectReader}); `null` on PostgreSQL.
   */
  readonly reader: DirectReader | null;
  /** The change feed: committed changes of every instance, read from the change log. */
  readonly feed: ChangeFeed;
  /**
   * Prunes the change log now if no instance did within the last minute (see `events`);
   * `false` when no collection has events (there is no change log).
   */
  pruneChanges(): Promise<boolean>;
  /** The acting user of the current request (the signed-in user), or `null`. */
  actingUser(): ActingUser | null;
  /** Closes the database. */
  close(): Promise<void>;
}

function canonicalLocales(locales: readonly string[]): string[] {
  if (!Array.isArray(locales) || locales.length === 0) {
    throw new Error("locales must be a non-empty list of locale tags");
  }
  const out: string[] = [];
  for (const tag of locales) {
    let canonical: string;
    try {
      [canonical] = Intl.getCanonicalLocales(tag);
    } catch {
      throw new Error(`Invalid locale ${JSON.stringify(tag)}`);
    }
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

/**
 * Whether any collection has a `file` or `files` field (then `_strata_files` exists).
 *
 * @example
 * ```ts ignore
 * hasFileFields(data.collections.values()); // false for an app without file fields
 * ```
 */
export function hasFileFields(
  collections: Iterable<ResolvedCollection>,
): boolean {
  for (const collection of collections) {
    if (
      collection.fieldList.some((f) => f.kind === "file" || f.kind === "files")
    ) return true;
  }
  return false;
}

/**
 * The change log's newest seq read on SQLite's own connection (`null` for an empty log,
 * `undefined` when the connection is held): at boot the first statement through Kysely, in
 * a fresh process, cost several times this read.
 */
function newestChange(reader: DirectReader): number | null | undefined {
  const rows = reader.readArrays(
    `select max("seq") from "${CHANGES_TABLE}"`,
    [],
  );
  if (rows === undefined) return undefined;
  const newest = rows[0]?.[0];
  return newest === null || newest === undefined ? null : Number(newest);
}

/**
 * An INSERT (and its change) on its own on PostgreSQL, through the pool's autocommit: kept
 * apart from openDataLayer, whose every boot parsed it on SQLite too.
 */
async function insertAloneOnPostgres(
  autocommit: NonNullable<OpenedDatabase["autocommit"]>,
  feed: ChangeFeed,
  insert: LoneInsert,
  change: ChangeEntry | null,
): Promise<void> {
  try {
    await autocommit(insert.sql, insert.parameters);
  } catch (error) {
    // Chosen as a deadlock's victim (against a larger transaction), it runs once more,
    // as a transaction of the general path does.
    if (!isDeadlockError(error)) throw error;
    await autocommit(insert.sql, insert.parameters);
  }
  if (change) {
    feed.wake();
    feed.announce();
  }
}

/**
 * Opens the data layer: the database, the collections (resolved against the field types)
 * and the schema sync.
 *
 * @example
 * ```ts
 * import { openDataLayer } from "./data_layer.ts";
 * import { defineCollection, field } from "./define.ts";
 * const data = await openDataLayer({
 *   url: ":memory:",
 *   collections: {
 *     Posts: defineCollection({ fields: { title: field("text") } }),
 *   },
 * });
 * const created = await data.query("Posts").create({ title: "Hello" });
 * await data.close();
 * ```
 */
export async function openDataLayer(
  options: DataLayerOptions,
): Promise<DataLayer> {
  const locales = canonicalLocales(options.locales ?? ["en"]);
  const defaultLocale = options.defaultLocale === undefined
    ? locales[0]
    : canonicalLocales([options.defaultLocale])[0];
  if (!locales.includes(defaultLocale)) {
    throw new Error(
      `defaultLocale ${defaultLocale} is not one of the locales (${
        locales.join(", ")
      })`,
    );
  }
  const types: Record<string, FieldType> = { ...builtinFieldTypes };
  for (const [name, type] of Object.entries(options.fieldTypes ?? {})) {
    if (Object.hasOwn(builtinFieldTypes, name)) {
      throw new Error(
        `Field type "${name}" is built in and cannot be replaced`,
      );
    }
    if (type.name !== name) {
      throw new Error(
        `Field type registered as "${name}" is named "${type.name}"`,
      );
    }
    types[name] = type;
  }
  // A carrier, not an AsyncLocalStorage: each nested AsyncLocalStorage run made every await
  // of the write beneath it dearer (see utils/_async_carrier.ts).
  const storage = asyncCarrier<
    {
      // deno-lint-ignore no-explicit-any
      trx: Transaction<any>;
      changes: ChangeEntry[];
      committed: (() => void)[];
    }
  >();
  const opened = await openDatabase({
    url: options.url,
    pgSchema: options.pgSchema,
    busyTimeout: options.busyTimeout,
    preparedStatements: options.preparedStatements,
    holdsConnection: () => storage.get() !== undefined,
  });
  const { db, dialect } = opened;
  let collections: Map<string, ResolvedCollection>;
  let hasEvents = false;
  try {
    collections = resolveCollections(options.collections, types, dialect);
    hasEvents = [...collections.values()].some((c) => c.events);
    checkFieldDefaults(collections.values());
    const sqlite = opened.sqlite;
    await syncSchema(db, dialect, collections, {
      force: options.sync?.force,
      defaultLocale,
      sqlite,
      ownTables: [
        // Nothing can produce a change without a collection that has events.
        ...hasEvents ? changeLogTables(dialect) : [],
        ...options.keepDeleted?.length ? DELETED_TABLE_STATEMENTS : [],
        ...hasFileFields(collections.values())
          ? filesTableStatements(dialect)
          : [],
        ...options.ownTables ?? [],
      ],
    });
  } catch (error) {
    await db.destroy();
    throw bootError(error);
  }
  const now = options.now ?? Date.now;
  const reader = opened.reader ?? null;
  const actingUser = options.actingUser ?? (() => null);
  const feed = new ChangeFeed({
    db,
    dialect,
    url: options.url,
    pollInterval: options.events?.pollInterval ?? 100,
  });
  if (hasEvents) {
    // Running from boot, the feed knows its position whenever app code subscribes:
    // `changes()` promises every change committed after its call.
    try {
      await feed.start(reader ? newestChange(reader) : undefined);
    } catch (error) {
      await feed.close();
      await db.destroy();
      throw bootError(error);
    }
  }
  const retention: Retention = {
    maxAge: options.events?.retention ?? 86_400_000,
    maxRows: options.events?.maxRows ?? 1_000_000,
  };
  const ctx: LayerContext = {
    db,
    dialect,
    collections,
    locales,
    localeOrder: new Map(locales.map((l, i) => [l, i])),
    defaultLocale,
    queryFilters: [...(options.queryFilters ?? [])],
    render: options.messages ?? renderDefaultMessage,
    now: () => Math.trunc(now()),
    executor: () => storage.get()?.trx ?? db,
    inTransaction: () => storage.get() !== undefined,
    reader,
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (storage.get()) return await fn();
      const run = async () => {
        const changes: ChangeEntry[] = [];
        const committed: (() => void)[] = [];
        let first: number | null = null;
        const result = await db.transaction().execute((trx) =>
          storage.run({ trx, changes, committed }, async () => {
            const value = await fn();
            first = await writeChanges(trx, dialect, changes);
            return value;
          }, undefined)
        );
        if (changes.length > 0) {
          if (first === null) feed.wake();
          else feed.committed(first, changes);
          feed.announce();
        }
        for (const fn of committed) fn();
        return result;
      };
      try {
        return await run();
      } catch (error) {
        // Locks are taken in one order ("Consistency" in docs/deployment.md), so two single
        // writes do not deadlock; a deadlock between larger ones rolled back all its work:
        // run it once more before answering 503.
        if (!isDeadlockError(error)) throw error;
        return await run();
      }
    },
    // Chosen once: an async function around the dialect's own would be one more promise.
    insertAlone: (insert, change) =>
      dialect === "postgres"
        ? insertAloneOnPostgres(opened.autocommit!, feed, insert, change)
        : insertAloneOnSqlite(insert, change),
    recordChange(collection, uuid, op, changed, locale): void {
      if (!collection.events) return;
      const store = storage.get();
      if (!store) throw new Error("A change is recorded outside a transaction");
      store.changes.push({
        collection: collection.name,
        uuid,
        op,
        changed,
        locale,
        actor: actingUser()?.UUID ?? null,
        at: ctx.now(),
      });
    },
    beforeWrite: options.beforeWrite ?? null,
    keepDeleted: new Set(options.keepDeleted ?? []),
    files: options.files ?? null,
    actingUser,
    changeMark: () => storage.get()?.changes.length ?? 0,
    rewindChanges(mark: number): void {
      storage.get()?.changes.splice(mark);
    },
    query: (name: string) => createQueryBuilder(ctx, ctx.collection(name)),
    collection(name: string): ResolvedCollection {
      const collection = collections.get(name);
      if (!collection) throw new Error(`Unknown collection ${name}`);
      return collection;
    },
  };
  const insertAloneOnSqlite = async (
    insert: LoneInsert,
    change: ChangeEntry | null,
  ): Promise<void> => {
    if (reader) {
      const last = await reader.writeSoon(
        change ? [insert, changeRowStatement(change)] : [insert],
      );
      if (last !== undefined) {
        if (change) feed.committed(last, [change]);
        return;
      }
    }
    // The connection is held (or another process writes): wait for it like any write.
    await ctx.transaction(async () => {
      await storage.get()!.trx.executeQuery(
        CompiledQuery.raw(insert.sql, [...insert.parameters]),
      );
      if (change) storage.get()!.changes.push(change);
    });
  };
  // Without a collection that has events the change log was not made: nothing to prune, and
  // no timer to start (the first timer of a process costs boot ~0.4 ms, loading Deno's
  // timers).
  const prune = hasEvents
    ? () => pruneChanges(db, ctx.now(), retention, PRUNE_EVERY)
    : () => Promise.resolve(false);
  const sweeper = hasEvents
    ? backgroundInterval(() => {
      prune().catch(() => {}); // the database is away: the next period tries again
    }, PRUNE_EVERY)
    : undefined;
  let closed = false;
  return {
    db,
    dialect,
    collections,
    locales,
    defaultLocale,
    query: ctx.query,
    transaction: (fn) => ctx.transaction(fn),
    executor: ctx.executor,
    afterCommit(fn: () => void): void {
      const store = storage.get();
      if (store) store.committed.push(fn);
      else fn();
    },
    reader,
    feed,
    pruneChanges: prune,
    actingUser,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      clearInterval(sweeper);
      await feed.close();
      await db.destroy();
    },
  };
}
