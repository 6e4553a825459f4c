/**
 * Which fields an update changed, record by record, for the change log's `changed`.
 *
 * @module
 */

import type { LayerContext } from "../_context.ts";
import type { ResolvedCollection, ResolvedField } from "../resolve.ts";
import { chunks } from "../read.ts";

/** A stored value as the field reads it back (so both sides compare alike). */
function readBack(field: ResolvedField, raw: unknown): unknown {
  const value = raw === undefined ? null : raw;
  return field.fromDb && value !== null ? field.fromDb(value) : value;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  const text = (v: unknown) =>
    JSON.stringify(v, (_, x) => typeof x === "bigint" ? String(x) : x);
  return text(a) === text(b);
}

/**
 * The link lists of `field` (a `records` field) held by `owners`, in order.
 *
 * @example
 * ```ts ignore
 * const lists = await junctionLists(ctx, tags, [uuid]); // Map { uuid => [a, b] }
 * ```
 */
export async function junctionLists(
  ctx: LayerContext,
  field: ResolvedField,
  owners: readonly string[],
): Promise<Map<string, string[]>> {
  const lists = new Map<string, string[]>();
  for (const part of chunks(owners)) {
    const rows = await ctx.executor().selectFrom(field.junctionTable!)
      .select(["owner", "target"]).where("owner", "in", part)
      .orderBy("owner").orderBy("position").execute() as {
        owner: string;
        target: string;
      }[];
    for (const row of rows) {
      const list = lists.get(row.owner);
      if (list) list.push(row.target);
      else lists.set(row.owner, [row.target]);
    }
  }
  return lists;
}

/**
 * The names of the fields whose stored value an update changes on one record: `before` holds
 * its stored column and translation values (by field name), `lists` its link lists, `after`
 * the values written.
 *
 * @example
 * ```ts ignore
 * changedFields(posts, { title: "a" }, new Map(), new Map([[title, "b"]])); // ["title"]
 * ```
 */
export function changedFields(
  collection: ResolvedCollection,
  before: Readonly<Record<string, unknown>>,
  lists: ReadonlyMap<ResolvedField, ReadonlyMap<string, string[]>>,
  uuid: string,
  after: ReadonlyMap<ResolvedField, unknown>,
): string[] {
  const changed: string[] = [];
  for (const field of collection.fieldList) {
    if (!after.has(field)) continue;
    const value = after.get(field);
    if (field.storage === "junction") {
      const old = lists.get(field)?.get(uuid) ?? [];
      if (!same(old, value ?? [])) changed.push(field.name);
      continue;
    }
    const old = readBack(field, before[field.name]);
    const next = readBack(field, field.toDb(value));
    if (!same(old, next)) changed.push(field.name);
  }
  return changed;
}
