/**
 * `create` and `update`: the pipeline, reference and unique checks, then storage (main
 * row, translation row at the write's locale, junction rows), all in one transaction.
 * A refusal answers `{ ok: false, errors }` and writes nothing.
 *
 * @module
 */

import { sql, type SqlBool } from "kysely";
import type { Condition } from "./compile_where.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import {
  type CreateResult,
  type DataRecord,
  hasWriteErrors,
  type UpdateResult,
} from "./results.ts";
import type { WhereFilter } from "./where.ts";
import {
  fieldContext,
  type PipelineResult,
  prepareForStorage,
  refuseField,
  runField,
  runPipeline,
  type WriteOptions,
} from "./pipeline.ts";
import { atomic, Refusal } from "./_atomic.ts";
import { insertRow } from "./_insert.ts";
import { createAlone, loneCreate, type LoneShape } from "./_create_alone.ts";
import { checkReferences } from "./references.ts";
import { checkUniques, type ExistingRow, notUniqueErrors } from "./uniques.ts";
import {
  applyWindow,
  baseQuery,
  chunks,
  populateRecords,
  readCondition,
  readRecords,
} from "./read.ts";
import { readPlan, type ReadSpec } from "./read_spec.ts";
import { changedFields, junctionLists } from "./changes/diff.ts";
import { beforeWrite } from "./changes/before_write.ts";
import { attachFiles, checkFileValues } from "./files/attach.ts";
import { describeFiles } from "./files/descriptors.ts";

/** The builder state a write needs. */
export interface WriteState {
  /** Filters selecting the rows to update. */
  readonly wheres: readonly WhereFilter[];
  /** Order of the rows (with limit/offset, bounds which rows an update touches). */
  readonly order: readonly string[];
  /** Row limit. */
  readonly limit: number | null;
  /** Rows to skip. */
  readonly offset: number | null;
  /** The locale translatable values are written at. */
  readonly locale: string;
  /** What the answer returns. */
  readonly spec: ReadSpec;
}

/** Maps a database unique violation to a refusal; rethrows anything else. */
function uniqueRefusal(
  ctx: LayerContext,
  collection: ResolvedCollection,
  error: unknown,
): never {
  const errors = notUniqueErrors(ctx, collection, error);
  if (errors === null) throw error;
  throw new Refusal(errors);
}

async function guarded<T>(
  ctx: LayerContext,
  collection: ResolvedCollection,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    uniqueRefusal(ctx, collection, error);
  }
}

async function insertJunction(
  ctx: LayerContext,
  field: ResolvedField,
  owner: string,
  targets: readonly string[],
): Promise<void> {
  for (let i = 0; i < targets.length; i += 500) {
    const rows = targets.slice(i, i + 500).map((target, j) => ({
      owner,
      target,
      position: i + j,
    }));
    await ctx.executor().insertInto(field.junctionTable!).values(rows)
      .execute();
  }
}

/**
 * The write pipeline followed by the checks that need the database: links to existing
 * records, then unique values (against the rows an update rewrites, which `loadRows` selects;
 * `null` on create). The link targets are locked before the rows written (see `selectTargets`).
 */
async function validateWrite<R extends ExistingRow>(
  ctx: LayerContext,
  collection: ResolvedCollection,
  input: Readonly<Record<string, unknown>>,
  operation: "create" | "update",
  locale: string,
  options: WriteOptions,
  loadRows: () => Promise<R[] | null>,
): Promise<PipelineResult & { rows: R[] | null }> {
  const { values, errors } = await runPipeline(
    ctx,
    collection,
    input,
    operation,
    locale,
    options,
  );
  if (collection.relationFields.length > 0) {
    await checkReferences(ctx, values, locale, errors);
  }
  const rows = await loadRows();
  await checkFileValues(ctx, values, rows, errors);
  if (collection.uniqueGroups.length > 0) {
    const given = new Set(Object.keys(input));
    await checkUniques(ctx, collection, values, given, locale, rows, errors);
  }
  return { values, errors, rows };
}

/**
 * Creates one record.
 *
 * @example
 * ```ts ignore
 * const result = await createRecord(ctx, posts, state, { title: "x" }, {});
 * ```
 */
export function createRecord(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
  input: Readonly<Record<string, unknown>>,
  options: WriteOptions,
): Promise<CreateResult> {
  // Not an async function: one promise less for the create alone.
  let shape: LoneShape | null;
  try {
    shape = loneCreate(ctx, collection, state.spec);
  } catch (error) {
    return Promise.reject(error);
  }
  return shape
    ? createAlone(
      ctx,
      collection,
      shape,
      state.spec,
      state.locale,
      input,
      options,
    )
    : createGeneral(ctx, collection, state, input, options);
}

/** A create through a transaction (or savepoint): every create {@link loneCreate} refuses. */
async function createGeneral(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
  input: Readonly<Record<string, unknown>>,
  options: WriteOptions,
): Promise<CreateResult> {
  // The general path: its statements in a transaction (or savepoint).
  const { locale } = state;
  const given = input;
  // A create of its own transaction whose INSERT is its last statement sends that INSERT
  // with the commit (PostgreSQL: one round trip for begin, insert, change log and commit).
  const ownTransaction = !ctx.inTransaction();
  let held = false;
  try {
    const record = await atomic(ctx, async () => {
      const input = await beforeWrite(ctx, collection, "create", given, state);
      const { values, errors } = await validateWrite(
        ctx,
        collection,
        input,
        "create",
        locale,
        options,
        () => Promise.resolve(null),
      );
      if (hasWriteErrors(errors)) throw new Refusal(errors);
      if (collection.preparedFields.length > 0) {
        await prepareForStorage(ctx, values, "create", locale, input);
      }
      const uuid = crypto.randomUUID();
      const updatedAt = ctx.now();
      const row: Record<string, unknown> = {
        UUID: uuid,
        _updatedAt: updatedAt,
      };
      let translation: Record<string, unknown> | null = null;
      const stored = new Map<ResolvedField, unknown>();
      for (const [field, value] of values) {
        if (field.storage === "junction") {
          stored.set(field, value ?? []);
          continue;
        }
        const dbValue = field.toDb(value);
        stored.set(field, field.fromDb ? field.fromDb(dbValue) : dbValue);
        if (field.storage === "column") row[field.name] = dbValue;
        else if (dbValue !== null) {
          translation ??= { record: uuid, locale };
          translation[field.name] = dbValue;
        }
      }
      const last = ownTransaction && translation === null &&
        state.spec.populate.size === 0 && insertIsLast(collection, stored);
      held = await guarded(
        ctx,
        collection,
        () => insertRow(ctx, collection.table, row, last),
      );
      if (translation) {
        const tr = translation;
        await guarded(
          ctx,
          collection,
          () => insertRow(ctx, collection.translationTable!, tr),
        );
      }
      for (const field of collection.junctionFields) {
        const list = stored.get(field) as string[] | undefined;
        if (list && list.length > 0) {
          await insertJunction(ctx, field, uuid, list);
        }
      }
      await attachFiles(ctx, collection, values, uuid, true);
      ctx.recordChange(
        collection,
        uuid,
        "create",
        [...values.keys()].map((field) => field.name),
        translation ? locale : null,
      );
      // The answer is built from what was stored (equal to a re-read by construction).
      const plan = readPlan(collection, state.spec.select);
      const result: DataRecord = { UUID: uuid };
      for (const field of plan.fields) {
        result[field.name] = stored.has(field)
          ? structuredCloneIfList(stored.get(field))
          : null;
      }
      if (plan.updatedAt) result._updatedAt = updatedAt;
      if (plan.translations) result._translations = translation ? [locale] : [];
      await describeFiles(ctx, [result], plan.fileFields);
      if (state.spec.populate.size > 0) {
        await populateRecords(ctx, collection, [result], state.spec, locale);
      }
      return result;
    });
    return { ok: true, record };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, errors: error.errors };
    // A held INSERT fails at the commit, where a duplicate is refused as it would have been.
    if (held) {
      try {
        uniqueRefusal(ctx, collection, error);
      } catch (mapped) {
        if (mapped instanceof Refusal) {
          return { ok: false, errors: mapped.errors };
        }
      }
    }
    throw error;
  }
}

/**
 * Whether a create's main INSERT is its last statement: no junction rows or file
 * attachments follow, and no unique value can be refused (a duplicate UUID aside) by a
 * later statement's failure instead of the INSERT's.
 */
function insertIsLast(
  collection: ResolvedCollection,
  stored: ReadonlyMap<ResolvedField, unknown>,
): boolean {
  if (collection.uniqueGroups.length > 0) return false;
  for (const field of collection.junctionFields) {
    const list = stored.get(field) as unknown[] | undefined;
    if (list && list.length > 0) return false;
  }
  for (const field of collection.fieldList) {
    if (field.kind === "file" || field.kind === "files") return false;
  }
  return true;
}

function structuredCloneIfList(value: unknown): unknown {
  return Array.isArray(value) ? [...value] : value ?? null;
}

interface Target extends ExistingRow {
  hasTranslation: boolean;
}

/**
 * The rows an update rewrites, with their stored values. On PostgreSQL the main rows are
 * locked first (`FOR UPDATE`), then read again by a second statement: under READ COMMITTED it
 * sees everything committed while it waited for the locks, and every writer of a record's
 * translation and junction rows holds its main row, so what it reads stays true until commit.
 * (A locking statement re-checks only the locked row; its joined translation would be stale.)
 */
async function selectTargets(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
): Promise<Target[]> {
  const condition = readCondition(
    ctx,
    collection,
    state.wheres,
    state.locale,
    true,
  );
  if (ctx.dialect !== "postgres") {
    return await targetRows(ctx, collection, state, condition, true);
  }
  const locked = applyWindow(
    ctx,
    collection,
    baseQuery(ctx, collection, state.locale, condition).select("m.UUID"),
    state,
  ).forUpdate("m");
  const ids = (await locked.execute() as { UUID: string }[]).map((r) => r.UUID);
  const rows = new Map<string, Target>();
  for (const part of chunks(ids)) {
    const byId = sql<SqlBool>`${sql.ref("m.UUID")} in (${sql.join(part)})`;
    for (const row of await targetRows(ctx, collection, state, byId, false)) {
      rows.set(row.UUID, row);
    }
  }
  return ids.flatMap((id) => rows.get(id) ?? []);
}

/** The stored values of the rows `condition` selects (through the state's window if asked). */
async function targetRows(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
  condition: Condition,
  windowed: boolean,
): Promise<Target[]> {
  const columns = ["m.UUID"];
  for (const field of collection.columnFields) columns.push(`m.${field.name}`);
  if (collection.translationTable) {
    columns.push("t.record as _tr");
    for (const field of collection.translatedFields) {
      columns.push(`t.${field.name}`);
    }
  }
  let query = baseQuery(ctx, collection, state.locale, condition).select(
    columns,
  );
  if (windowed) query = applyWindow(ctx, collection, query, state);
  const rows = await query.execute() as Record<string, unknown>[];
  return rows.map((row) => ({
    UUID: row.UUID as string,
    values: row,
    hasTranslation: row._tr !== null && row._tr !== undefined,
  }));
}

/**
 * Updates every record the state selects.
 *
 * @example
 * ```ts ignore
 * const result = await updateRecords(ctx, posts, state, { title: "y" }, {});
 * ```
 */
export async function updateRecords(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
  input: Readonly<Record<string, unknown>>,
  options: WriteOptions,
): Promise<UpdateResult> {
  const { locale } = state;
  const given = input;
  try {
    const records = await atomic(ctx, async () => {
      const input = await beforeWrite(ctx, collection, "update", given, state);
      const validated = await validateWrite(
        ctx,
        collection,
        input,
        "update",
        locale,
        options,
        () => selectTargets(ctx, collection, state),
      );
      const { values, errors } = validated;
      const targets = validated.rows!;
      const translated = [...values.keys()].filter((f) =>
        f.storage === "translation"
      );
      // A translation row created by this update gets the defaults of the other fields,
      // and must hold every required translatable field.
      const newRowValues = new Map<ResolvedField, unknown>();
      if (
        translated.length > 0 && targets.some((t) => !t.hasTranslation)
      ) {
        for (const field of collection.translatedFields) {
          if (values.has(field) || Object.hasOwn(errors, field.name)) continue;
          if (field.hasDefault) {
            const fctx = fieldContext(ctx, field, "update", locale, input);
            const outcome = await runField(field, field.defaultValue(), fctx);
            if (outcome.issue !== undefined) {
              refuseField(ctx, errors, field.name, outcome.issue);
            } else newRowValues.set(field, outcome.value);
          } else if (!field.nullable) {
            refuseField(ctx, errors, field.name, "required");
          }
        }
      }
      if (hasWriteErrors(errors)) throw new Refusal(errors);
      if (targets.length === 0) return [];
      await prepareForStorage(ctx, values, "update", locale, input);
      await prepareForStorage(ctx, newRowValues, "update", locale, input);
      const ids = targets.map((t) => t.UUID);
      const set: Record<string, unknown> = { _updatedAt: ctx.now() };
      const trSet: Record<string, unknown> = {};
      for (const [field, value] of values) {
        if (field.storage === "column") set[field.name] = field.toDb(value);
        else if (field.storage === "translation") {
          trSet[field.name] = field.toDb(value);
        }
      }
      const executor = ctx.executor();
      // What each record held before, for the change log's `changed`.
      const lists = new Map<ResolvedField, Map<string, string[]>>();
      if (collection.events) {
        for (const field of values.keys()) {
          if (field.storage !== "junction") continue;
          lists.set(field, await junctionLists(ctx, field, ids));
        }
      }
      for (const part of chunks(ids)) {
        await guarded(
          ctx,
          collection,
          () =>
            executor.updateTable(collection.table).set(set)
              .where("UUID", "in", part).execute(),
        );
      }
      if (translated.length > 0) {
        const existing = targets.filter((t) => t.hasTranslation).map((t) =>
          t.UUID
        );
        for (const part of chunks(existing)) {
          await guarded(
            ctx,
            collection,
            () =>
              executor.updateTable(collection.translationTable!).set(trSet)
                .where("record", "in", part).where("locale", "=", locale)
                .execute(),
          );
        }
        const fresh = targets.filter((t) => !t.hasTranslation);
        const defaults: Record<string, unknown> = {};
        for (const [field, value] of newRowValues) {
          defaults[field.name] = field.toDb(value);
        }
        for (const part of chunks(fresh)) {
          const rows = part.map((t) => ({
            ...defaults,
            ...trSet,
            record: t.UUID,
            locale,
          }));
          // An upsert: writers of a record's translation rows hold its main row, so the row
          // is fresh here; should one appear anyway, the write lands on it (the later wins).
          await guarded(
            ctx,
            collection,
            () =>
              executor.insertInto(collection.translationTable!).values(rows)
                .onConflict((oc) =>
                  oc.columns(["record", "locale"]).doUpdateSet(trSet)
                ).execute(),
          );
        }
      }
      for (const [field, value] of values) {
        if (field.storage !== "junction") continue;
        for (const part of chunks(ids)) {
          await executor.deleteFrom(field.junctionTable!)
            .where("owner", "in", part).execute();
        }
        const list = (value ?? []) as string[];
        if (list.length === 0) continue;
        for (const id of ids) await insertJunction(ctx, field, id, list);
      }
      for (const id of ids) {
        await attachFiles(ctx, collection, values, id, false);
      }
      const written = new Map([...newRowValues, ...values]);
      for (const target of targets) {
        ctx.recordChange(
          collection,
          target.UUID,
          "update",
          changedFields(
            collection,
            target.values,
            lists,
            target.UUID,
            target.hasTranslation ? values : written,
          ),
          translated.length > 0 ? locale : null,
        );
      }
      const byId = new Map<string, DataRecord>();
      for (const part of chunks(ids)) {
        const reread = await readRecords(ctx, collection, {
          wheres: [],
          order: [],
          limit: null,
          offset: null,
          locale,
          spec: state.spec,
          hooks: false,
        }, sql`${sql.ref("m.UUID")} in (${sql.join(part)})`);
        for (const record of reread) byId.set(record.UUID, record);
      }
      return ids.map((id) => byId.get(id)!).filter((r) => r);
    });
    return { ok: true, records };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, errors: error.errors };
    throw error;
  }
}
