/**
 * A Kysely dialect for `node:sqlite` (`DatabaseSync`): one connection guarded by a mutex (so
 * transactions are serialised), a bounded LRU cache of prepared statements, busy errors mapped
 * to 503 and integers beyond `Number.MAX_SAFE_INTEGER` refused with a clear error.
 *
 * @module
 */

import { type DatabaseSync, StatementSync } from "node:sqlite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { isBusyError, mapBusyError } from "./busy.ts";
import { Mutex } from "./_mutex.ts";
import { currentQueryTimeout } from "./deadline.ts";
import { DeadlineExceeded, runWithDeadline } from "./sqlite_functions.ts";
import type { SqliteReaders } from "./sqlite_readers.ts";
import { GroupCommit, type GroupStatement } from "./_group_commit.ts";

/** Options of {@link NodeSqliteDialect}. */
export interface NodeSqliteDialectOptions {
  /** The open database; the dialect closes it on `destroy`. */
  database: DatabaseSync;
  /** How many prepared statements to keep (least recently used are dropped); default 256. */
  statementCacheSize?: number;
  /**
   * Whether the calling async context runs inside a transaction that already holds the
   * single connection. Such a query joins it instead of waiting for the mutex (which
   * would deadlock).
   */
  holdsConnection?: () => boolean;
  /**
   * How long a write waits for another connection's write lock, in ms (default 2000). The
   * wait is asynchronous: the event loop keeps serving while it retries, and a connection
   * of the same process holding the lock can finish and release it. Set the database's own
   * `busy_timeout` low (the synchronous wait, which blocks the whole process).
   */
  busyTimeout?: number;
  /**
   * Reader threads over the same file (a file database only): reads that run past a short
   * budget, or that would wait behind another request's transaction, move there. The
   * dialect closes them on `destroy`.
   */
  readers?: SqliteReaders;
}

/** Pauses between attempts to take the write lock, in ms; the last repeats. */
const BUSY_BACKOFF = [1, 2, 5, 10, 20, 50];

interface CachedStatement {
  statement: StatementSync;
  reader: boolean;
  /** Anything but a plain `select` counts as a write (transaction control included). */
  writes: boolean;
}

const PLAIN_READ = /^\s*select\b/i;

const arrayQueries = new WeakSet<CompiledQuery>();

/**
 * Marks a plain read so that {@link NodeSqliteDialect} answers its rows as arrays of column
 * values in select order instead of objects: node:sqlite then builds no dictionary per row,
 * which measured a third of a small read's time. The caller maps the arrays itself; the
 * select's column names must be distinct. Other dialects ignore the mark.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { CompiledQuery, Kysely } from "kysely";
 * import { arrayRows, NodeSqliteDialect } from "./sqlite_dialect.ts";
 * // deno-lint-ignore no-explicit-any
 * const db = new Kysely<any>({
 *   dialect: new NodeSqliteDialect({ database: new DatabaseSync(":memory:") }),
 * });
 * const { rows } = await db.executeQuery(arrayRows(CompiledQuery.raw("select 1, 2")));
 * rows; // [[1, 2]]
 * await db.destroy();
 * ```
 */
export function arrayRows(query: CompiledQuery): CompiledQuery {
  arrayQueries.add(query);
  return query;
}

/**
 * Kysely dialect running on `node:sqlite`.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { Kysely } from "kysely";
 * import { NodeSqliteDialect } from "./sqlite_dialect.ts";
 * // deno-lint-ignore no-explicit-any
 * const db = new Kysely<any>({
 *   dialect: new NodeSqliteDialect({ database: new DatabaseSync(":memory:") }),
 * });
 * await db.destroy();
 * ```
 */
export class NodeSqliteDialect implements Dialect {
  readonly #options: NodeSqliteDialectOptions;
  #driver: NodeSqliteDriver | undefined;

  /** Creates the dialect over an open `DatabaseSync`. */
  constructor(options: NodeSqliteDialectOptions) {
    this.#options = options;
  }

  /**
   * The {@link DirectReader} on the dialect's connection (`null` where node:sqlite cannot
   * answer rows as arrays), found without a round through Kysely: in a fresh process that
   * round (acquiring and releasing a connection) was the boot's first use of Kysely's
   * executor, compiled for it alone.
   */
  get reader(): ConnectionReader | null {
    return ARRAY_ROWS ? this.#theDriver().connection : null;
  }

  /** Kysely hook: the SQLite adapter. */
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  /** Kysely hook: the driver (one per dialect: it owns the connection and its lock). */
  createDriver(): Driver {
    return this.#theDriver();
  }

  #theDriver(): NodeSqliteDriver {
    return this.#driver ??= new NodeSqliteDriver(this.#options);
  }

  /** Kysely hook: the SQLite query compiler. */
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  /** Kysely hook: the SQLite introspector. */
  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * Reads on the SQLite connection behind a Kysely instance without going through Kysely, for
 * the hottest statements (a session lookup per request). A read runs at once when nobody
 * holds the connection (or the caller's own transaction does, which it then joins): being
 * synchronous, nothing can interleave with it, exactly as if it had taken the lock. When
 * another transaction holds the connection it answers `undefined`, and the caller goes
 * through Kysely, which waits its turn.
 */
export interface DirectReader {
  /**
   * The rows of the prepared (and cached) statement `sql` as arrays of column values in
   * select order, or `undefined` when the connection is busy.
   */
  readArrays(
    sql: string,
    parameters: readonly unknown[],
  ): unknown[][] | undefined;
}

/** A {@link DirectReader} that also runs the data layer's reads (internal). */
export interface ConnectionReader extends DirectReader {
  /**
   * A plain `select` answered as Kysely would answer it outside a transaction (under the
   * query deadline in force, moved to a reader thread when it runs long or another
   * request's transaction holds the connection), without Kysely's round of acquiring and
   * releasing the connection. `undefined` when it cannot: the caller goes through Kysely.
   * Never call it from inside a transaction of the caller's own (it would not see the
   * transaction's writes); Kysely joins that transaction instead.
   */
  read<R>(query: CompiledQuery): Promise<QueryResult<R>> | undefined;
  /**
   * Runs `statements` (writes, `?` parameters) as a transaction of their own, committed with
   * the other such writes of this turn of the event loop (`GroupCommit`, _group_commit.ts).
   * Resolves with the rowid the last one inserted once committed, or `undefined` when it
   * could not run (the connection was held, or another process held the write lock):
   * nothing of it was written, and the caller goes through Kysely, which waits its turn. A
   * statement's failure is thrown (busy errors mapped to 503), and nothing of it stays.
   */
  writeSoon(statements: readonly GroupStatement[]): Promise<number | undefined>;
}

/** `setReturnArrays` (Node 24's node:sqlite), missing from the type definitions here. */
type ArrayRows = StatementSync & { setReturnArrays(enabled: boolean): void };

const ARRAY_ROWS =
  typeof (StatementSync.prototype as Partial<ArrayRows>).setReturnArrays ===
    "function";

/** The connection handed to a query that joins the transaction holding it. */
class JoinedConnection implements DatabaseConnection {
  readonly connection: NodeSqliteConnection;

  constructor(connection: NodeSqliteConnection) {
    this.connection = connection;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.connection.executeQuery(query);
  }

  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery(query);
  }
}

/**
 * How long a read under a deadline may hold the event loop before it moves to a reader
 * thread (when the database has them). Most reads finish well within it and never pay for
 * the thread hop.
 */
const MAIN_THREAD_BUDGET_MS = 10;
/**
 * Rows (or pattern steps) a read must have worked through before its budget counts: on a
 * loaded machine a short read can be paused past the budget without doing any real work.
 */
const MAIN_THREAD_BUDGET_WORK = 1000;

class NodeSqliteDriver implements Driver {
  readonly #options: NodeSqliteDialectOptions;
  readonly #mutex = new Mutex();
  readonly #connection: NodeSqliteConnection;
  readonly #joined: DatabaseConnection;

  constructor(options: NodeSqliteDialectOptions) {
    this.#options = options;
    const mutex = this.#mutex;
    this.#connection = new NodeSqliteConnection(
      options.database,
      options.statementCacheSize ?? 256,
      () => !mutex.locked || options.holdsConnection?.() === true,
      options.busyTimeout ?? 2000,
      () => !mutex.locked,
    );
    // A distinct object for joined acquisitions, so releasing it does not unlock.
    this.#joined = new JoinedConnection(this.#connection);
    this.#connection.readWithoutLock = (query) => this.readWithoutLock(query);
  }

  /** The connection (for {@link NodeSqliteDialect.reader}). */
  get connection(): NodeSqliteConnection {
    return this.#connection;
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    if (this.#mutex.locked && this.#options.holdsConnection?.()) {
      return Promise.resolve(this.#joined);
    }
    return Promise.resolve(new Lease(this.#mutex, this.#connection, this));
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof Lease) await connection.hold();
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads and
    // then writes can fail with SQLITE_BUSY without ever waiting on busy_timeout.
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof Lease) connection.release();
    return Promise.resolve();
  }

  /**
   * A plain read that needs no lock: outside a transaction the connection answers it at
   * once (a synchronous statement cannot interleave with anything); when another
   * request's transaction holds the connection, a reader thread answers it (it sees what
   * is committed, as it would after that transaction). `undefined`: wait for the lock.
   */
  readWithoutLock<R>(
    query: CompiledQuery,
  ): Promise<QueryResult<R>> | undefined {
    const readers = this.#options.readers?.available
      ? this.#options.readers
      : undefined;
    const timeout = currentQueryTimeout();
    if (this.#options.database.isTransaction) {
      return readers ? this.#offload<R>(readers, query, timeout) : undefined;
    }
    if (!readers || timeout === 0 || timeout <= MAIN_THREAD_BUDGET_MS) {
      return this.#connection.executeQuery<R>(query);
    }
    const started = performance.now();
    try {
      return Promise.resolve(
        this.#connection.runRead<R>(
          query,
          MAIN_THREAD_BUDGET_MS,
          MAIN_THREAD_BUDGET_WORK,
        ),
      );
    } catch (error) {
      if (!(error instanceof DeadlineExceeded)) {
        return Promise.reject(translateError(error));
      }
      const left = Math.max(1, timeout - (performance.now() - started));
      return this.#offload<R>(readers, query, left);
    }
  }

  async #offload<R>(
    readers: SqliteReaders,
    query: CompiledQuery,
    timeout: number,
  ): Promise<QueryResult<R>> {
    try {
      const rows = await readers.read(
        query.sql,
        bindable(query.parameters),
        timeout,
      );
      return {
        rows: (arrayQueries.has(query)
          ? rows.map((row) =>
            Object.values(row)
          )
          : rows) as R[],
      };
    } catch (error) {
      throw translateError(error);
    }
  }

  destroy(): Promise<void> {
    this.#options.readers?.close();
    this.#connection.clear();
    if (this.#options.database.isOpen) this.#options.database.close();
    return Promise.resolve();
  }
}

/**
 * The connection handed to one Kysely acquisition. It takes the connection's lock only when
 * it must: for a transaction, a write or streaming. A plain read goes through
 * {@link NodeSqliteDriver.readWithoutLock} and waits behind no other request, not even one
 * whose write waits for another process's lock.
 */
class Lease implements DatabaseConnection {
  readonly #mutex: Mutex;
  readonly #connection: NodeSqliteConnection;
  readonly #driver: NodeSqliteDriver;
  #held = false;

  constructor(
    mutex: Mutex,
    connection: NodeSqliteConnection,
    driver: NodeSqliteDriver,
  ) {
    this.#mutex = mutex;
    this.#connection = connection;
    this.#driver = driver;
  }

  /** The connection behind the lease. */
  get connection(): NodeSqliteConnection {
    return this.#connection;
  }

  async hold(): Promise<void> {
    if (this.#held) return;
    await this.#mutex.lock();
    this.#held = true;
  }

  release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.#mutex.unlock();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#held && PLAIN_READ.test(query.sql)) {
      const answered = this.#driver.readWithoutLock<R>(query);
      if (answered) return await answered;
    }
    await this.hold();
    return await this.#connection.executeQuery<R>(query);
  }

  async *streamQuery<R>(
    query: CompiledQuery,
  ): AsyncIterableIterator<QueryResult<R>> {
    await this.hold();
    yield* this.#connection.streamQuery<R>(query);
  }
}

class NodeSqliteConnection implements DatabaseConnection, ConnectionReader {
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, CachedStatement>();
  readonly #arrayCache = new Map<string, CachedStatement>();
  readonly #cacheSize: number;
  readonly #usable: () => boolean;
  /** Whether nobody holds the connection (nor waits for it). */
  readonly #free: () => boolean;
  readonly #busyTimeout: number;
  readonly #group = new GroupCommit(this);
  /** `writeGroups`' own statements, kept out of the cache's LRU bookkeeping. */
  #begin: StatementSync | undefined;
  #commit: StatementSync | undefined;
  /** The driver's lock-free read (set by the driver, which knows the reader threads). */
  readWithoutLock: <R>(
    query: CompiledQuery,
  ) => Promise<QueryResult<R>> | undefined = () => undefined;

  constructor(
    db: DatabaseSync,
    cacheSize: number,
    usable: () => boolean,
    busyTimeout: number,
    free: () => boolean,
  ) {
    this.#db = db;
    this.#free = free;
    this.#busyTimeout = busyTimeout;
    this.#cacheSize = Math.max(1, cacheSize);
    this.#usable = usable;
  }

  clear(): void {
    // Writes asked for before the database closes are written, as they would have been.
    this.#group.flush();
    this.#cache.clear();
    this.#arrayCache.clear();
    this.#begin = this.#commit = undefined;
  }

  #prepare(sql: string, arrays = false): CachedStatement {
    const cache = arrays ? this.#arrayCache : this.#cache;
    let entry = cache.get(sql);
    if (entry) {
      // Re-inserting moves the entry to the most recently used end.
      cache.delete(sql);
      cache.set(sql, entry);
      return entry;
    }
    const statement = this.#db.prepare(sql);
    // Array rows skip building an object (a dictionary of column names) per row.
    if (arrays) (statement as ArrayRows).setReturnArrays(true);
    entry = {
      statement,
      reader: statement.columns().length > 0,
      writes: !PLAIN_READ.test(sql),
    };
    cache.set(sql, entry);
    if (cache.size > this.#cacheSize) {
      cache.delete(cache.keys().next().value as string);
    }
    return entry;
  }

  read<R>(query: CompiledQuery): Promise<QueryResult<R>> | undefined {
    return PLAIN_READ.test(query.sql)
      ? this.readWithoutLock<R>(query)
      : undefined;
  }

  readArrays(
    sql: string,
    parameters: readonly unknown[],
  ): unknown[][] | undefined {
    if (!this.#usable()) return undefined;
    try {
      const { statement } = this.#prepare(sql, true);
      return statement.all(...bindable(parameters)) as unknown as unknown[][];
    } catch (error) {
      throw translateError(error);
    }
  }

  writeSoon(
    statements: readonly GroupStatement[],
  ): Promise<number | undefined> {
    return this.#group.write(statements);
  }

  /** `GroupWriter.writeGroups`: each write's statements in turn, one transaction for all. */
  writeGroups(
    writes: readonly (readonly GroupStatement[])[],
  ): number[] | undefined {
    if (!this.#free() || this.#db.isTransaction) return undefined;
    if (writes.length === 1 && writes[0].length === 1) {
      // One statement is a transaction of its own (autocommit): no begin, no commit. Refused
      // for another connection's write lock, it changed nothing.
      const { sql, parameters } = writes[0][0];
      try {
        return [
          Number(
            this.#prepare(sql).statement.run(...bindable(parameters))
              .lastInsertRowid,
          ),
        ];
      } catch (error) {
        if (isBusyError(error)) return undefined;
        throw translateError(error);
      }
    }
    try {
      (this.#begin ??= this.#db.prepare("begin immediate")).run();
    } catch (error) {
      if (isBusyError(error)) return undefined;
      throw translateError(error);
    }
    try {
      const rowids: number[] = [];
      for (const statements of writes) {
        let last: number | bigint = 0;
        for (const { sql, parameters } of statements) {
          last = this.#prepare(sql).statement.run(...bindable(parameters))
            .lastInsertRowid;
        }
        rowids.push(Number(last));
      }
      (this.#commit ??= this.#db.prepare("commit")).run();
      return rowids;
    } catch (error) {
      if (this.#db.isTransaction) {
        try {
          this.#db.exec("rollback");
        } catch { /* the statement's own error says what went wrong */ }
      }
      throw translateError(error);
    }
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // Outside a transaction, a statement refused for another connection's write lock (most
    // often `begin immediate`) is retried asynchronously; inside one it fails at once.
    let retriable = false;
    try {
      retriable = !this.#db.isTransaction;
      return Promise.resolve(this.#run<R>(compiledQuery));
    } catch (error) {
      if (retriable && isBusyError(error) && this.#busyTimeout > 0) {
        return this.#retryWhileBusy<R>(compiledQuery, error);
      }
      return Promise.reject(translateError(error));
    }
  }

  /**
   * Runs a plain read at once with its statement limited to `timeout` ms; throws
   * {@link DeadlineExceeded} (unmapped) when it stopped there.
   */
  runRead<R>(
    compiledQuery: CompiledQuery,
    timeout: number,
    work: number,
  ): QueryResult<R> {
    return this.#run<R>(compiledQuery, timeout, work);
  }

  #run<R>(
    compiledQuery: CompiledQuery,
    limit = currentQueryTimeout(),
    work = 0,
  ): QueryResult<R> {
    const arrays = arrayQueries.has(compiledQuery);
    const { statement, reader, writes } = this.#prepare(
      compiledQuery.sql,
      arrays && ARRAY_ROWS,
    );
    const parameters = bindable(compiledQuery.parameters);
    if (reader) {
      // Under a deadline a read stops through its deadline functions (sqlite_functions.ts).
      const timeout = writes ? 0 : limit;
      const rows = timeout > 0
        ? runWithDeadline(timeout, () => statement.all(...parameters), work)
        : statement.all(...parameters);
      return {
        rows: (arrays && !ARRAY_ROWS
          ? rows.map((row) =>
            Object.values(row)
          )
          : rows) as R[],
      };
    }
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async #retryWhileBusy<R>(
    compiledQuery: CompiledQuery,
    first: unknown,
  ): Promise<QueryResult<R>> {
    const deadline = performance.now() + this.#busyTimeout;
    let error = first;
    for (let attempt = 0; performance.now() < deadline; attempt++) {
      const pause = BUSY_BACKOFF[Math.min(attempt, BUSY_BACKOFF.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, pause));
      try {
        return this.#run<R>(compiledQuery);
      } catch (next) {
        if (!isBusyError(next)) throw translateError(next);
        error = next;
      }
    }
    throw translateError(error);
  }

  async *streamQuery<R>(
    compiledQuery: CompiledQuery,
  ): AsyncIterableIterator<QueryResult<R>> {
    const { statement } = this.#prepare(compiledQuery.sql);
    try {
      for (
        const row of statement.iterate(...bindable(compiledQuery.parameters))
      ) {
        yield { rows: [row as R] };
      }
    } catch (error) {
      throw translateError(error);
    }
  }
}

// deno-lint-ignore no-explicit-any
type SqliteValue = any;

/** node:sqlite cannot bind booleans; store them as 0/1 like SQLite itself does. */
function bindable(parameters: readonly unknown[]): SqliteValue[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i];
    if (typeof value === "boolean") {
      out ??= parameters.slice();
      out[i] = value ? 1 : 0;
    }
  }
  return (out ?? parameters) as SqliteValue[];
}

function translateError(error: unknown): unknown {
  if (
    error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_OUT_OF_RANGE"
  ) {
    return new RangeError(
      `SQLite returned an integer beyond Number.MAX_SAFE_INTEGER, which cannot be read without losing precision (${error.message})`,
      { cause: error },
    );
  }
  return mapBusyError(error);
}
