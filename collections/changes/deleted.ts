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
import { storedRecordsById } from "./before_write.ts";

/** The table of deleted records' last states. */
export const DELETED_TABLE = "_strata_deleted";

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * The statements creating the table when missing, run by schema sync in its transaction
 * (see `SyncOptions.ownTables`).
 *
 * @example
 * ```ts
 * import { DELETED_TABLE_STATEMENTS } from "./deleted.ts";
 * DELETED_TABLE_STATEMENTS.length; // 2
 * ```
 */
export const DELETED_TABLE_STATEMENTS: readonly string[] = Object.freeze([
  `create table if not exists "${DELETED_TABLE}" ("collection" text not null, ` +
  `"uuid" text not null, "at" bigint not null, "record" text not null, ` +
  `constraint "${DELETED_TABLE}__pk" primary key ("collection", "uuid"))`,
  `create index if not exists "${DELETED_TABLE}__at__idx" on "${DELETED_TABLE}" ("at")`,
]);

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
