/**
 * The data layer: opens the database, resolves and syncs the collections, and hands out
 * query builders. `transaction(fn)` runs `fn` in one database transaction; every `query()`
 * inside it (found through AsyncLocalStorage) joins that transaction.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { Kysely, Transaction } from "kysely";
import type { CollectionDefinition } from "./define.ts";
import { builtinFieldTypes, type FieldType } from "./field_types.ts";
import { openDatabase, type SqlDialect } from "./db/open_database.ts";
import { bootError } from "./db/busy.ts";
import { type DirectReader, directReader } from "./db/sqlite_dialect.ts";
import { resolveCollections, type ResolvedCollection } from "./resolve.ts";
import { syncSchema } from "./schema_sync.ts";
import { type MessageRenderer, renderDefaultMessage } from "./messages.ts";
import { createQueryBuilder, type QueryBuilder } from "./query_builder.ts";
import type { LayerContext, QueryFilter } from "./_context.ts";

export type { QueryFilter, QueryFilterContext } from "./_context.ts";

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
}

/** An open data layer. */
export interface DataLayer {
  /** Kysely over the database, for anything the builder does not do. */
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
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
   * join it; for raw Kysely inside, use {@link DataLayer.executor}.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** The current transaction's Kysely, or `db` outside a transaction. */
  // deno-lint-ignore no-explicit-any
  executor(): Kysely<any>;
  /**
   * Synchronous reads on the SQLite connection for the hottest statements (see
   * {@link DirectReader}); `null` on PostgreSQL.
   */
  readonly reader: DirectReader | null;
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
  // deno-lint-ignore no-explicit-any
  const storage = new AsyncLocalStorage<{ trx: Transaction<any> }>();
  const opened = await openDatabase({
    url: options.url,
    pgSchema: options.pgSchema,
    busyTimeout: options.busyTimeout,
    holdsConnection: () => storage.getStore() !== undefined,
  });
  const { db, dialect } = opened;
  let collections: Map<string, ResolvedCollection>;
  try {
    collections = resolveCollections(options.collections, types, dialect);
    await syncSchema(db, dialect, collections, {
      force: options.sync?.force,
      defaultLocale,
    });
  } catch (error) {
    await db.destroy();
    throw bootError(error);
  }
  const now = options.now ?? Date.now;
  const reader = dialect === "sqlite" ? await directReader(db) : null;
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
    executor: () => storage.getStore()?.trx ?? db,
    inTransaction: () => storage.getStore() !== undefined,
    transaction<T>(fn: () => Promise<T>): Promise<T> {
      if (storage.getStore()) return fn();
      return db.transaction().execute((trx) => storage.run({ trx }, fn));
    },
    query: (name: string) => createQueryBuilder(ctx, ctx.collection(name)),
    collection(name: string): ResolvedCollection {
      const collection = collections.get(name);
      if (!collection) throw new Error(`Unknown collection ${name}`);
      return collection;
    },
  };
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
    reader,
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
