/**
 * `record:beforeWrite`: functions that run inside a write's transaction before field
 * validation, may change the write input in place, and refuse the write by throwing (an
 * `HTTPError` becomes the answer; nothing is written).
 *
 * @module
 */

import { sql } from "kysely";
import type { LayerContext } from "../_context.ts";
import type { ResolvedCollection } from "../resolve.ts";
import type { DataRecord } from "../results.ts";
import type { WhereFilter } from "../where.ts";
import { chunks, readRecords } from "../read.ts";
import { buildReadSpec } from "../read_spec.ts";
import type { ChangeOp } from "./log.ts";

/** What a `record:beforeWrite` function receives. */
export interface BeforeWriteContext {
  /** The collection's name, as defined. */
  readonly collection: string;
  /** The operation. */
  readonly op: ChangeOp;
  /**
   * The write input: change it in place (validation runs on the changed input); `null` on
   * delete. On an update of several records every call shares one input.
   */
  readonly input: Record<string, unknown> | null;
  /** The stored record (readable fields) on update and delete; `null` on create. */
  readonly existing: DataRecord | null;
  /** The acting user (the signed-in user of the request), or `null`. */
  readonly user: unknown;
}

/** The `record:beforeWrite` functions of a data layer, with their filters applied. */
export interface BeforeWriteHooks {
  /** Whether any function runs for a write of `collection` by `op`. */
  matches(collection: string, op: ChangeOp): boolean;
  /** Runs every matching function, in registration order. */
  run(context: BeforeWriteContext): Promise<void>;
}

/** The records a write is about to change, as the system reads them (readable fields). */
async function storedRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: {
    readonly wheres: readonly WhereFilter[];
    readonly order: readonly string[];
    readonly limit: number | null;
    readonly offset: number | null;
    readonly locale: string;
  },
  ids?: readonly string[],
): Promise<DataRecord[]> {
  const options = {
    ...state,
    spec: buildReadSpec(ctx, collection, null, []),
    hooks: ids === undefined,
  };
  if (ids === undefined) return await readRecords(ctx, collection, options);
  const out: DataRecord[] = [];
  for (const part of chunks(ids)) {
    out.push(
      ...await readRecords(
        ctx,
        collection,
        { ...options, wheres: [], order: [], limit: null, offset: null },
        sql`${sql.ref("m.UUID")} in (${sql.join(part)})`,
      ),
    );
  }
  return out;
}

/**
 * The records `ids` of `collection` as the system reads them now (readable fields, `locale`
 * for translatable ones), inside the current transaction if there is one.
 *
 * @example
 * ```ts ignore
 * const [post] = await storedRecordsById(ctx, posts, [uuid], "en");
 * ```
 */
export function storedRecordsById(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
  locale: string,
): Promise<DataRecord[]> {
  const state = { wheres: [], order: [], limit: null, offset: null, locale };
  return storedRecords(ctx, collection, state, ids);
}

/**
 * Runs the `record:beforeWrite` functions for a create or update; resolves to the input
 * the write goes on with (a copy the functions may have changed), or `input` itself when no
 * function runs. For an update, `state` selects the records it changes.
 *
 * @example
 * ```ts ignore
 * const input = await beforeWrite(ctx, posts, "create", { title: "x" }, state);
 * ```
 */
export async function beforeWrite(
  ctx: LayerContext,
  collection: ResolvedCollection,
  op: "create" | "update",
  input: Readonly<Record<string, unknown>>,
  state: Parameters<typeof storedRecords>[2],
): Promise<Readonly<Record<string, unknown>>> {
  const hooks = ctx.beforeWrite;
  if (!hooks?.matches(collection.name, op)) return input;
  // A copy per run: a transaction retried after a deadlock starts from the caller's input.
  const mutable = { ...input };
  const user = ctx.actingUser();
  const existing = op === "create"
    ? [null]
    : await storedRecords(ctx, collection, state);
  for (const record of existing) {
    await hooks.run({
      collection: collection.name,
      op,
      input: mutable,
      existing: record,
      user,
    });
  }
  return mutable;
}

/**
 * Runs the `record:beforeWrite` functions for a delete of the records `ids`.
 *
 * @example
 * ```ts ignore
 * await beforeDelete(ctx, posts, [uuid], "en");
 * ```
 */
export async function beforeDelete(
  ctx: LayerContext,
  collection: ResolvedCollection,
  ids: readonly string[],
  locale: string,
): Promise<void> {
  const hooks = ctx.beforeWrite;
  if (!hooks?.matches(collection.name, "delete") || ids.length === 0) return;
  const user = ctx.actingUser();
  for (const record of await storedRecordsById(ctx, collection, ids, locale)) {
    await hooks.run({
      collection: collection.name,
      op: "delete",
      input: null,
      existing: record,
      user,
    });
  }
}
