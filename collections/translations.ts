/**
 * Translation rows: a translatable field holds one value per content locale in the
 * collection's translation table, keyed by (record UUID, locale). A read at a locale sees
 * that locale's values or `null` — there is no fallback to another locale, so a missing
 * translation is visible as such (`_translations` lists the locales a record holds).
 *
 * @module
 */

import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection } from "./resolve.ts";
import type { WhereFilter } from "./where.ts";
import { atomic } from "./_atomic.ts";
import { applyWindow, baseQuery, chunks, readCondition } from "./read.ts";

/** The builder state `deleteTranslation` needs. */
export interface TranslationTargetState {
  /** Filters selecting the records. */
  readonly wheres: readonly WhereFilter[];
  /** Order (with limit/offset, bounds the records). */
  readonly order: readonly string[];
  /** Row limit. */
  readonly limit: number | null;
  /** Rows to skip. */
  readonly offset: number | null;
  /** Locale the filters read translatable fields at. */
  readonly locale: string;
}

/**
 * Removes the translation at `locale` of every record the state selects. Resolves to whether
 * any record held one; those records get a new `_updatedAt`.
 *
 * @example
 * ```ts ignore
 * const removed = await deleteTranslation(ctx, posts, state, "de");
 * ```
 */
export async function deleteTranslation(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: TranslationTargetState,
  locale: string,
): Promise<boolean> {
  const table = collection.translationTable;
  if (!table) {
    throw new Error(`Collection ${collection.name} has no translatable fields`);
  }
  return await atomic(ctx, async () => {
    const condition = readCondition(
      ctx,
      collection,
      state.wheres,
      state.locale,
      true,
    );
    let query = applyWindow(
      ctx,
      collection,
      baseQuery(ctx, collection, state.locale, condition).select("m.UUID"),
      state,
    );
    // The main rows first, as every write of a record's rows locks them (an update holds
    // its main row, then writes the translation row).
    if (ctx.dialect === "postgres") query = query.forUpdate("m");
    const ids = (await query.execute() as { UUID: string }[]).map((r) =>
      r.UUID
    );
    const executor = ctx.executor();
    const now = ctx.now();
    let removed = false;
    for (const part of chunks(ids)) {
      const gone = await executor.deleteFrom(table)
        .where("record", "in", part).where("locale", "=", locale)
        .returning("record").execute() as { record: string }[];
      if (gone.length === 0) continue;
      removed = true;
      await executor.updateTable(collection.table).set({ _updatedAt: now })
        .where("UUID", "in", gone.map((r) => r.record)).execute();
      const fields = collection.translatedFields.map((field) => field.name);
      for (const { record } of gone) {
        ctx.recordChange(collection, record, "update", fields, locale);
      }
    }
    return removed;
  });
}
