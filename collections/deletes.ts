/**
 * Deletes with reference behaviours: the full `cascade` closure is computed first, then
 * `restrict` is checked against every referencing row outside it (409 `HTTPError`), then
 * `setNull` and `records` link removal are applied and the rows (with their translation and
 * junction rows) deleted — all inside the caller's transaction.
 *
 * On PostgreSQL the rows are locked `FOR UPDATE` before anything is read about them: the
 * records deleted first, then each cascade level as it is found, and the owners of removed
 * list links before their junction rows (a record's main row before its other rows, a
 * target before the records linking to it — the order every write takes, see "Consistency"
 * in docs/deployment.md). A write linking a record holds it `FOR SHARE` until it commits,
 * so the `restrict` and cascade checks see every link committed before the delete.
 *
 * @module
 */

import { HTTPError } from "../router/errors.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection } from "./resolve.ts";
import { chunks } from "./read.ts";
import { keepDeleted } from "./changes/deleted.ts";

type Closure = Map<ResolvedCollection, Set<string>>;

async function referencing(
  ctx: LayerContext,
  table: string,
  idColumn: string,
  column: string,
  ids: readonly string[],
  lock = false,
): Promise<string[]> {
  const out: string[] = [];
  for (const part of chunks(ids)) {
    let query = ctx.executor().selectFrom(table)
      .select(`${idColumn} as id`)
      .where(column, "in", part);
    if (lock && ctx.dialect === "postgres") {
      query = query.orderBy(idColumn).forUpdate();
    }
    const rows = await query.execute() as { id: string }[];
    for (const row of rows) out.push(row.id);
  }
  return out;
}

async function cascadeClosure(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
): Promise<Closure> {
  const closure: Closure = new Map();
  const queue: [ResolvedCollection, readonly string[]][] = [[collection, ids]];
  while (queue.length > 0) {
    const [current, candidates] = queue.shift()!;
    let seen = closure.get(current);
    if (!seen) closure.set(current, seen = new Set());
    const fresh = candidates.filter((id) => !seen!.has(id));
    if (fresh.length === 0) continue;
    for (const id of fresh) seen.add(id);
    for (const { from, field } of current.incoming) {
      if (field.kind !== "record" || field.onDelete !== "cascade") continue;
      const found = await referencing(
        ctx,
        from.table,
        "UUID",
        field.name,
        fresh,
        true,
      );
      if (found.length > 0) queue.push([from, found]);
    }
  }
  return closure;
}

async function checkRestrict(
  ctx: LayerContext,
  closure: Closure,
): Promise<void> {
  for (const [collection, idSet] of closure) {
    const ids = [...idSet];
    for (const { from, field } of collection.incoming) {
      if (field.onDelete !== "restrict") continue;
      const found = field.kind === "record"
        ? await referencing(ctx, from.table, "UUID", field.name, ids)
        : await referencing(ctx, field.junctionTable!, "owner", "target", ids);
      const doomed = closure.get(from);
      if (found.some((id) => !doomed?.has(id))) {
        throw new HTTPError(
          409,
          `This record is still referenced by ${from.name}.${field.name}`,
          {
            data: {
              collection: from.name,
              field: field.name,
            },
            messageKey: "errors.restrictDelete",
          },
        );
      }
    }
  }
}

/** Logs an update of `field` on records of `collection` a delete changed, unless they go too. */
function logUpdates(
  ctx: LayerContext,
  closure: Closure,
  collection: ResolvedCollection,
  ids: readonly string[],
  field: string,
): void {
  const doomed = closure.get(collection);
  for (const id of ids) {
    if (!doomed?.has(id)) {
      ctx.recordChange(collection, id, "update", [field], null);
    }
  }
}

/**
 * Deletes the records `ids` of `collection` and applies every reference behaviour; resolves
 * to the ids deleted (on PostgreSQL, those that still existed once locked: a concurrent
 * delete may have taken the others). Throws a 409 {@link HTTPError} when a `restrict`
 * reference still points at one of them.
 *
 * @example
 * ```ts ignore
 * const deleted = await removeRecords(ctx, users, [uuid]); // may throw the 409 HTTPError
 * ```
 */
export async function removeRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  if (ctx.dialect === "postgres") {
    ids = await referencing(ctx, collection.table, "UUID", "UUID", ids, true);
    if (ids.length === 0) return [];
  }
  const closure = await cascadeClosure(ctx, collection, ids);
  await checkRestrict(ctx, closure);
  // Before any link or row of the doomed records is touched: their state as stored.
  await keepDeleted(ctx, closure);
  const executor = ctx.executor();
  const now = ctx.now();
  for (const [current, idSet] of closure) {
    const doomed = [...idSet];
    for (const part of chunks(doomed)) {
      for (const { from, field } of current.incoming) {
        if (field.kind === "record" && field.onDelete === "setNull") {
          const updated = await executor.updateTable(from.table)
            .set({ [field.name]: null, _updatedAt: now })
            .where(field.name, "in", part).returning("UUID")
            .execute() as { UUID: string }[];
          logUpdates(
            ctx,
            closure,
            from,
            updated.map((r) => r.UUID),
            field.name,
          );
        } else if (field.kind === "records" && field.onDelete === "cascade") {
          const owners = await referencing(
            ctx,
            field.junctionTable!,
            "owner",
            "target",
            part,
          );
          // The owners' main rows first: an update of an owner holds it before its links.
          for (const ownerPart of chunks([...new Set(owners)].sort())) {
            await executor.updateTable(from.table).set({ _updatedAt: now })
              .where("UUID", "in", ownerPart).execute();
          }
          await executor.deleteFrom(field.junctionTable!)
            .where("target", "in", part).execute();
          logUpdates(ctx, closure, from, [...new Set(owners)], field.name);
        }
      }
    }
  }
  for (const [current, idSet] of closure) {
    for (const part of chunks([...idSet])) {
      for (const field of current.junctionFields) {
        await executor.deleteFrom(field.junctionTable!)
          .where("owner", "in", part).execute();
      }
      if (current.translationTable) {
        await executor.deleteFrom(current.translationTable)
          .where("record", "in", part).execute();
      }
      await executor.deleteFrom(current.table).where("UUID", "in", part)
        .execute();
      for (const id of part) ctx.recordChange(current, id, "delete", [], null);
    }
  }
  return [...ids];
}
