/**
 * The change log `_strata_changes`: one row per committed change of a record (create,
 * update, delete), written in the write's own transaction, so nothing rolled back is ever
 * announced and nothing committed is missed. Record hooks, realtime streams and `changes()`
 * all read it by `seq`.
 *
 * A write queues its changes while its transaction runs; they are inserted as the
 * transaction's last statement (see {@link writeChanges}). On SQLite one writer at a time
 * holds the database, so seqs commit in order. On PostgreSQL concurrent writers take seqs
 * without waiting for each other and may commit out of order: a reader therefore never
 * steps over a missing seq until every transaction that could still commit it has ended
 * (see {@link readChangesAwaiting} and {@link changeLogWriters}, used by the change feed).
 *
 * @module
 */

import { CompiledQuery, type Kysely, sql } from "kysely";
import type { SqlDialect } from "../db/open_database.ts";
import { AT_COMMIT, pgLiteral } from "../db/with_commit.ts";

/** The change log table. */
export const CHANGES_TABLE = "_strata_changes";
/** The single-row table whose update claims a prune of the log. */
export const SWEEP_TABLE = "_strata_changes_sweep";
/** The PostgreSQL notification channel a committed change wakes. */
export const CHANGES_CHANNEL = "strata_changes";

/**
 * The hook naming the acting user of a write (synchronous: an object with its `UUID`, or
 * `null` when unknown); the auth layer registers it.
 */
export const ACTOR_HOOK = "record:actor";

/** What a change is: a record created, updated or deleted. */
export type ChangeOp = "create" | "update" | "delete";

/** One change, as a write queues it. */
export interface ChangeEntry {
  /** The collection's name (`Orders`). */
  readonly collection: string;
  /** The record's UUID. */
  readonly uuid: string;
  /** What happened. */
  readonly op: ChangeOp;
  /** Fields whose stored value changed (a translation write: its locale's fields). */
  readonly changed: readonly string[];
  /** The locale of a translation write, else `null`. */
  readonly locale: string | null;
  /** The acting user's UUID, or `null`. */
  readonly actor: string | null;
  /** When (epoch ms). */
  readonly at: number;
}

/** One committed change, as read back from the log. */
export interface ChangeEvent extends ChangeEntry {
  /** The change's position in the log: monotonic, the event id. */
  readonly seq: number;
}

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * The statements creating the change log tables when missing, run by schema sync in its
 * transaction (see `SyncOptions.ownTables`).
 *
 * @example
 * ```ts
 * import { changeLogTables } from "./log.ts";
 * changeLogTables("sqlite").length; // 4
 * ```
 */
export function changeLogTables(dialect: SqlDialect): string[] {
  return [
    // A seq is never reused: SQLite gives a new row the largest rowid plus one, and pruning
    // always keeps the newest row. (AUTOINCREMENT would say the same through
    // `sqlite_sequence`, one more page written by every write's commit.)
    `create table if not exists "${CHANGES_TABLE}" ("seq" ${
      dialect === "postgres" ? "bigserial" : "integer"
    } primary key, "collection" text not null, "uuid" text not null, "op" text not null, ` +
    `"at" bigint not null, "changed" text not null, "locale" text, "actor" text)`,
    // No index on `at`: pruning finds its bound by `seq` (see pruneChanges), and an index
    // would be one more page written by every write. Logs made before go without theirs.
    `drop index if exists "${CHANGES_TABLE}__at__idx"`,
    `create table if not exists "${SWEEP_TABLE}" ("id" integer primary key, "runAt" bigint not null)`,
    `insert into "${SWEEP_TABLE}" ("id", "runAt") values (1, 0) on conflict ("id") do nothing`,
  ];
}

/** Rows per insert statement (7 parameters each, far below either database's limit). */
const WRITE_BATCH = 500;
const INSERT_HEAD =
  `insert into "${CHANGES_TABLE}" ("collection", "uuid", "op", "at", ` +
  `"changed", "locale", "actor") values `;
/** SQLite: the insert's text by row count (a write logs one row, most often). */
const insertTexts = new Map<number, string>();

function sqliteInsertText(rows: number): string {
  let text = insertTexts.get(rows);
  if (text === undefined) {
    text = INSERT_HEAD +
      Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, ?)").join(", ");
    if (insertTexts.size >= 64) insertTexts.clear();
    insertTexts.set(rows, text);
  }
  return text;
}

/**
 * PostgreSQL: the insert with its values as literals, marked to travel with the commit
 * (`withCommit` in with_commit.ts); written directly rather than through `withCommit`,
 * which would search the text for each parameter on every write.
 */
function postgresInsert(entries: readonly ChangeEntry[]): CompiledQuery {
  let text = AT_COMMIT + INSERT_HEAD;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    text += `${i === 0 ? "" : ", "}(${pgLiteral(entry.collection)}, ${
      pgLiteral(entry.uuid)
    }, ${pgLiteral(entry.op)}, ${pgLiteral(entry.at)}, ${
      pgLiteral(JSON.stringify(entry.changed))
    }, ${pgLiteral(entry.locale)}, ${pgLiteral(entry.actor)})`;
  }
  return CompiledQuery.raw(text, []);
}

/**
 * The parameters of `entry`'s log row, in the order of the log's columns (those of
 * {@link changeRowStatement}).
 *
 * @example
 * ```ts ignore
 * const parameters = changeRowParameters(entry);
 * ```
 */
export function changeRowParameters(entry: ChangeEntry): unknown[] {
  return [
    entry.collection,
    entry.uuid,
    entry.op,
    entry.at,
    JSON.stringify(entry.changed),
    entry.locale,
    entry.actor,
  ];
}

/**
 * SQLite: the statement appending `entry` to the log (`?` parameters), for a write that
 * runs its statements itself (`ConnectionReader.writeAlone`); its rowid is the entry's seq.
 *
 * @example
 * ```ts ignore
 * reader.writeAlone([insert, changeRowStatement(entry)]);
 * ```
 */
export function changeRowStatement(
  entry: ChangeEntry,
): { sql: string; parameters: unknown[] } {
  return { sql: sqliteInsertText(1), parameters: changeRowParameters(entry) };
}

/**
 * PostgreSQL: `insert` (one INSERT of a record of `collection`, `$1`…`$n` parameters, nothing
 * after its values) and the log row of its create as one statement, so a create of its own
 * runs as one statement in autocommit: one round trip, no `begin` or `commit`, and the log
 * row is written by the create's own transaction. The log row is taken from the inserted
 * one (no row, no log row): its `uuid` and its `at` are the row's `UUID` and `_updatedAt`,
 * its collection and op are literals. `changed` is written as a literal when it is the same
 * for every create (the collection's fields); `null` makes it parameter `$n+1`, its JSON
 * text. The actor's UUID (or `null`) is the last parameter. `count` is the insert's
 * parameter count.
 *
 * @example
 * ```ts
 * import { createWithLogText } from "./log.ts";
 * const text = createWithLogText(
 *   'insert into "Posts" ("UUID", "_updatedAt") values ($1, $2)',
 *   2,
 *   "Posts",
 *   [],
 * );
 * text.endsWith("$3::text from \"r\""); // true
 * ```
 */
export function createWithLogText(
  insert: string,
  count: number,
  collection: string,
  changed: readonly string[] | null,
): string {
  const changedValue = changed === null
    ? `$${count + 1}::text`
    : pgLiteral(JSON.stringify(changed));
  const actor = `$${count + (changed === null ? 2 : 1)}::text`;
  return `with "r" as (${insert} returning "UUID", "_updatedAt") insert into "${CHANGES_TABLE}" ` +
    `("collection", "uuid", "op", "at", "changed", "locale", "actor") select ${
      pgLiteral(collection)
    }, "UUID", 'create', "_updatedAt", ${changedValue}, null, ${actor} from "r"`;
}

/**
 * Appends `entries` to the log inside the transaction `trx`, as its last statement: nothing
 * else, so a write waits for no other writer. On SQLite the statement is compiled once per
 * row count; on PostgreSQL it travels with the commit, in the same round trip
 * (with_commit.ts). (The wake-up of other instances is sent after the commit: see
 * `ChangeFeed.announce`.) Resolves, on SQLite, to the seq of the first entry (the others
 * follow it); on PostgreSQL, to `null`.
 *
 * @example
 * ```ts ignore
 * await writeChanges(trx, "sqlite", [{ collection: "Posts", uuid, op: "create", … }]);
 * ```
 */
export async function writeChanges(
  trx: AnyKysely,
  dialect: SqlDialect,
  entries: readonly ChangeEntry[],
): Promise<number | null> {
  let last: bigint | undefined;
  for (let i = 0; i < entries.length; i += WRITE_BATCH) {
    const part = entries.length <= WRITE_BATCH
      ? entries
      : entries.slice(i, i + WRITE_BATCH);
    // Only the last statement may wait for the commit: the ones before run at once.
    const final = i + WRITE_BATCH >= entries.length;
    let query: CompiledQuery;
    if (dialect === "postgres" && final) query = postgresInsert(part);
    else {
      const parameters: unknown[] = [];
      for (const entry of part) parameters.push(...changeRowParameters(entry));
      let text = sqliteInsertText(part.length);
      if (dialect === "postgres") {
        let n = 0;
        text = text.replace(/\?/g, () => `$${++n}`);
      }
      query = CompiledQuery.raw(text, parameters);
    }
    const result = await trx.executeQuery(query);
    last = result.insertId;
  }
  // SQLite gives the rows of a statement consecutive seqs, and one writer at a time.
  return dialect === "sqlite" && last !== undefined
    ? Number(last) - entries.length + 1
    : null;
}

function toEvent(row: Record<string, unknown>): ChangeEvent {
  return {
    seq: Number(row.seq),
    collection: row.collection as string,
    uuid: row.uuid as string,
    op: row.op as ChangeOp,
    at: Number(row.at),
    changed: JSON.parse(row.changed as string),
    locale: (row.locale ?? null) as string | null,
    actor: (row.actor ?? null) as string | null,
  };
}

/**
 * The committed changes after `after` (a seq), oldest first, at most `limit`, and none past
 * `until` when given. On PostgreSQL a reader of its own must bound its reads by the change
 * feed's position (seqs at or below it are final; see the module documentation).
 *
 * @example
 * ```ts ignore
 * const events = await readChanges(db, 0, 100, data.feed.position);
 * ```
 */
export async function readChanges(
  db: AnyKysely,
  after: number,
  limit: number,
  until?: number,
): Promise<ChangeEvent[]> {
  let query = db.selectFrom(CHANGES_TABLE).selectAll()
    .where("seq", ">", after);
  if (until !== undefined) query = query.where("seq", "<=", until);
  const rows = await query.orderBy("seq").limit(limit)
    .execute() as Record<string, unknown>[];
  return rows.map(toEvent);
}

/**
 * PostgreSQL: the committed changes after `after` like {@link readChanges}, and, in the same
 * snapshot, whether any of the transactions `writers` (from {@link changeLogWriters}) is
 * still in progress. Once none is, every seq those writers could have taken is final:
 * committed and visible here, or rolled back for good. With `seqsOnly`, `events` carry
 * their seq alone (a reader that only keeps its position needs nothing else).
 *
 * @example
 * ```ts ignore
 * const { events, waiting } = await readChangesAwaiting(db, 41, 1000, [731, 732]);
 * ```
 */
export async function readChangesAwaiting(
  db: AnyKysely,
  after: number,
  limit: number,
  writers: readonly number[],
  seqsOnly?: false,
): Promise<{ events: ChangeEvent[]; waiting: boolean }>;
export async function readChangesAwaiting(
  db: AnyKysely,
  after: number,
  limit: number,
  writers: readonly number[],
  seqsOnly: true,
): Promise<{ events: { seq: number }[]; waiting: boolean }>;
export async function readChangesAwaiting(
  db: AnyKysely,
  after: number,
  limit: number,
  writers: readonly number[],
  seqsOnly = false,
): Promise<{ events: { seq: number }[]; waiting: boolean }> {
  const columns = seqsOnly ? sql`seq` : sql`*`;
  // One statement, so the snapshot that answers "still in progress" is the one the rows
  // were read in. Transaction ids compare by their 32-bit value (pg_locks shows those).
  const { rows } = await sql<Record<string, unknown>>`
    select w.waiting, c.* from (
      select exists(
        select 1 from pg_snapshot_xip(pg_current_snapshot()) as x(id)
        where (x.id::text::bigint % 4294967296) = any(${[...writers]}::bigint[])
      ) as waiting
    ) as w left join lateral (
      select ${columns} from ${sql.table(CHANGES_TABLE)} where seq > ${after}
      order by seq limit ${limit}
    ) as c on true`.execute(db);
  const found = rows.filter((row) => row.seq !== null);
  return {
    waiting: rows[0]?.waiting === true,
    events: seqsOnly
      ? found.map((row) => ({ seq: Number(row.seq) }))
      : found.map(toEvent),
  };
}

/**
 * PostgreSQL: the transactions now writing to this schema's change log (holding its table
 * lock, which a writer takes before its seqs and keeps until it ends). A seq missing below
 * a visible one can only belong to one of them, or to a transaction already ended.
 *
 * @example
 * ```ts ignore
 * const writers = await changeLogWriters(db);
 * ```
 */
export async function changeLogWriters(db: AnyKysely): Promise<number[]> {
  const { rows } = await sql<{ id: string | number }>`
    select distinct x.transactionid::text::bigint as id
    from pg_locks as l join pg_locks as x
      on x.virtualtransaction = l.virtualtransaction and x.locktype = 'transactionid'
    where l.locktype = 'relation'
      and l.database = (select oid from pg_database where datname = current_database())
      and l.relation = to_regclass(${CHANGES_TABLE})`.execute(db);
  return rows.map((row) => Number(row.id));
}

/**
 * The smallest and largest seq still kept (`null` when the log is empty).
 *
 * @example
 * ```ts ignore
 * const { oldest, newest } = await changeBounds(db);
 * ```
 */
export async function changeBounds(
  db: AnyKysely,
): Promise<{ oldest: number | null; newest: number | null }> {
  // Written out: the feed reads it at boot, where building it cost more than running it.
  // One subquery per bound: SQLite reads a lone min() or max() off the key's b-tree, but
  // scans the whole log for both in one select (the feed reads this every poll).
  const table = sql.id(CHANGES_TABLE);
  const { rows: [row] } = await sql<Record<string, unknown>>`
    select (select min(seq) from ${table}) as "oldest",
      (select max(seq) from ${table}) as "newest"`.execute(db);
  const num = (v: unknown) => v === null || v === undefined ? null : Number(v);
  return { oldest: num(row?.oldest), newest: num(row?.newest) };
}

/** How long changes are kept. */
export interface Retention {
  /** Changes older than this many ms are pruned. */
  readonly maxAge: number;
  /** At most this many rows are kept (the newest). */
  readonly maxRows: number;
}

/**
 * Prunes the log when no instance did within `every` ms: the claim is one conditional
 * update of the sweep row, so N instances prune once. Resolves to whether this call pruned.
 * The newest change is always kept, however old.
 *
 * @example
 * ```ts ignore
 * await pruneChanges(db, Date.now(), { maxAge: 86_400_000, maxRows: 1_000_000 }, 60_000);
 * ```
 */
export async function pruneChanges(
  db: AnyKysely,
  now: number,
  retention: Retention,
  every: number,
): Promise<boolean> {
  const claimed = await db.updateTable(SWEEP_TABLE).set({ runAt: now })
    .where("id", "=", 1).where("runAt", "<=", now - every)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  // Everything before the oldest change still young: the scan in seq order stops there, so
  // it reads what it deletes and needs no index on `at`. (A change made late in a long
  // transaction can have a higher seq than younger ones: it goes at a later prune.) Never
  // the newest row, whose seq must stay the largest: SQLite would hand it out again.
  const table = sql.table(CHANGES_TABLE);
  await sql`delete from ${table} where seq < coalesce(
      (select seq from ${table} where at >= ${now - retention.maxAge}
        order by seq limit 1),
      (select max(seq) from ${table}))`.execute(db);
  const { newest } = await changeBounds(db);
  if (newest !== null && newest > retention.maxRows) {
    await db.deleteFrom(CHANGES_TABLE)
      .where("seq", "<=", newest - retention.maxRows).execute();
  }
  return true;
}
