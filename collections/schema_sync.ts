/**
 * Schema sync: on open, tables, columns, indexes, junction and translation tables are created
 * or altered to match the definitions, on SQLite and PostgreSQL alike. Additive changes (a
 * new collection, a new nullable or defaulted field, a new or dropped index, a field no
 * longer required) apply automatically; destructive ones (a removed field, a changed kind or
 * target, a field becoming required without a default, a new required field on a table with
 * rows, a field changing translatability) are refused with an error naming the collection
 * and field unless `force` is set. A dropped collection is not destructive: its table stays.
 * The last synced definitions are kept in `_strata_schema`.
 *
 * A boot whose definitions and database schema are those of the last sync skips the work:
 * `_strata_schema_state` holds a fingerprint of what was synced beyond the snapshots (the
 * collections' names, what decides backfills, the framework's own tables) and the
 * database's own record of its schema as the sync left it (SQLite's `schema_version`, which
 * every schema change by any connection increments; on PostgreSQL a digest of the columns,
 * indexes and triggers of the tables the sync makes, from the catalogs), with the time the
 * snapshots were written. Both must match, and every collection's stored snapshot must be
 * the one its definition makes now, so a changed definition, a newer Strata, a table or
 * index altered by hand or by another program, or snapshots rewritten by an earlier Strata
 * sync in full. A boot reads all this in one statement before it takes the sync's lock
 * (SQLite's write lock, PostgreSQL's advisory lock), and only a sync with work takes it.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import { CompiledQuery, type Kysely, sql } from "kysely";
import { quoteIdentifier as id } from "./db/quote_identifier.ts";
import type { SqlDialect } from "./db/open_database.ts";
import { isBusyError } from "./db/busy.ts";
import {
  buildSearch,
  dropSearch,
  searchExists,
  searchSignature,
} from "./search/storage.ts";
import type {
  ResolvedCollection,
  ResolvedField,
  ResolvedIndex,
} from "./resolve.ts";

/** The metadata table. */
export const SCHEMA_TABLE = "_strata_schema";

/** The one-row table holding the fingerprint of the last sync (see the module documentation). */
export const SCHEMA_STATE_TABLE = "_strata_schema_state";

/**
 * Part of every fingerprint: raise it when the sync comes to create or alter anything
 * differently, so databases synced by an older Strata sync once more.
 */
const SYNC_VERSION = 1;

/** What is remembered of a field. */
interface FieldSnapshot {
  type: string;
  kind: string;
  storage: string;
  columnType: string | null;
  required: boolean;
  target: string | null;
}

/** What is remembered of a collection. */
interface CollectionSnapshot {
  version: 1;
  fields: Record<string, FieldSnapshot>;
  indexes: readonly ResolvedIndex[];
  /** The full-text search setup (see search/storage.ts); absent or null without one. */
  search?: string | null;
}

/** Options of {@link syncSchema}. */
export interface SyncOptions {
  /** Apply destructive changes (data in removed or changed columns is lost). */
  force?: boolean;
  /** The default content locale (translatability migrations use it). */
  defaultLocale: string;
  /**
   * SQLite only: the connection's own handle (node:sqlite's `DatabaseSync`, the one under
   * `db`). With it the CREATE statements run as one script, and a sync that only creates or
   * alters (no data to move, no full-text search) runs on it from `begin` to `commit`.
   * Without it each statement runs on its own, through Kysely.
   */
  sqlite?: SqliteHandle;
  /**
   * Statements making the framework's own tables (each `… if not exists`, or otherwise safe
   * to repeat), run in the sync's transaction and part of its fingerprint.
   */
  ownTables?: readonly string[];
}

/** What the sync uses of node:sqlite's `DatabaseSync`. */
export interface SqliteHandle {
  /** Runs a script of statements. */
  exec(script: string): void;
  /** Whether a transaction is open. */
  readonly isTransaction: boolean;
  /** A prepared statement. */
  prepare(sql: string): {
    all(...parameters: any[]): unknown[];
    run(...parameters: any[]): unknown;
  };
}

/**
 * The few statements of the sync's bookkeeping (`?` or `$n` parameters, as the dialect
 * wants them): through Kysely, or straight on the SQLite handle.
 */
interface Statements {
  /** The rows of a query. */
  all<R>(sql: string, parameters?: readonly unknown[]): Promise<R[]>;
  /** Runs a statement. */
  run(sql: string, parameters?: readonly unknown[]): Promise<void>;
}

function kyselyStatements(db: Kysely<any>): Statements {
  return {
    all: async <R>(text: string, parameters: readonly unknown[] = []) =>
      (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters])))
        .rows,
    run: async (text, parameters = []) => {
      await db.executeQuery(CompiledQuery.raw(text, [...parameters]));
    },
  };
}

function handleStatements(handle: SqliteHandle): Statements {
  return {
    all: <R>(text: string, parameters: readonly unknown[] = []) =>
      Promise.resolve(handle.prepare(text).all(...parameters) as R[]),
    run: (text, parameters = []) => {
      handle.prepare(text).run(...parameters);
      return Promise.resolve();
    },
  };
}

/**
 * One change: a DDL statement (most of them: run in batches, one script per batch) or work
 * that reads or writes data through Kysely.
 */
type Step = string | ((db: Kysely<any>) => Promise<void>);

/** Runs DDL statements in order, as few round trips as the database allows. */
type ScriptRunner = (statements: readonly string[]) => Promise<void>;

/**
 * A column definition. On PostgreSQL text columns compare and sort by code point (collation
 * "C", see {@link useCodePointOrder}): declared so when created, nothing to alter later.
 */
function columnSql(
  name: string,
  type: string,
  dialect: SqlDialect,
  constraint = "",
): string {
  const collate = dialect === "postgres" && /^text$/i.test(type)
    ? ' collate "C"'
    : "";
  return `${id(name)} ${type}${collate}${constraint}`;
}

/**
 * Batching matters at boot: a fresh app of a hundred collections issues some 500 CREATE
 * statements. Through Kysely one by one that is 500 builds and compiles (cold code in a
 * fresh process) and, on PostgreSQL, 500 round trips; as one script it is one call.
 */
function scriptRunner(
  db: Kysely<any>,
  dialect: SqlDialect,
  handle: SqliteHandle | undefined,
): ScriptRunner {
  return async (statements) => {
    if (statements.length === 0) return;
    if (dialect === "postgres") {
      // Without parameters pg uses the simple protocol, which takes several statements.
      await sql.raw(statements.join(";\n")).execute(db);
    } else if (handle) {
      handle.exec(statements.join(";\n"));
    } else {
      for (const statement of statements) await sql.raw(statement).execute(db);
    }
  };
}

/** Runs steps in order: consecutive statements as one script, functions on their own. */
async function runSteps(
  db: Kysely<any>,
  steps: readonly Step[],
  runScript: ScriptRunner,
): Promise<void> {
  let batch: string[] = [];
  for (const step of steps) {
    if (typeof step === "string") {
      batch.push(step);
      continue;
    }
    await runScript(batch);
    batch = [];
    await step(db);
  }
  await runScript(batch);
}

function isRequired(field: ResolvedField): boolean {
  return !field.nullable && !field.hasDefault && field.storage !== "junction";
}

async function existingColumns(
  db: Statements,
  dialect: SqlDialect,
): Promise<Map<string, Set<string>>> {
  const rows = await db.all<{ tbl: string; col: string }>(
    dialect === "postgres"
      ? `select table_name as tbl, column_name as col
        from information_schema.columns where table_schema = current_schema()`
      : `select m.name as tbl, p.name as col
        from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const { tbl, col } of rows) {
    let columns = tables.get(tbl);
    if (!columns) tables.set(tbl, columns = new Set());
    columns.add(col);
  }
  return tables;
}

async function isEmpty(db: Kysely<any>, table: string): Promise<boolean> {
  const rows = await db.selectFrom(table).select(sql.lit(1).as("one")).limit(1)
    .execute();
  return rows.length === 0;
}

/**
 * PostgreSQL compares and sorts text by the database's collation (a language's rules in
 * most installations), SQLite by code point. Every text column of the app's tables is set to
 * the "C" collation, so `order` and range filters answer alike on both databases. Runs
 * after the other steps, so new and existing tables alike are covered; a column already in
 * "C" is left alone, so only the first boot on an older database alters anything.
 */
async function useCodePointOrder(
  db: Kysely<any>,
  collections: ReadonlyMap<string, ResolvedCollection>,
): Promise<void> {
  const tables = new Set<string>();
  for (const collection of collections.values()) {
    tables.add(collection.table);
    if (collection.translationTable) tables.add(collection.translationTable);
    for (const field of collection.junctionFields) {
      tables.add(field.junctionTable!);
    }
  }
  // information_schema reports the database's default collation as null.
  const { rows } = await sql<{ tbl: string; col: string }>`
    select table_name as tbl, column_name as col from information_schema.columns
    where table_schema = current_schema() and data_type = 'text'
      and collation_name is distinct from 'C'`.execute(db);
  for (const { tbl, col } of rows) {
    if (!tables.has(tbl)) continue;
    // A column something else depends on (a view the app made over the table) cannot
    // change its collation: it keeps the database's, and the boot goes on.
    await sql`savepoint strata_collation`.execute(db);
    try {
      await sql`alter table ${sql.id(tbl)} alter column ${
        sql.id(col)
      } type text collate "C"`.execute(db);
      await sql`release savepoint strata_collation`.execute(db);
    } catch (error) {
      await sql`rollback to savepoint strata_collation`.execute(db);
      console.warn(
        `Strata: ${tbl}.${col} keeps the database's collation, so text there may sort ` +
          `differently from SQLite: ${(error as Error).message}`,
      );
    }
  }
}

/** Columns that are never NULL and so need no NULLS clause in an index. */
const NEVER_NULL = new Set(["UUID", "locale"]);

/**
 * The statement creating `index` unless it exists. On PostgreSQL a column that may hold NULL
 * is indexed `NULLS FIRST`, as lists order it (NULL is the smallest value, as on SQLite): the
 * index then serves ascending lists forwards and descending ones backwards.
 */
function createIndexSql(index: ResolvedIndex, dialect: SqlDialect): string {
  // Appended to one string by a counting loop: at boot this runs cold, some 400 times, and
  // each intermediate string (a map's, a join's, a template's) was allocated and copied.
  const pg = dialect === "postgres";
  let sql = `create ${index.unique ? "unique " : ""}index if not exists ${
    id(index.name)
  } on ${id(index.table)} (`;
  const columns = index.columns;
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i];
    sql += `${i === 0 ? "" : ", "}${id(column)}${
      pg && !NEVER_NULL.has(column) ? " nulls first" : ""
    }`;
  }
  return `${sql})`;
}

/**
 * Indexes of this schema created before they were `NULLS FIRST`: they cannot serve a list's
 * order, so schema sync builds them anew.
 */
async function outdatedPgIndexes(db: Kysely<any>): Promise<Set<string>> {
  // From the catalogs of this schema only (pg_indexes would describe every schema's
  // indexes, and fails when another session drops one meanwhile). `indoption` bit 2 is
  // NULLS FIRST; every index Strata manages has one such column.
  const { rows } = await sql<{ name: string }>`
    select i.relname as name
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = i.relnamespace
    join ${sql.id(SCHEMA_TABLE)} s
      on t.relname in (s.collection, s.collection || '__translations')
    where n.nspname = current_schema() and not x.indisprimary
      and (i.relname like '%\\_\\_idx' or i.relname like '%\\_\\_uniq')
      and not exists (
        select 1 from unnest(x.indoption::int2[]) o where (o & 2) <> 0
      )`.execute(db);
  return new Set(rows.map((row) => row.name));
}

function bigint(dialect: SqlDialect): string {
  return dialect === "postgres" ? "bigint" : "integer";
}

function createMainTable(
  collection: ResolvedCollection,
  dialect: SqlDialect,
): Step {
  // Appended to one string by a counting loop, as createIndexSql: some 100 tables and 900
  // columns at boot. The columns are written as columnSql writes them.
  const pg = dialect === "postgres";
  let sql = `create table ${id(collection.table)} (${
    pg
      ? '"UUID" text collate "C" not null primary key, "_updatedAt" bigint not null'
      : '"UUID" text not null primary key, "_updatedAt" integer not null'
  }`;
  const fields = collection.columnFields;
  for (let i = 0; i < fields.length; i++) {
    const type = fields[i].columnType!;
    sql += `, ${id(fields[i].name)} ${type}${
      pg && /^text$/i.test(type) ? ' collate "C"' : ""
    }`;
  }
  return `${sql})`;
}

function createTranslationTable(
  collection: ResolvedCollection,
  dialect: SqlDialect,
): Step {
  const table = collection.translationTable!;
  const columns = [
    columnSql("record", "text", dialect, " not null"),
    columnSql("locale", "text", dialect, " not null"),
    ...collection.translatedFields.map((field) =>
      columnSql(field.name, field.columnType!, dialect)
    ),
    `constraint ${id(`${table}__pk`)} primary key ("record", "locale")`,
  ];
  return `create table ${id(table)} (${columns.join(", ")})`;
}

function createJunctionTable(
  field: ResolvedField,
  dialect: SqlDialect,
): Step[] {
  const table = field.junctionTable!;
  const columns = [
    columnSql("owner", "text", dialect, " not null"),
    columnSql("target", "text", dialect, " not null"),
    columnSql("position", "integer", dialect, " not null"),
    `constraint ${id(`${table}__pk`)} primary key ("owner", "position")`,
  ];
  return [
    `create table ${id(table)} (${columns.join(", ")})`,
    `create index ${id(`${table}__target__idx`)} on ${id(table)} ("target")`,
  ];
}

function tableOf(collection: ResolvedCollection, field: ResolvedField): string {
  return field.storage === "translation"
    ? collection.translationTable!
    : collection.table;
}

/** Fills null values of a (new or newly required) field with its default. */
function backfill(
  collection: ResolvedCollection,
  field: ResolvedField,
): Step {
  return async (db) => {
    if (!field.hasDefault) return;
    const table = tableOf(collection, field);
    if (typeof field.options.default !== "function") {
      await db.updateTable(table)
        .set({ [field.name]: field.toDb(field.defaultValue()) })
        .where(field.name, "is", null).execute();
      return;
    }
    const key = field.storage === "translation"
      ? ["record", "locale"]
      : ["UUID"];
    const rows = await db.selectFrom(table).select(key)
      .where(field.name, "is", null).execute();
    for (const row of rows) {
      let update = db.updateTable(table)
        .set({ [field.name]: field.toDb(field.defaultValue()) });
      for (const k of key) update = update.where(k, "=", row[k]);
      await update.execute();
    }
  };
}

function addColumn(
  collection: ResolvedCollection,
  field: ResolvedField,
  dialect: SqlDialect,
): Step {
  return `alter table ${id(tableOf(collection, field))} add column ${
    columnSql(field.name, field.columnType!, dialect)
  }`;
}

function dropColumn(table: string, column: string): Step {
  return `alter table ${id(table)} drop column ${id(column)}`;
}

function moveToTranslations(
  collection: ResolvedCollection,
  field: ResolvedField,
  locale: string,
): Step {
  return async (db) => {
    const tr = sql.table(collection.translationTable!);
    const column = sql.id(field.name);
    await sql`insert into ${tr} (${sql.id("record")}, ${
      sql.id("locale")
    }, ${column})
      select ${sql.id("UUID")}, ${locale}, ${column} from ${
      sql.table(collection.table)
    }
      where ${column} is not null
      on conflict (${sql.id("record")}, ${sql.id("locale")})
      do update set ${column} = excluded.${column}`.execute(db);
  };
}

function moveFromTranslations(
  collection: ResolvedCollection,
  field: ResolvedField,
  trTable: string,
  locale: string,
): Step {
  return async (db) => {
    const main = sql.table(collection.table);
    const column = sql.id(field.name);
    await sql`update ${main} set ${column} = (select t.${column} from ${
      sql.table(trTable)
    } as t where t.${sql.id("record")} = ${main}.${sql.id("UUID")} and t.${
      sql.id("locale")
    } = ${locale})`.execute(db);
  };
}

/**
 * Brings the database in line with `collections` (see the module documentation).
 * Throws an error listing every destructive change when `force` is not set; nothing is
 * applied then.
 *
 * @example
 * ```ts ignore
 * await syncSchema(db, "sqlite", collections, { defaultLocale: "en" });
 * ```
 */
export async function syncSchema(
  db: Kysely<any>,
  dialect: SqlDialect,
  collections: ReadonlyMap<string, ResolvedCollection>,
  options: SyncOptions,
): Promise<void> {
  const ownTables = options.ownTables ?? [];
  // Nothing to create, alter or remember (a dropped collection's table stays anyway). On
  // PostgreSQL the sync still runs: it is the boot's first query, so an unreachable server
  // fails the boot.
  if (
    collections.size === 0 && ownTables.length === 0 && dialect === "sqlite"
  ) {
    return;
  }
  const sync = syncInput(dialect, collections, options, ownTables);
  const handle = dialect === "sqlite" ? options.sqlite : undefined;
  if (handle && unchangedOnHandle(handle, sync)) return;
  if (dialect === "postgres" && await unchangedOnPostgres(db, sync)) return;
  if (
    handle && ![...collections.values()].some((c) => c.searchFields.length) &&
    await syncOnHandle(db, handle, sync)
  ) {
    return;
  }
  await db.transaction().execute(async (trx) => {
    if (dialect === "postgres") {
      // Processes booting together sync one at a time.
      await sql`select pg_advisory_xact_lock(hashtext('strata_schema_sync:' || current_schema()))`
        .execute(trx);
    }
    const statements = kyselyStatements(trx);
    const runScript = scriptRunner(trx, dialect, handle);
    // Plain SQL: the first statements of a fresh process, where building them costs more
    // than running them.
    await runScript(metaTables(dialect));
    if (await unchangedSince(statements, dialect, sync)) return;
    const plan = await planSync(trx, statements, dialect, sync);
    const rebuild = await searchChanges(
      trx,
      dialect,
      collections,
      plan.previous,
    );
    await runSteps(trx, plan.steps, runScript);
    // Tables this sync made have their text in "C" and their indexes NULLS FIRST: only
    // tables that were there before can need either (a fresh schema skips both queries).
    const older = dialect === "postgres" && plan.existing.length > 0;
    if (older) await useCodePointOrder(trx, collections);
    for (const collection of rebuild) {
      await buildSearch(trx, dialect, collection);
    }
    const outdated = older ? await outdatedPgIndexes(trx) : new Set<string>();
    await createIndexes(
      trx,
      dialect,
      plan.existing,
      outdated,
      plan.madeIndexes,
      runScript,
    );
    await remember(statements, dialect, sync);
  });
}

/** What a sync knows before it starts. */
interface SyncInput {
  readonly collections: ReadonlyMap<string, ResolvedCollection>;
  readonly options: SyncOptions;
  readonly ownTables: readonly string[];
  /** Each collection's snapshot as stored. */
  readonly snapshots: ReadonlyMap<string, string>;
  readonly fingerprint: string;
  /**
   * PostgreSQL: the tables the sync makes, the metadata tables, the framework's own and every
   * collection's (see {@link catalogVersion}); none on SQLite.
   */
  readonly managed: readonly string[];
}

/** What a sync will do: its steps in order, and the indexes they make with new tables. */
interface SyncPlan {
  readonly previous: ReadonlyMap<string, CollectionSnapshot>;
  readonly steps: readonly Step[];
  readonly madeIndexes: ReadonlySet<string>;
  /**
   * The collections planned against what the database holds of them (the others are new,
   * none of their tables was there: their steps make every table and index they have).
   */
  readonly existing: readonly ResolvedCollection[];
}

/** Plans the changes; throws listing every destructive one unless `force` is set. */
async function planSync(
  db: Kysely<any>,
  statements: Statements,
  dialect: SqlDialect,
  sync: SyncInput,
): Promise<SyncPlan> {
  const previous = new Map<string, CollectionSnapshot>();
  for (const row of await storedSnapshots(statements)) {
    previous.set(row.collection, JSON.parse(row.snapshot));
  }
  const tables = await existingColumns(statements, dialect);
  const issues: string[] = [];
  const steps: Step[] = [...sync.ownTables];
  const dropIndexSteps: Step[] = [];
  const madeIndexes = new Set<string>();
  const existing: ResolvedCollection[] = [];
  for (const collection of sync.collections.values()) {
    const before = previous.get(collection.name);
    // A collection never synced and without a table: its tables and indexes are made, and
    // nothing else of the plan applies. Its indexes are not remembered as made: only those
    // of the existing collections are created afterwards.
    if (!before && !hasTables(collection, tables)) {
      newTables(collection, dialect, tables, steps, undefined);
      continue;
    }
    existing.push(collection);
    await planCollection(
      db,
      collection,
      before,
      tables,
      sync.options,
      dialect,
      issues,
      steps,
      dropIndexSteps,
      madeIndexes,
    );
  }
  if (issues.length > 0 && !sync.options.force) {
    throw new Error(issues.join("\n"));
  }
  return {
    previous,
    steps: [...dropIndexSteps, ...steps],
    madeIndexes,
    existing,
  };
}

/** Writes the snapshots, then the state: the catalog as the sync leaves it. */
async function remember(
  statements: Statements,
  dialect: SqlDialect,
  sync: SyncInput,
): Promise<void> {
  await writeSnapshots(statements, dialect, sync.snapshots);
  await writeState(statements, dialect, sync.fingerprint, sync.managed);
}

/**
 * The script making a fresh SQLite database (no table at all, so nothing to read back or
 * alter): the framework's own tables, every collection's tables each followed by its
 * indexes, and the metadata tables last. A fresh schema of some 600 pages overflows SQLite's
 * page cache, which spills the pages written first to the WAL; a row written later to a
 * spilled page rewrites its frame, and the commit then recomputes the checksum of every
 * frame after it. Made first, the metadata tables' pages were spilled before the snapshots
 * were written: bench/startup's 100 collections committed in 3.1 ms instead of 2.1.
 * Synchronous, without planSync: at boot its asynchronous steps cost more than this loop.
 */
function freshScript(sync: SyncInput): string {
  const steps: Step[] = [...sync.ownTables];
  const none = new Map<string, Set<string>>();
  for (const collection of sync.collections.values()) {
    newTables(collection, "sqlite", none, steps, undefined);
  }
  const meta = metaTables("sqlite");
  steps.push(meta[0], meta[1]);
  return steps.join(";\n");
}

/**
 * A SQLite sync on the connection's own handle, from `begin immediate` to `commit`, without
 * Kysely: at boot, in a fresh process, going through Kysely's transaction and executor cost
 * more than the statements of a skipped sync. Only for a sync that creates and alters:
 * `false` (nothing done) when the plan moves data (steps that are functions over Kysely) or
 * the search objects changed, or when another connection holds the write lock (Kysely's
 * path waits for it).
 */
async function syncOnHandle(
  db: Kysely<any>,
  handle: SqliteHandle,
  sync: SyncInput,
): Promise<boolean> {
  try {
    handle.exec("begin immediate");
  } catch (error) {
    if (isBusyError(error)) return false;
    throw error;
  }
  let done = false;
  try {
    // A database never given a table (SQLite's schema cookie stays 0 until the first schema
    // change): one script makes it.
    if (schemaVersion(handle) === 0) {
      const script = freshScript(sync);
      handle.exec(script);
      rememberOnHandle(handle, sync);
    } else if (!await syncExistingOnHandle(db, handle, sync)) {
      return false;
    }
    handle.exec("commit");
    done = true;
    return true;
  } finally {
    if (!done && handle.isTransaction) handle.exec("rollback");
  }
}

/**
 * {@link syncOnHandle} over a database that holds tables: nothing when it is as the last sync
 * left it, otherwise the plan's statements. `false` (nothing done) when the plan moves data
 * or the search objects changed.
 */
async function syncExistingOnHandle(
  db: Kysely<any>,
  handle: SqliteHandle,
  sync: SyncInput,
): Promise<boolean> {
  const statements = handleStatements(handle);
  const runScript = scriptRunner(db, "sqlite", handle);
  await runScript(metaTables("sqlite"));
  if (await unchangedSince(statements, "sqlite", sync)) return true;
  const plan = await planSync(db, statements, "sqlite", sync);
  if (
    plan.steps.some((step) => typeof step !== "string") ||
    [...plan.previous.values()].some((before) => before.search)
  ) {
    return false;
  }
  await runScript(plan.steps as string[]);
  // Not even called when every collection is new: a first call costs V8 its compile.
  if (plan.existing.length > 0) {
    await createIndexes(
      db,
      "sqlite",
      plan.existing,
      new Set(),
      plan.madeIndexes,
      runScript,
    );
  }
  rememberOnHandle(handle, sync);
  return true;
}

/** The metadata tables, created when missing. */
function metaTables(dialect: SqlDialect): string[] {
  return [
    `create table if not exists ${
      id(SCHEMA_TABLE)
    } ("collection" text not null primary key, "snapshot" text not null, "syncedAt" ${
      bigint(dialect)
    } not null)`,
    `create table if not exists ${
      id(SCHEMA_STATE_TABLE)
    } ("id" integer not null primary key, "fingerprint" text not null, "catalog" text not null)`,
  ];
}

/**
 * What a sync knows before it starts, from one pass over the collections in name order:
 * each one's snapshot as stored, the fingerprint (see below) and, on PostgreSQL, the tables
 * the sync makes (the metadata tables, the framework's own, named by their `create table if
 * not exists` statements, and every collection's).
 *
 * The fingerprint is what the sync works from beyond the snapshots, as one text: the
 * dialect, the framework's own tables and, per collection, its name and whether each field
 * is nullable and has a default (which decide backfills), one digit a field in the
 * snapshot's order (field names start with a letter, so an object keeps them in definition
 * order). The snapshots are not part of it: they are stored anyway, and a restart compares
 * them as stored (see {@link unchangedSince}), so a fresh database does not write them
 * twice. Stored and compared whole rather than hashed: a digest (WebCrypto's is
 * asynchronous, a hash in JavaScript runs cold at boot) cost more than writing and
 * comparing a few bytes a collection.
 */
function syncInput(
  dialect: SqlDialect,
  collections: ReadonlyMap<string, ResolvedCollection>,
  options: SyncOptions,
  ownTables: readonly string[],
): SyncInput {
  const snapshots = new Map<string, string>();
  // Only PostgreSQL's catalog digest looks the tables up: SQLite's schema cookie counts
  // every change to any table.
  const pg = dialect === "postgres";
  const managed: string[] = [];
  if (pg) {
    managed.push(SCHEMA_TABLE, SCHEMA_STATE_TABLE);
    for (const statement of ownTables) {
      const made = /^create table if not exists "([^"]+)"/.exec(statement);
      if (made) managed.push(made[1]);
    }
  }
  let fingerprint = `${SYNC_VERSION}\n${dialect}\n${
    JSON.stringify(ownTables)
  }\n`;
  // Counting loops: for…of allocates an iterator result a step, and this runs cold.
  const names = [...collections.keys()].sort();
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const collection = collections.get(name)!;
    const fields: Record<string, FieldSnapshot> = {};
    let flags = "";
    const fieldList = collection.fieldList;
    for (let j = 0; j < fieldList.length; j++) {
      const field = fieldList[j];
      fields[field.name] = {
        type: field.type.name,
        kind: field.kind,
        storage: field.storage,
        columnType: field.columnType,
        required: isRequired(field),
        target: field.target ?? null,
      };
      flags += field.nullable
        ? (field.hasDefault ? "3" : "1")
        : (field.hasDefault ? "2" : "0");
    }
    const snapshot: CollectionSnapshot = {
      version: 1,
      fields,
      indexes: collection.indexes,
      search: searchSignature(collection),
    };
    snapshots.set(name, JSON.stringify(snapshot));
    fingerprint += `${name}\t${flags}\n`;
    if (!pg) continue;
    managed.push(collection.table);
    if (collection.translationTable) managed.push(collection.translationTable);
    const junctions = collection.junctionFields;
    for (let j = 0; j < junctions.length; j++) {
      managed.push(junctions[j].junctionTable!);
    }
  }
  return { collections, options, ownTables, snapshots, fingerprint, managed };
}

/**
 * PostgreSQL's stand-in for a schema version (see {@link catalogVersion}): a digest of the
 * tables named by `$1` (a text array), from the catalogs.
 */
const PG_CATALOG_DIGEST = `with t as (
        select c.oid, c.relname, c.relkind from pg_class c
        where c.relname = any($1::text[])
          and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())
      )
      select md5(coalesce(string_agg(item, ';' order by item), '')) as digest from (
        select 't:' || t.relname || ':' || t.relkind::text as item from t
        union all
        select 'c:' || t.relname || '.' || a.attname || ':' || a.atttypid::text || ':' ||
          a.attcollation::text || ':' || a.attnotnull::text
        from t join pg_attribute a on a.attrelid = t.oid
        where a.attnum > 0 and not a.attisdropped
        union all
        select 'i:' || i.relname || ':' || t.relname || ':' || x.indisunique::text || ':' ||
          x.indkey::text || ':' || x.indoption::text
        from t join pg_index x on x.indrelid = t.oid join pg_class i on i.oid = x.indexrelid
        union all
        select 'g:' || g.tgname || ':' || t.relname || ':' || g.tgenabled::text
        from t join pg_trigger g on g.tgrelid = t.oid
        where not g.tgisinternal
      ) as catalog`;

/**
 * The database's own record of its schema. SQLite increments `schema_version` on every
 * schema change, by any connection or program. PostgreSQL has no such counter: a digest of
 * the tables the sync makes stands in for it, from the catalogs: each table's kind, its
 * columns (type, collation, NOT NULL), indexes (columns, uniqueness, per-column options such
 * as NULLS FIRST) and triggers; a table gone is missing from it. The tables are looked up by
 * name (an index), not by scanning the schema's catalog rows.
 */
async function catalogVersion(
  db: Statements,
  dialect: SqlDialect,
  tables: readonly string[],
): Promise<string> {
  if (dialect === "sqlite") {
    const rows = await db.all<{ schema_version: number }>(
      "pragma schema_version",
    );
    return String(rows[0].schema_version);
  }
  const rows = await db.all<{ digest: string }>(PG_CATALOG_DIGEST, [tables]);
  return rows[0].digest;
}

/**
 * What the database holds as the sync left it: its schema (see {@link catalogVersion}) and
 * when the stored snapshots were last written. An earlier Strata rewrites every snapshot at
 * each of its boots, often without changing the schema: a boot of one, during a rolling
 * deploy say, is then seen too, and the snapshots are written anew.
 */
async function databaseState(
  db: Statements,
  dialect: SqlDialect,
  tables: readonly string[],
): Promise<string> {
  const rows = await db.all<{ at: number | string | null }>(
    `select max("syncedAt") as "at" from ${id(SCHEMA_TABLE)}`,
  );
  return `${await catalogVersion(db, dialect, tables)} ${rows[0].at ?? ""}`;
}

/**
 * Whether the last sync had this fingerprint, the database is as it left it, and every
 * collection's stored snapshot is the one its definition makes now (a dropped collection's
 * row stays: the fingerprint names the collections): {@link unchangedRows} over the one
 * statement of {@link restartRead}, here under the sync's lock.
 */
async function unchangedSince(
  db: Statements,
  dialect: SqlDialect,
  sync: SyncInput,
): Promise<boolean> {
  const rows = dialect === "postgres"
    ? await db.all<RestartRow>(PG_RESTART_READ, [sync.managed])
    : await db.all<RestartRow>(SQLITE_RESTART_READ);
  return unchangedRows(rows, sync);
}

/**
 * The read that tells whether anything changed since the last sync (a restart's, and the
 * locked sync's), one statement: the state row, with beside it what {@link databaseState}
 * reads (the schema's version as `version`: SQLite's schema cookie or PostgreSQL's catalog
 * digest; the snapshots' last write as `at`), then every stored snapshot.
 */
function restartRead(version: string): string {
  return `select cast(null as text) as "collection", "fingerprint" as "text",
    "catalog", (${version}) as "version",
    (select max("syncedAt") from ${id(SCHEMA_TABLE)}) as "at"
  from ${id(SCHEMA_STATE_TABLE)} where "id" = 1
  union all
  select "collection", "snapshot", null, null, null from ${id(SCHEMA_TABLE)}`;
}

/** A row of {@link restartRead}: the state row has no collection, every snapshot row one. */
interface RestartRow {
  collection: string | null;
  text: string;
  catalog: string | null;
  version: number | string | null;
  at: number | string | null;
}

/** {@link restartRead} on SQLite. */
const SQLITE_RESTART_READ = restartRead(
  `select "schema_version" from pragma_schema_version()`,
);

/** {@link restartRead} on PostgreSQL, `$1` the tables the sync makes. */
const PG_RESTART_READ = restartRead(PG_CATALOG_DIGEST);

/**
 * Whether the rows of {@link restartRead} show nothing to sync: the state row has this
 * fingerprint and the database as the last sync left it, and every collection's stored
 * snapshot is the one its definition makes now. Read outside any transaction and without
 * the sync's lock at a restart: one statement sees one snapshot of the database, and a
 * database found as this sync would leave it is then one every sync after that snapshot
 * finds too: this boot's sync comes first, and does nothing. Another
 * connection holding the write lock (a writing instance, a sync making other definitions'
 * schema) does not hold up such a boot. `false` when anything differs or cannot be read (a
 * fresh database, one of an older Strata without the state table): the sync under the lock
 * reads it all again and decides.
 */
function unchangedRows(rows: readonly RestartRow[], sync: SyncInput): boolean {
  const snapshots = sync.snapshots;
  let state = false;
  let matched = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row.collection === null) {
      if (
        row.text !== sync.fingerprint ||
        row.catalog !== `${row.version} ${row.at ?? ""}`
      ) {
        return false;
      }
      state = true;
      continue;
    }
    const snapshot = snapshots.get(row.collection);
    if (snapshot === undefined) continue;
    if (snapshot !== row.text) return false;
    matched++;
  }
  return state && matched === snapshots.size;
}

/** {@link unchangedRows} on the SQLite handle, without a promise. */
function unchangedOnHandle(handle: SqliteHandle, sync: SyncInput): boolean {
  // A fresh database (see syncOnHandle) has none of the tables read: node:sqlite's error
  // would cost its first boot ~0.8 ms, loading Deno's Node error classes.
  if (schemaVersion(handle) === 0) return false;
  let rows: RestartRow[];
  try {
    rows = handle.prepare(SQLITE_RESTART_READ).all() as RestartRow[];
  } catch {
    return false;
  }
  return unchangedRows(rows, sync);
}

/**
 * {@link unchangedRows} on PostgreSQL: two round trips where the sync under its lock takes
 * seven (begin, lock, the metadata tables, three reads, commit). The metadata tables are
 * looked up first: a read of a missing one would fail the first boot of every schema with
 * an error in the server's log.
 */
async function unchangedOnPostgres(
  db: Kysely<any>,
  sync: SyncInput,
): Promise<boolean> {
  const statements = kyselyStatements(db);
  const [made] = await statements.all<{ made: boolean }>(
    `select to_regclass($1) is not null and to_regclass($2) is not null as "made"`,
    [id(SCHEMA_TABLE), id(SCHEMA_STATE_TABLE)],
  );
  if (!made.made) return false;
  return unchangedRows(
    await statements.all<RestartRow>(PG_RESTART_READ, [sync.managed]),
    sync,
  );
}

/** The remembered snapshots, as stored. */
function storedSnapshots(
  db: Statements,
): Promise<{ collection: string; snapshot: string }[]> {
  return db.all(`select "collection", "snapshot" from ${id(SCHEMA_TABLE)}`);
}

/** Remembers the fingerprint and the database's state as the sync leaves it. */
async function writeState(
  db: Statements,
  dialect: SqlDialect,
  fingerprint: string,
  tables: readonly string[],
): Promise<void> {
  const catalog = await databaseState(db, dialect, tables);
  await db.run(
    dialect === "postgres" ? stateUpsert("$1", "$2") : stateUpsert("?", "?"),
    [fingerprint, catalog],
  );
}

/** The statement writing the state row, its two parameters as the dialect writes them. */
function stateUpsert(fingerprint: string, catalog: string): string {
  return `insert into ${
    id(SCHEMA_STATE_TABLE)
  } ("id", "fingerprint", "catalog") values (1, ${fingerprint}, ${catalog})
    on conflict ("id") do update
    set "fingerprint" = excluded."fingerprint", "catalog" = excluded."catalog"`;
}

/**
 * Drops the full-text objects of every collection whose search setup changed or went
 * missing, before anything else changes (their triggers name the columns), and returns the
 * collections to build them for once the tables are in shape.
 */
async function searchChanges(
  db: Kysely<any>,
  dialect: SqlDialect,
  collections: ReadonlyMap<string, ResolvedCollection>,
  previous: ReadonlyMap<string, CollectionSnapshot>,
): Promise<ResolvedCollection[]> {
  const rebuild: ResolvedCollection[] = [];
  for (const collection of collections.values()) {
    const wanted = searchSignature(collection);
    const before = previous.get(collection.name)?.search ?? null;
    const build = wanted !== null &&
      (wanted !== before || !(await searchExists(db, dialect, collection)));
    if (build || (wanted === null && before !== null)) {
      await dropSearch(db, dialect, collection.name);
    }
    if (build) rebuild.push(collection);
  }
  return rebuild;
}

/** The statements (re)creating an index: dropped first when outdated. */
function indexStatements(
  index: ResolvedIndex,
  dialect: SqlDialect,
  outdated: ReadonlySet<string>,
): string[] {
  const create = createIndexSql(index, dialect);
  return outdated.has(index.name)
    ? [`drop index if exists ${id(index.name)}`, create]
    : [create];
}

/**
 * Creates every index that is missing (but those `made` with their new tables), in one
 * script. When that fails (a new unique index over duplicate values), the work is undone
 * and redone index by index, so the error names the collection and fields.
 */
async function createIndexes(
  db: Kysely<any>,
  dialect: SqlDialect,
  collections: readonly ResolvedCollection[],
  outdated: ReadonlySet<string>,
  made: ReadonlySet<string>,
  runScript: ScriptRunner,
): Promise<void> {
  const all = collections.flatMap((collection) =>
    collection.indexes.flatMap((index) =>
      made.has(index.name) ? [] : indexStatements(index, dialect, outdated)
    )
  );
  if (all.length === 0) return;
  const pg = dialect === "postgres";
  try {
    await runScript(pg ? ["savepoint strata_indexes", ...all] : all);
  } catch {
    // SQLite keeps what ran before the failure: the statements are idempotent.
    if (pg) await sql`rollback to savepoint strata_indexes`.execute(db);
    await createIndexesOneByOne(db, dialect, collections, outdated, made);
  }
}

/**
 * The missing indexes one statement at a time, so that a unique one over duplicate values
 * fails with an error naming its collection and fields. Apart from {@link createIndexes}:
 * at boot V8 compiles a function at its first call, and this part seldom runs.
 */
async function createIndexesOneByOne(
  db: Kysely<any>,
  dialect: SqlDialect,
  collections: readonly ResolvedCollection[],
  outdated: ReadonlySet<string>,
  made: ReadonlySet<string>,
): Promise<void> {
  for (const collection of collections) {
    for (const index of collection.indexes) {
      if (made.has(index.name)) continue;
      try {
        for (const statement of indexStatements(index, dialect, outdated)) {
          await sql.raw(statement).execute(db);
        }
      } catch (error) {
        if (!index.unique) throw error;
        throw new Error(
          `Cannot add the unique index over ${collection.name}.${
            index.columns.filter((c) => c !== "locale").join(", ")
          }: existing records hold duplicate values`,
          { cause: error },
        );
      }
    }
  }
}

/** The start of the statement writing snapshots, before its rows. */
const SNAPSHOTS_INSERT = `insert into ${
  id(SCHEMA_TABLE)
} ("collection", "snapshot", "syncedAt") values `;

/** The end of the statement writing snapshots, after its rows. */
const SNAPSHOTS_UPSERT = ` on conflict ("collection") do update
    set "snapshot" = excluded."snapshot", "syncedAt" = excluded."syncedAt"`;

/**
 * Remembers every collection's definition through Kysely, a few hundred per statement (on
 * the SQLite handle see {@link rememberOnHandle}). The statement is written out here rather
 * than built: at boot, compiling a few hundred parameters through the query builder cost
 * more than the insert.
 */
async function writeSnapshots(
  db: Statements,
  dialect: SqlDialect,
  snapshots: ReadonlyMap<string, string>,
): Promise<void> {
  const now = Date.now();
  const all: (readonly unknown[])[] = [];
  for (const [name, snapshot] of snapshots) all.push([name, snapshot, now]);
  for (let at = 0; at < all.length; at += 300) {
    const parameters: unknown[] = [];
    const rows: string[] = [];
    for (const row of all.slice(at, at + 300)) {
      parameters.push(...row);
      const n = parameters.length;
      rows.push(
        dialect === "postgres" ? `($${n - 2}, $${n - 1}, $${n})` : "(?, ?, ?)",
      );
    }
    await db.run(
      `${SNAPSHOTS_INSERT}${rows.join(", ")}${SNAPSHOTS_UPSERT}`,
      parameters,
    );
  }
}

/**
 * {@link remember} on the SQLite handle, without a promise: the snapshots through one
 * prepared statement run once per collection (binding a statement of hundreds of parameters
 * cost more; no collection, nothing to prepare), then the state row with the catalog as
 * {@link databaseState} reads it. At boot a chain of asynchronous functions over the
 * statement wrappers cost more to compile and to run than these statements.
 */
function rememberOnHandle(handle: SqliteHandle, sync: SyncInput): void {
  const now = Date.now();
  if (sync.snapshots.size > 0) {
    const insert = handle.prepare(
      `${SNAPSHOTS_INSERT}(?, ?, ?)${SNAPSHOTS_UPSERT}`,
    );
    sync.snapshots.forEach((snapshot, name) => insert.run(name, snapshot, now));
  }
  const last = handle.prepare(
    `select max("syncedAt") as "at" from ${id(SCHEMA_TABLE)}`,
  ).all()[0] as { at: number | null };
  handle.prepare(stateUpsert("?", "?")).run(
    sync.fingerprint,
    `${schemaVersion(handle)} ${last.at ?? ""}`,
  );
}

/** SQLite's schema cookie (see {@link catalogVersion}), read on the handle. */
function schemaVersion(handle: SqliteHandle): number {
  const row = handle.prepare("pragma schema_version").all()[0] as {
    schema_version: number;
  };
  return row.schema_version;
}

/**
 * The steps making the tables of `collection` missing from `tables`, each followed by its
 * indexes in the same script: they cannot exist yet nor fail (the table is empty), and a
 * fresh SQLite schema of 100 collections took 3% less time so than with every index after
 * every table. The indexes go into `madeIndexes` when given (see createIndexes).
 */
function newTables(
  collection: ResolvedCollection,
  dialect: SqlDialect,
  tables: ReadonlyMap<string, ReadonlySet<string>>,
  steps: Step[],
  madeIndexes: Set<string> | undefined,
): void {
  if (!tables.has(collection.table)) {
    steps.push(createMainTable(collection, dialect));
    indexesOf(collection, collection.table, dialect, steps, madeIndexes);
  }
  const trTable = collection.translationTable;
  if (trTable && !tables.has(trTable)) {
    steps.push(createTranslationTable(collection, dialect));
    indexesOf(collection, trTable, dialect, steps, madeIndexes);
  }
  for (const field of collection.junctionFields) {
    if (!tables.has(field.junctionTable!)) {
      steps.push(...createJunctionTable(field, dialect));
    }
  }
}

/** Whether any table of `collection` (main, translations, junctions) is in `tables`. */
function hasTables(
  collection: ResolvedCollection,
  tables: ReadonlyMap<string, ReadonlySet<string>>,
): boolean {
  if (tables.has(collection.table)) return true;
  const translations = collection.translationTable;
  if (translations && tables.has(translations)) return true;
  const junctions = collection.junctionFields;
  for (let i = 0; i < junctions.length; i++) {
    if (tables.has(junctions[i].junctionTable!)) return true;
  }
  return false;
}

/** The statements making the indexes of `collection` over `table`, which is new. */
function indexesOf(
  collection: ResolvedCollection,
  table: string,
  dialect: SqlDialect,
  steps: Step[],
  madeIndexes: Set<string> | undefined,
): void {
  for (const index of collection.indexes) {
    if (index.table !== table) continue;
    steps.push(createIndexSql(index, dialect));
    madeIndexes?.add(index.name);
  }
}

async function planCollection(
  db: Kysely<any>,
  collection: ResolvedCollection,
  previous: CollectionSnapshot | undefined,
  tables: ReadonlyMap<string, ReadonlySet<string>>,
  options: SyncOptions,
  dialect: SqlDialect,
  issues: string[],
  steps: Step[],
  dropIndexSteps: Step[],
  madeIndexes: Set<string>,
): Promise<void> {
  const mainColumns = tables.get(collection.table);
  const trTable = collection.translationTable;
  const trColumns = trTable ? tables.get(trTable) : undefined;
  const refuse = (field: string, why: string) =>
    issues.push(
      `Schema change for ${collection.name}.${field} needs database.sync.force: ${why}`,
    );
  // Indexes that no longer exist in the definitions (or sit on a changed column) go first.
  const wanted = new Set(collection.indexes.map((i) => i.name));
  const changedColumns = new Set<string>();

  newTables(collection, dialect, tables, steps, madeIndexes);

  let empty: boolean | undefined;
  const tableIsEmpty = async () =>
    empty ??= mainColumns ? await isEmpty(db, collection.table) : true;

  for (const field of collection.fieldList) {
    if (field.storage === "junction") continue;
    const before = previous?.fields[field.name];
    const home = field.storage === "translation" ? trColumns : mainColumns;
    const homeExists = field.storage === "translation"
      ? trColumns !== undefined
      : mainColumns !== undefined;
    const present = home?.has(field.name) ?? false;
    if (
      before && before.storage !== field.storage &&
      before.storage !== "junction"
    ) {
      // Translatability changed: the value moves between tables.
      refuse(
        field.name,
        field.storage === "translation"
          ? "the field became translatable"
          : "the field is no longer translatable",
      );
      const oldTable = before.storage === "translation"
        ? `${collection.name}__translations`
        : collection.table;
      const oldPresent = tables.get(oldTable)?.has(field.name) ?? false;
      changedColumns.add(field.name);
      if (homeExists && !present) {
        steps.push(addColumn(collection, field, dialect));
      }
      if (oldPresent && before.kind === field.kind) {
        steps.push(
          field.storage === "translation"
            ? moveToTranslations(collection, field, options.defaultLocale)
            : moveFromTranslations(
              collection,
              field,
              oldTable,
              options.defaultLocale,
            ),
        );
      }
      if (oldPresent) steps.push(dropColumn(oldTable, field.name));
      steps.push(backfill(collection, field));
      continue;
    }
    if (!present) {
      if (
        homeExists && isRequired(field) && !(await tableIsEmpty())
      ) {
        refuse(field.name, "the new field is required and has no default");
      }
      if (homeExists) {
        steps.push(addColumn(collection, field, dialect));
        steps.push(backfill(collection, field));
      }
      continue;
    }
    if (!before) continue;
    if (before.kind !== field.kind || before.columnType !== field.columnType) {
      refuse(
        field.name,
        `the field changed type from ${before.type} to ${field.type.name}`,
      );
      changedColumns.add(field.name);
      const table = tableOf(collection, field);
      steps.push(dropColumn(table, field.name));
      steps.push(addColumn(collection, field, dialect));
      steps.push(backfill(collection, field));
    } else if (before.target !== (field.target ?? null)) {
      refuse(
        field.name,
        `the field now references ${field.target} instead of ${before.target}`,
      );
      changedColumns.add(field.name);
      const table = tableOf(collection, field);
      steps.push(dropColumn(table, field.name));
      steps.push(addColumn(collection, field, dialect));
    } else if (!before.required && isRequired(field)) {
      refuse(field.name, "the field became required without a default");
    } else if (!before.required && !field.nullable && field.hasDefault) {
      steps.push(backfill(collection, field));
    }
  }

  for (const field of collection.junctionFields) {
    const before = previous?.fields[field.name];
    if (before && before.storage !== "junction") {
      refuse(
        field.name,
        `the field changed type from ${before.type} to ${field.type.name}`,
      );
      const oldTable = before.storage === "translation"
        ? `${collection.name}__translations`
        : collection.table;
      if (tables.get(oldTable)?.has(field.name)) {
        changedColumns.add(field.name);
        steps.push(dropColumn(oldTable, field.name));
      }
    } else if (before && before.target !== (field.target ?? null)) {
      refuse(
        field.name,
        `the field now references ${field.target} instead of ${before.target}`,
      );
      steps.push(async (db) => {
        await db.deleteFrom(field.junctionTable!).execute();
      });
    }
  }

  for (const [name, before] of Object.entries(previous?.fields ?? {})) {
    if (collection.fields.has(name)) continue;
    if (before.storage === "junction") {
      const table = `${collection.name}__${name}`;
      if (!tables.has(table)) continue;
      refuse(name, "the field was removed");
      steps.push(`drop table if exists ${id(table)}`);
      continue;
    }
    const table = before.storage === "translation"
      ? `${collection.name}__translations`
      : collection.table;
    if (!tables.get(table)?.has(name)) continue;
    refuse(name, "the field was removed");
    changedColumns.add(name);
    steps.push(dropColumn(table, name));
  }

  for (const index of previous?.indexes ?? []) {
    const touchesChanged = index.columns.some((c) => changedColumns.has(c));
    if (wanted.has(index.name) && !touchesChanged) continue;
    dropIndexSteps.push(`drop index if exists ${id(index.name)}`);
  }
}
