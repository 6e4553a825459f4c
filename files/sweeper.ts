/**
 * The sweeper: deletes unattached uploads older than `uploads.orphanTtl` and files whose
 * record or field value went away, including the files of a field (or collection) removed
 * from its definition. Every instance runs it; a file is claimed through the database (a
 * conditional update only one instance wins) before it is deleted, and a file a committed
 * record still holds is never deleted (checked by fresh statements after the claim: its owner
 * record, or for a file of a field no longer defined every record's file fields; it is put
 * back under that record if so). One sweep looks at a bounded batch of
 * files; each kind of candidate is found by the database, so every sweep makes progress.
 *
 * @module
 */

import { type RawBuilder, sql, type SqlBool } from "kysely";
import type { Kysely } from "kysely";
import type { SqlDialect } from "../collections/db/open_database.ts";
import type {
  ResolvedCollection,
  ResolvedField,
} from "../collections/resolve.ts";
import {
  type FileRow,
  fileRowOf,
  FILES_TABLE,
} from "../collections/files/table.ts";
import type { StorageDriver } from "./storage/driver.ts";
import { backgroundInterval } from "../utils/_background_interval.ts";

/** A claim older than this is another instance's that died: it may be taken over. */
const STALE_CLAIM = 10 * 60_000;
/** Files looked at per sweep by default (the next sweep takes the rest). */
const BATCH = 200;

/** What a sweep needs. */
export interface SweepContext {
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  readonly dialect: SqlDialect;
  readonly storage: StorageDriver;
  readonly collections: ReadonlyMap<string, ResolvedCollection>;
  readonly now: () => number;
  readonly orphanTtl: number;
  /** The most files one sweep looks at (and so deletes); default 200. */
  readonly batch?: number;
}

/** Where a committed record holds a file: the owner it is put back under. */
interface Holder {
  readonly collection: string;
  readonly field: string;
  readonly record: string;
}

function fileFields(
  collections: ReadonlyMap<string, ResolvedCollection>,
): ResolvedField[] {
  const out: ResolvedField[] = [];
  for (const collection of collections.values()) {
    for (const field of collection.fieldList) {
      if (field.kind === "file" || field.kind === "files") out.push(field);
    }
  }
  return out;
}

/** SQL: the row `m` of `field`'s collection holds the file `uuid` (a column reference). */
function holds(
  dialect: SqlDialect,
  field: ResolvedField,
  uuid: RawBuilder<unknown>,
) {
  const column = sql.ref(`m.${field.name}`);
  if (field.kind === "file") return sql`${column} = ${uuid}`;
  return dialect === "postgres"
    ? sql`${column} @> jsonb_build_array(${uuid}::text)`
    : sql`exists (select 1 from json_each(${column}) as e where e.value = ${uuid})`;
}

/** The file field `row` was uploaded for, when its collection still defines it. */
function ownField(
  ctx: SweepContext,
  row: FileRow,
): ResolvedField | undefined {
  const field = ctx.collections.get(row.collection)?.fields.get(row.field);
  return field && (field.kind === "file" || field.kind === "files")
    ? field
    : undefined;
}

/** Whether the owner record of `row` holds it in its field now (one look-up by UUID). */
async function ownerHolds(
  ctx: SweepContext,
  row: FileRow,
  field: ResolvedField,
): Promise<boolean> {
  if (row.record === null) return false;
  const table = ctx.collections.get(row.collection)!.table;
  const found = await sql`select 1 as one from ${sql.table(table)} as m
    where m."UUID" = ${row.record} and ${
    holds(ctx.dialect, field, sql`${row.UUID}`)
  }`.execute(ctx.db);
  return found.rows.length > 0;
}

/**
 * The files among `uuids` a committed record holds in any file field of any collection (a
 * field renamed by hand, its values copied into another), each with its first holder. One
 * statement per file field, each reading its whole table: asked only for the files of fields
 * no longer defined.
 */
async function heldFiles(
  ctx: SweepContext,
  uuids: readonly string[],
): Promise<Map<string, Holder>> {
  const held = new Map<string, Holder>();
  if (uuids.length === 0) return held;
  const wanted = sql.join(uuids);
  for (const field of fileFields(ctx.collections)) {
    const table = sql.table(ctx.collections.get(field.collection)!.table);
    const column = sql.ref(`m.${field.name}`);
    const query = field.kind === "file"
      ? sql<{ record: string; file: string }>`select m."UUID" as record,
          ${column} as file from ${table} as m where ${column} in (${wanted})`
      : ctx.dialect === "postgres"
      ? sql<{ record: string; file: string }>`select m."UUID" as record,
          e.value as file from ${table} as m
          cross join lateral jsonb_array_elements_text(${column}) as e(value)
          where e.value in (${wanted})`
      : sql<{ record: string; file: string }>`select m."UUID" as record,
          e.value as file from ${table} as m, json_each(${column}) as e
          where e.value in (${wanted})`;
    for (const row of (await query.execute(ctx.db)).rows) {
      if (held.has(row.file)) continue;
      held.set(row.file, {
        collection: field.collection,
        field: field.name,
        record: row.record,
      });
    }
  }
  return held;
}

async function candidates(
  ctx: SweepContext,
  now: number,
  batch: number,
): Promise<FileRow[]> {
  const stale = now - STALE_CLAIM;
  const claimable = sql<
    SqlBool
  >`("claimedAt" is null or "claimedAt" < ${stale})`;
  const rows = await ctx.db.selectFrom(FILES_TABLE).selectAll()
    .where((eb) =>
      eb.or([
        eb.and([
          eb("state", "=", "pending"),
          eb("createdAt", "<", now - ctx.orphanTtl),
        ]),
        eb("state", "=", "detached"),
      ])
    )
    .where(claimable)
    .limit(batch).execute();
  const out = rows.map((r) => fileRowOf(r as Record<string, unknown>));
  // Attached files whose record or field value went away (a delete, a write that bypassed the
  // data layer).
  const fields = fileFields(ctx.collections);
  for (const field of fields) {
    if (out.length >= batch) return out;
    const collection = ctx.collections.get(field.collection)!;
    const lost = await sql`select f.* from ${sql.table(FILES_TABLE)} as f
      where f.state = 'attached' and f.collection = ${field.collection}
      and f.field = ${field.name} and ${claimable}
      and not exists (select 1 from ${sql.table(collection.table)} as m
        where m."UUID" = f.record and ${
      holds(ctx.dialect, field, sql.ref("f.UUID"))
    })
      limit ${batch - out.length}`.execute(ctx.db);
    for (const raw of lost.rows) {
      out.push(fileRowOf(raw as Record<string, unknown>));
    }
  }
  if (out.length >= batch) return out;
  // Attached files of a field (or collection) no longer defined, found by the database so
  // that however many files the defined fields hold, every sweep reaches these.
  const orphaned = await ctx.db.selectFrom(FILES_TABLE).selectAll()
    .where("state", "=", "attached").where(claimable)
    .where((eb) =>
      eb.not(eb.or(fields.map((field) =>
        eb.and([
          eb("collection", "=", field.collection),
          eb("field", "=", field.name),
        ])
      )))
    )
    .limit(batch - out.length).execute();
  for (const raw of orphaned) {
    out.push(fileRowOf(raw as Record<string, unknown>));
  }
  return out;
}

/**
 * Runs one sweep; answers how many files were deleted. One sweep looks at `batch` files at
 * most (the next sweep takes the rest). A claimed file a committed record still holds, in any
 * file field, is put back under that record instead of deleted.
 *
 * @example
 * ```ts ignore
 * const deleted = await sweepFiles(ctx);
 * ```
 */
export async function sweepFiles(ctx: SweepContext): Promise<number> {
  const now = ctx.now();
  const claimed: FileRow[] = [];
  for (const row of await candidates(ctx, now, ctx.batch ?? BATCH)) {
    const claim = await ctx.db.updateTable(FILES_TABLE)
      .set({ claimedAt: now })
      .where("UUID", "=", row.UUID)
      .where("state", "=", row.state)
      .where(
        sql<SqlBool>`("claimedAt" is null or "claimedAt" < ${
          now - STALE_CLAIM
        })`,
      )
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 1) claimed.push(row);
  }
  // Checked after the claim, by fresh statements: a record committed before holds it, its
  // owner or, for a file of a field no longer defined, any record through any file field.
  const held = await heldFiles(
    ctx,
    claimed.filter((row) => !ownField(ctx, row)).map((row) => row.UUID),
  );
  let deleted = 0;
  for (const row of claimed) {
    const field = ownField(ctx, row);
    const owner: Holder | undefined = field
      ? await ownerHolds(ctx, row, field)
        ? { collection: row.collection, field: row.field, record: row.record! }
        : undefined
      : held.get(row.UUID);
    if (owner) {
      await ctx.db.updateTable(FILES_TABLE)
        .set({
          collection: owner.collection,
          field: owner.field,
          record: owner.record,
          state: "attached",
          claimedAt: null,
        })
        .where("UUID", "=", row.UUID).where("claimedAt", "=", now).execute();
      continue;
    }
    // The row goes first, only while still claimed and in the state it was claimed in: a
    // write that attached a pending upload meanwhile keeps it; a write after this finds no
    // upload to attach. Storage follows (a failure there leaves bytes, never a row without).
    const gone = await ctx.db.deleteFrom(FILES_TABLE)
      .where("UUID", "=", row.UUID).where("claimedAt", "=", now)
      .where("state", "=", row.state)
      .returning("variants").executeTakeFirst();
    if (!gone) continue;
    const variants: string[] = JSON.parse(
      (gone.variants as string | undefined) ?? "[]",
    );
    for (const key of [...variants, row.key]) await ctx.storage.delete(key);
    deleted++;
  }
  return deleted;
}

/** A sweeper running every `interval` ms until stopped. */
export interface Sweeper {
  /** Runs a sweep now (waits for one in progress first). */
  sweep(): Promise<number>;
  /** Stops the timer and waits for a sweep in progress. */
  close(): Promise<void>;
}

/**
 * Starts the periodic sweeper.
 *
 * @example
 * ```ts ignore
 * const sweeper = startSweeper(ctx, 60_000);
 * await sweeper.close();
 * ```
 */
export function startSweeper(ctx: SweepContext, interval: number): Sweeper {
  let running: Promise<number> = Promise.resolve(0);
  let closed = false;
  const sweep = (): Promise<number> => {
    running = running.catch(() => 0).then(() => closed ? 0 : sweepFiles(ctx));
    return running;
  };
  const timer = backgroundInterval(() => {
    sweep().catch((error) => {
      // The database or the storage is away: the next period tries again.
      console.error("The file sweeper failed (retrying next period):", error);
    });
  }, interval);
  return {
    sweep,
    async close() {
      closed = true;
      clearInterval(timer);
      await running.catch(() => {});
    },
  };
}
