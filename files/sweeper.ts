/**
 * The sweeper: deletes unattached uploads older than `uploads.orphanTtl` and files whose
 * record or field value went away. Every instance runs it; a file is claimed through the
 * database (a conditional update only one instance wins) before it is deleted, and a file a
 * committed record still references is never deleted (checked by a fresh statement after the
 * claim, and put back if so).
 *
 * @module
 */

import { sql, type SqlBool } from "kysely";
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

/** A claim older than this is another instance's that died: it may be taken over. */
const STALE_CLAIM = 10 * 60_000;
/** Files looked at per sweep (the next sweep takes the rest). */
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
  uuid: ReturnType<typeof sql.ref> | string,
) {
  const column = sql.ref(`m.${field.name}`);
  const value = typeof uuid === "string" ? sql`${uuid}` : uuid;
  if (field.kind === "file") return sql`${column} = ${value}`;
  return dialect === "postgres"
    ? sql`${column} @> jsonb_build_array(${value}::text)`
    : sql`exists (select 1 from json_each(${column}) as e where e.value = ${value})`;
}

/** Whether a committed record holds file `row` in its field now. */
async function referenced(ctx: SweepContext, row: FileRow): Promise<boolean> {
  if (row.record === null) return false;
  const collection = ctx.collections.get(row.collection);
  const field = collection?.fields.get(row.field);
  if (
    !collection || !field || (field.kind !== "file" && field.kind !== "files")
  ) {
    return false;
  }
  const found = await sql`select 1 as one from ${
    sql.table(collection.table)
  } as m
    where m."UUID" = ${row.record} and ${holds(ctx.dialect, field, row.UUID)}`
    .execute(ctx.db);
  return found.rows.length > 0;
}

async function candidates(ctx: SweepContext, now: number): Promise<FileRow[]> {
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
    .limit(BATCH).execute();
  const out = rows.map((r) => fileRowOf(r as Record<string, unknown>));
  // Attached files whose record or field value went away (a delete, a write that bypassed the
  // data layer, a field dropped from its collection).
  for (const field of fileFields(ctx.collections)) {
    if (out.length >= BATCH) break;
    const collection = ctx.collections.get(field.collection)!;
    const lost = await sql`select f.* from ${sql.table(FILES_TABLE)} as f
      where f.state = 'attached' and f.collection = ${field.collection}
      and f.field = ${field.name} and ${claimable}
      and not exists (select 1 from ${sql.table(collection.table)} as m
        where m."UUID" = f.record and ${
      holds(ctx.dialect, field, sql.ref("f.UUID"))
    })
      limit ${BATCH - out.length}`.execute(ctx.db);
    for (const raw of lost.rows) {
      out.push(fileRowOf(raw as Record<string, unknown>));
    }
  }
  const known = new Set(
    fileFields(ctx.collections).map((f) => `${f.collection}.${f.name}`),
  );
  if (out.length < BATCH) {
    // Files of fields no longer defined.
    const rest = await ctx.db.selectFrom(FILES_TABLE).selectAll()
      .where("state", "=", "attached").where(claimable)
      .limit(BATCH * 4).execute();
    for (const raw of rest) {
      const row = fileRowOf(raw as Record<string, unknown>);
      if (!known.has(`${row.collection}.${row.field}`)) out.push(row);
    }
  }
  return out;
}

/**
 * Runs one sweep; answers how many files were deleted.
 *
 * @example
 * ```ts ignore
 * const deleted = await sweepFiles(ctx);
 * ```
 */
export async function sweepFiles(ctx: SweepContext): Promise<number> {
  const now = ctx.now();
  let deleted = 0;
  for (const row of await candidates(ctx, now)) {
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
    if (Number(claim.numUpdatedRows) !== 1) continue;
    if (row.state !== "pending" && await referenced(ctx, row)) {
      await ctx.db.updateTable(FILES_TABLE)
        .set({ state: "attached", claimedAt: null })
        .where("UUID", "=", row.UUID).execute();
      continue;
    }
    const fresh = await ctx.db.selectFrom(FILES_TABLE).select("variants")
      .where("UUID", "=", row.UUID).executeTakeFirst();
    const variants: string[] = JSON.parse(
      (fresh?.variants as string | undefined) ?? "[]",
    );
    for (const key of [...variants, row.key]) await ctx.storage.delete(key);
    await ctx.db.deleteFrom(FILES_TABLE)
      .where("UUID", "=", row.UUID).where("claimedAt", "=", now).execute();
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
  const timer = setInterval(() => {
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
