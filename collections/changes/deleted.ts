/**
 * The last stored state of deleted records, for the collections a consumer asks to keep it
 * of (a webhook announcing deletes sends it). Written in the delete's own transaction, before
 * anything of the records is removed, so it is exactly what the log's `delete` took away.
 *
 * @module
 */

import { type Kysely, sql } from "kysely";
import type { LayerContext } from "../_context.ts";
import type { ResolvedCollection } from "../resolve.ts";
import type { DataRecord } from "../results.ts";
import { createIfMissing } from "../db/create_if_missing.ts";
import { storedRecordsById } from "./before_write.ts";

/** The table of deleted records' last states. */
export const DELETED_TABLE = "_strata_deleted";

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * Creates the table when missing; safe when several instances boot at once.
 *
 * @example
 * ```ts ignore
 * await ensureDeletedTable(db);
 * ```
 */
export async function ensureDeletedTable(db: AnyKysely): Promise<void> {
  await createIfMissing(() =>
    db.schema.createTable(DELETED_TABLE).ifNotExists()
      .addColumn("collection", "text", (c) => c.notNull())
      .addColumn("uuid", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .addColumn("record", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${DELETED_TABLE}__pk`, ["collection", "uuid"])
      .execute()
  );
  await createIfMissing(() =>
    db.schema.createIndex(`${DELETED_TABLE}__at__idx`).ifNotExists()
      .on(DELETED_TABLE).column("at").execute()
  );
}

/**
 * Keeps the current state of the records about to be deleted, for the collections
 * `ctx.keepDeleted` names (inside the delete's transaction).
 *
 * @example
 * ```ts ignore
 * await keepDeleted(ctx, new Map([[posts, new Set([uuid])]]));
 * ```
 */
export async function keepDeleted(
  ctx: LayerContext,
  doomed: ReadonlyMap<ResolvedCollection, ReadonlySet<string>>,
): Promise<void> {
  for (const [collection, ids] of doomed) {
    if (!ctx.keepDeleted.has(collection.name) || ids.size === 0) continue;
    const records = await storedRecordsById(
      ctx,
      collection,
      [...ids],
      ctx.defaultLocale,
    );
    const at = ctx.now();
    for (let i = 0; i < records.length; i += 200) {
      const rows = records.slice(i, i + 200).map((record) => ({
        collection: collection.name,
        uuid: record.UUID as string,
        at,
        record: JSON.stringify(record),
      }));
      await ctx.executor().insertInto(DELETED_TABLE).values(rows)
        .onConflict((oc) =>
          oc.columns(["collection", "uuid"]).doUpdateSet({
            at: sql`excluded.at`,
            record: sql`excluded.record`,
          })
        ).execute();
    }
  }
}

/**
 * The last stored state of the deleted record `uuid` of `collection`, if it was kept.
 *
 * @example
 * ```ts ignore
 * const last = await deletedRecord(db, "Orders", uuid);
 * ```
 */
export async function deletedRecord(
  db: AnyKysely,
  collection: string,
  uuid: string,
): Promise<DataRecord | undefined> {
  const row = await db.selectFrom(DELETED_TABLE).select("record")
    .where("collection", "=", collection).where("uuid", "=", uuid)
    .executeTakeFirst() as { record: string } | undefined;
  return row ? JSON.parse(row.record) : undefined;
}

/**
 * Forgets the states kept before `before` (epoch ms).
 *
 * @example
 * ```ts ignore
 * await pruneDeleted(db, Date.now() - 2 * 86_400_000);
 * ```
 */
export async function pruneDeleted(
  db: AnyKysely,
  before: number,
): Promise<void> {
  await db.deleteFrom(DELETED_TABLE).where("at", "<", before).execute();
}
