// A create that is a write of its own and needs nothing but its row: no link, unique value,
// file, translation or junction row to check or write, no value prepared for storage, no
// `record:beforeWrite` function, nothing to populate. Its INSERT is written once per
// collection and runs through `LayerContext.insertAlone` (SQLite: committed with the other
// such writes of the event loop's turn; PostgreSQL: one statement with its change-log row)
// rather than through a Kysely transaction. It stores, logs and answers what the general
// create in writes.ts does, with its errors. On PostgreSQL the log row is taken from the
// inserted row within the statement, so a create binds its row's values and its actor only.
import type { LayerContext, LoneInsert } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import {
  type CreateResult,
  type DataRecord,
  hasWriteErrors,
} from "./results.ts";
import { type ChangeEntry, createWithLogText } from "./changes/log.ts";
import { pipelineOf, type WriteOptions } from "./pipeline.ts";
import { readPlan, type ReadSpec } from "./read_spec.ts";
import { notUniqueErrors } from "./uniques.ts";
import { quoteIdentifier } from "./db/quote_identifier.ts";

/** What a create alone writes for a collection. */
export interface LoneShape {
  /** The INSERT's text: `UUID`, `_updatedAt`, then every field in definition order. */
  readonly sql: string;
  /** The fields, in the INSERT's order after `UUID` and `_updatedAt`. */
  readonly fields: readonly ResolvedField[];
  /** Their names, the change log's `changed` of a create. */
  readonly names: readonly string[];
  /** Each field's position in {@link LoneShape.fields}. */
  readonly positions: ReadonlyMap<ResolvedField, number>;
  /**
   * PostgreSQL, a collection with events: the INSERT with its change-log row, whose
   * `changed` lists {@link LoneShape.names} (`createWithLogText`); parameters: the INSERT's,
   * then the actor.
   */
  readonly sqlWithChange?: string;
  /** The same with `changed` as a parameter before the actor, for another order of them. */
  readonly sqlWithChanged?: string;
}

const shapes = new WeakMap<ResolvedCollection, LoneShape | null>();

function shapeOf(
  ctx: LayerContext,
  collection: ResolvedCollection,
): LoneShape | null {
  let shape = shapes.get(collection);
  if (shape !== undefined) return shape;
  const fields = collection.fieldList;
  const plain = collection.relationFields.length === 0 &&
    collection.uniqueGroups.length === 0 &&
    collection.preparedFields.length === 0 &&
    fields.every((field) =>
      field.storage === "column" && field.kind !== "file" &&
      field.kind !== "files"
    );
  shape = null;
  if (plain) {
    const columns = ["UUID", "_updatedAt", ...fields.map((f) => f.name)];
    const marks = columns.map((_, i) =>
      ctx.dialect === "postgres" ? `$${i + 1}` : "?"
    );
    const sql = `insert into ${quoteIdentifier(collection.table)} (${
      columns.map(quoteIdentifier).join(", ")
    }) values (${marks.join(", ")})`;
    const names = Object.freeze(fields.map((f) => f.name));
    const logged = ctx.dialect === "postgres" && collection.events;
    const count = columns.length;
    shape = Object.freeze({
      sql,
      fields,
      names,
      positions: new Map(fields.map((f, i) => [f, i])),
      sqlWithChange: logged
        ? createWithLogText(sql, count, collection.name, names)
        : undefined,
      sqlWithChanged: logged
        ? createWithLogText(sql, count, collection.name, null)
        : undefined,
    });
  }
  shapes.set(collection, shape);
  return shape;
}

/**
 * The shape of a create of `collection` that may run alone (see the module comment), or
 * `null` when it must take the general path: inside a caller's transaction, with something
 * to populate in its answer, a `record:beforeWrite` function to run, or a field that needs
 * more than its column.
 *
 * @example
 * ```ts ignore
 * const shape = loneCreate(ctx, posts, state.spec);
 * if (shape) return createAlone(ctx, posts, shape, state.spec, state.locale, input, {});
 * ```
 */
export function loneCreate(
  ctx: LayerContext,
  collection: ResolvedCollection,
  spec: ReadSpec,
): LoneShape | null {
  if (ctx.inTransaction() || spec.populate.size > 0) return null;
  if (ctx.beforeWrite?.matches(collection.name, "create")) return null;
  return shapeOf(ctx, collection);
}

/**
 * Creates one record of a collection {@link loneCreate} gave `shape` for.
 *
 * @example
 * ```ts ignore
 * const result = await createAlone(ctx, posts, shape, spec, "en", { title: "x" }, {});
 * ```
 */
export async function createAlone(
  ctx: LayerContext,
  collection: ResolvedCollection,
  shape: LoneShape,
  spec: ReadSpec,
  locale: string,
  input: Readonly<Record<string, unknown>>,
  options: WriteOptions,
): Promise<CreateResult> {
  let outcome = pipelineOf(ctx, collection, input, "create", locale, options);
  // Settled later, the values are in the order their validators finished.
  const inOrder = !(outcome instanceof Promise);
  if (outcome instanceof Promise) outcome = await outcome;
  const { values, errors } = outcome;
  if (hasWriteErrors(errors)) return { ok: false, errors };
  const uuid = crypto.randomUUID();
  const updatedAt = ctx.now();
  const fields = shape.fields;
  const parameters: unknown[] = [uuid, updatedAt];
  // What a re-read answers: each value through the database's form and back.
  const stored: unknown[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const dbValue = field.toDb(values.get(field));
    parameters.push(dbValue ?? null);
    stored.push(field.fromDb ? field.fromDb(dbValue) : dbValue);
  }
  const change: ChangeEntry | null = collection.events
    ? {
      collection: collection.name,
      uuid,
      op: "create",
      // A list of its own: the feed hands it to listeners, which may change it.
      changed: inOrder
        ? shape.names.slice()
        : [...values.keys()].map((f) => f.name),
      locale: null,
      actor: ctx.actingUser()?.UUID ?? null,
      // The row's own time, which the PostgreSQL statement logs.
      at: updatedAt,
    }
    : null;
  let sql = shape.sql;
  if (change && shape.sqlWithChange !== undefined) {
    if (inOrder) sql = shape.sqlWithChange;
    else {
      sql = shape.sqlWithChanged!;
      parameters.push(JSON.stringify(change.changed));
    }
    parameters.push(change.actor);
  }
  const insert: LoneInsert = { sql, parameters };
  try {
    await ctx.insertAlone(insert, change);
  } catch (error) {
    const refused = notUniqueErrors(ctx, collection, error);
    if (refused === null) throw error;
    return { ok: false, errors: refused };
  }
  const plan = readPlan(collection, spec.select);
  const record: DataRecord = { UUID: uuid };
  for (const field of plan.fields) {
    const at = shape.positions.get(field);
    const value = at === undefined ? null : stored[at];
    record[field.name] = Array.isArray(value) ? [...value] : value ?? null;
  }
  if (plan.updatedAt) record._updatedAt = updatedAt;
  if (plan.translations) record._translations = [];
  return { ok: true, record };
}
