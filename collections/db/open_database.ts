/**
 * Opens the database named by a URL: `:memory:`, a SQLite file path (its folder is created),
 * or `postgres://…`. Returns a Kysely instance over the matching dialect.
 *
 * @module
 */

import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Kysely } from "kysely";
import { type ConnectionReader, NodeSqliteDialect } from "./sqlite_dialect.ts";
import { registerSqliteFunctions } from "./sqlite_functions.ts";
import { SqliteReaders } from "./sqlite_readers.ts";

/** The SQL dialects Strata speaks. */
export type SqlDialect = "sqlite" | "postgres";

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** `:memory:`, a SQLite file path, or a `postgres://` URL. */
  url: string;
  /** PostgreSQL only: a schema to create if missing and use through `search_path`. */
  pgSchema?: string;
  /**
   * How long a write waits for a lock before answering 503, in milliseconds: SQLite's
   * `busy_timeout`, PostgreSQL's `lock_timeout`. Default 2000.
   */
  busyTimeout?: number;
  /** SQLite only: see `NodeSqliteDialectOptions.holdsConnection`. */
  holdsConnection?: () => boolean;
  /** SQLite only: prepared statements kept in the LRU cache; default 256. */
  statementCacheSize?: number;
  /**
   * PostgreSQL only: how many distinct statement texts are sent as named prepared
   * statements; 0 sends every statement unnamed. Default 200 (see postgres.ts).
   */
  preparedStatements?: number;
}

/** An open database. */
export interface OpenedDatabase {
  /** Kysely over the database. */
  // deno-lint-ignore no-explicit-any
  db: Kysely<any>;
  /** Which dialect `db` speaks. */
  dialect: SqlDialect;
  /** The raw SQLite handle (SQLite only), e.g. to register functions. */
  sqlite?: DatabaseSync;
  /**
   * SQLite only: synchronous reads and grouped writes on the connection (see
   * `ConnectionReader`); absent where node:sqlite cannot answer rows as arrays.
   */
  reader?: ConnectionReader;
  /**
   * PostgreSQL only: runs one statement in autocommit without Kysely (see
   * `PostgresSetup.autocommit`).
   */
  autocommit?: (sql: string, parameters: readonly unknown[]) => Promise<void>;
}

/**
 * Whether a database URL names PostgreSQL.
 *
 * @example
 * ```ts
 * import { isPostgresUrl } from "./open_database.ts";
 * isPostgresUrl("postgres://localhost/app"); // true
 * ```
 */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url);
}

/**
 * Puts a file's database in WAL mode, synchronous `normal` (safe with WAL: a power loss may
 * drop the last commits but never corrupts). The switch of a new file, which writes its first
 * page under a rollback journal, is not synced: the four syncs (journal, folder, journal,
 * file) were most of opening one (~0.8 of ~1.2 ms), and the file holds nothing yet. A power
 * loss in that moment leaves it empty (its WAL is dropped with it; the next boot makes the
 * schema again) or, should the disk tear that one page, not a database. An existing file in
 * another mode switches with every sync.
 */
function switchToWal(sqlite: DatabaseSync): void {
  const { page_count: pages } = sqlite.prepare("pragma page_count").get() as {
    page_count: number;
  };
  if (pages === 0) sqlite.exec("pragma synchronous = off");
  sqlite.exec("pragma journal_mode = wal");
  sqlite.exec("pragma synchronous = normal");
}

/**
 * The SQLite file at `path`, its folder made when it cannot be opened without: most boots find
 * the folder there, and making it first cost each one a system call and its wrapper's first
 * run (~0.1 ms). A file that cannot be opened for another reason fails as before, the folder
 * being there.
 */
function openFile(path: string): DatabaseSync {
  try {
    return new DatabaseSync(path);
  } catch {
    // Deno's own call: node:fs costs a few ms of startup to load, for this one folder.
    Deno.mkdirSync(dirname(path), { recursive: true });
    return new DatabaseSync(path);
  }
}

/**
 * Opens `options.url` and returns Kysely over it.
 *
 * @example
 * ```ts
 * import { openDatabase } from "./open_database.ts";
 * const { db, dialect } = await openDatabase({ url: ":memory:" });
 * dialect; // "sqlite"
 * await db.destroy();
 * ```
 */
export async function openDatabase(
  options: OpenDatabaseOptions,
): Promise<OpenedDatabase> {
  const busyTimeout = options.busyTimeout ?? 2000;
  if (!Number.isFinite(busyTimeout) || busyTimeout < 0) {
    throw new Error(`Invalid busyTimeout ${busyTimeout}`);
  }
  if (isPostgresUrl(options.url)) {
    // Loaded on demand: the pg driver costs ~30 ms of startup that SQLite apps never need.
    const { createPostgresDialect } = await import("./postgres.ts");
    const { dialect, autocommit } = await createPostgresDialect({
      url: options.url,
      schema: options.pgSchema,
      lockTimeout: busyTimeout,
      preparedStatements: options.preparedStatements,
    });
    return { db: new Kysely({ dialect }), dialect: "postgres", autocommit };
  }
  const path = options.url.startsWith("file:")
    ? options.url.slice(5)
    : options.url;
  const memory = path === ":memory:" || path === "";
  const sqlite = memory ? new DatabaseSync(":memory:") : openFile(path);
  try {
    sqlite.exec(`pragma busy_timeout = ${Math.trunc(busyTimeout)}`);
    if (!memory) switchToWal(sqlite);
    sqlite.exec("pragma foreign_keys = on");
    registerSqliteFunctions(sqlite);
    // From here on the dialect waits for other connections' write locks asynchronously; a
    // synchronous busy_timeout would block the whole process, and with two connections in
    // one process the holder could never get to release the lock.
    sqlite.exec("pragma busy_timeout = 0");
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const dialect = new NodeSqliteDialect({
    database: sqlite,
    // Reader threads need a file to open; an in-memory database is this connection alone.
    readers: memory ? undefined : new SqliteReaders({ path }),
    holdsConnection: options.holdsConnection,
    statementCacheSize: options.statementCacheSize,
    busyTimeout,
  });
  return {
    db: new Kysely({ dialect }),
    dialect: "sqlite",
    sqlite,
    reader: dialect.reader ?? undefined,
  };
}
