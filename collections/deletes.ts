/**
 * Deletes with reference behaviours: the full `cascade` closure is computed first, then
 * `restrict` is checked against every referencing row outside it (409 `HTTPError`), then
 * `setNull` and `records` link removal are applied and the rows (with their translation and
 * junction rows) deleted — all inside the caller's transaction.
 *
 * @module
 */

import { HTTPError } from "../router/errors.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection } from "./resolve.ts";
import { chunks } from "./read.ts";

type Closure = Map<ResolvedCollection, Set<string>>;

async function referencing(
  ctx: LayerContext,
  table: string,
  idColumn: string,
  column: string,
  ids: readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  for (const part of chunks(ids)) {
    const rows = await ctx.executor().selectFrom(table)
      .select(`${idColumn} as id`)
      .where(column, "in", part)
      .execute() as { id: string }[];
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

/**
 * Deletes the records `ids` of `collection` and applies every reference behaviour.
 * Throws a 409 {@link HTTPError} when a `restrict` reference still points at one of them.
 *
 * @example
 * ```ts ignore
 * await removeRecords(ctx, users, [uuid]); // may throw the 409 HTTPError
 * ```
 */
export async function removeRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const closure = await cascadeClosure(ctx, collection, ids);
  await checkRestrict(ctx, closure);
  const executor = ctx.executor();
  const now = ctx.now();
  for (const [current, idSet] of closure) {
    const doomed = [...idSet];
    for (const part of chunks(doomed)) {
      for (const { from, field } of current.incoming) {
        if (field.kind === "record" && field.onDelete === "setNull") {
          await executor.updateTable(from.table)
            .set({ [field.name]: null, _updatedAt: now })
            .where(field.name, "in", part).execute();
        } else if (field.kind === "records" && field.onDelete === "cascade") {
          const owners = await referencing(
            ctx,
            field.junctionTable!,
            "owner",
            "target",
            part,
          );
          await executor.deleteFrom(field.junctionTable!)
            .where("target", "in", part).execute();
          for (const ownerPart of chunks([...new Set(owners)])) {
            await executor.updateTable(from.table).set({ _updatedAt: now })
              .where("UUID", "in", ownerPart).execute();
          }
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
    }
  }
}
