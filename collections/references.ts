/**
 * Checks that `record` / `records` values point at existing records, inside the write's
 * transaction. The target's `query:filter` hooks apply (a record hidden from reads cannot be
 * linked); on PostgreSQL the targets are locked `FOR SHARE` until the write commits.
 *
 * @module
 */

import { sql } from "kysely";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import { noteErrorCode, type WriteErrors } from "./results.ts";
import { andConditions, hookConditions } from "./compile_where.ts";
import { baseQuery, chunks, rootScope } from "./read.ts";

/**
 * The UUIDs among `ids` that exist in `collection` and pass its hooks at `locale`.
 *
 * @example
 * ```ts ignore
 * const found = await existingIds(ctx, users, [uuid], "en");
 * ```
 */
export async function existingIds(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
  locale: string,
): Promise<Set<string>> {
  const found = new Set<string>();
  const scope = rootScope(ctx, collection, locale);
  const hooks = hookConditions(scope, { UUID: { in: [...ids] } }, "where");
  for (const part of chunks(ids)) {
    const condition = andConditions([
      sql`${sql.ref("m.UUID")} in (${sql.join(part)})`,
      hooks,
    ]);
    let query = baseQuery(ctx, collection, locale, condition).select("m.UUID");
    if (ctx.dialect === "postgres") query = query.forShare("m");
    const rows = await query.execute() as { UUID: string }[];
    for (const row of rows) found.add(row.UUID);
  }
  return found;
}

/**
 * Adds `invalidReference` errors: at `field` for a `record`, at `field[i]` for each missing
 * UUID of a `records` list.
 *
 * @example
 * ```ts ignore
 * await checkReferences(ctx, values, "en", errors);
 * ```
 */
export async function checkReferences(
  ctx: LayerContext,
  values: ReadonlyMap<ResolvedField, unknown>,
  locale: string,
  errors: WriteErrors,
): Promise<void> {
  const wanted = new Map<string, Set<string>>();
  const relations: [ResolvedField, unknown][] = [];
  for (const [field, value] of values) {
    if (!field.target || value === null || value === undefined) continue;
    relations.push([field, value]);
    let set = wanted.get(field.target);
    if (!set) wanted.set(field.target, set = new Set());
    if (typeof value === "string") set.add(value);
    else for (const id of value as string[]) set.add(id);
  }
  if (relations.length === 0) return;
  const existing = new Map<string, Set<string>>();
  for (const [target, ids] of wanted) {
    if (ids.size === 0) continue;
    existing.set(
      target,
      await existingIds(ctx, ctx.collection(target), [...ids], locale),
    );
  }
  const message = ctx.render("invalidReference", {});
  for (const [field, value] of relations) {
    const found = existing.get(field.target!) ?? new Set();
    if (typeof value === "string") {
      if (!found.has(value)) {
        errors[field.name] = message;
        noteErrorCode(errors, field.name, "invalidReference");
      }
    } else {
      (value as string[]).forEach((id, i) => {
        if (!found.has(id)) {
          errors[`${field.name}[${i}]`] = message;
          noteErrorCode(errors, `${field.name}[${i}]`, "invalidReference");
        }
      });
    }
  }
}
