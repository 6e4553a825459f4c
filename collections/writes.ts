/**
 * `create` and `update`: the pipeline, reference and unique checks, then storage (main
 * row, translation row at the write's locale, junction rows), all in one transaction.
 * A refusal answers `{ ok: false, errors }` and writes nothing.
 *
 * @module
 */

import { sql } from "kysely";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import type {
  CreateResult,
  DataRecord,
  UpdateResult,
  WriteErrors,
} from "./results.ts";
import type { WhereFilter } from "./where.ts";
import {
  fieldContext,
  type PipelineResult,
  prepareForStorage,
  renderIssue,
  runField,
  runPipeline,
  type WriteOptions,
} from "./pipeline.ts";
import { atomic, Refusal } from "./_atomic.ts";
import { checkReferences } from "./references.ts";
import {
  checkUniques,
  type ExistingRow,
  uniqueViolationFields,
} from "./uniques.ts";
import {
  applyWindow,
  baseQuery,
  chunks,
  populateRecords,
  readCondition,
  readRecords,
} from "./read.ts";
import { readPlan, type ReadSpec } from "./read_spec.ts";

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

function hasErrors(errors: WriteErrors): boolean {
  for (const _ in errors) return true;
  return false;
}

/** Maps a database unique violation to a refusal; rethrows anything else. */
function uniqueRefusal(
  ctx: LayerContext,
  collection: ResolvedCollection,
  error: unknown,
): never {
  const fields = uniqueViolationFields(collection, error);
  if (fields === null) throw error;
  const message = ctx.render("notUnique", {});
  const errors: WriteErrors = {};
  for (const name of fields.length > 0 ? fields : ["UUID"]) {
    errors[name] = message;
  }
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
 * records and unique values (against `rows`, the rows an update rewrites; `null` on create).
 */
async function validateWrite(
  ctx: LayerContext,
  collection: ResolvedCollection,
  input: Readonly<Record<string, unknown>>,
  operation: "create" | "update",
  locale: string,
  options: WriteOptions,
  rows: readonly ExistingRow[] | null,
): Promise<PipelineResult> {
  const result = await runPipeline(
    ctx,
    collection,
    input,
    operation,
    locale,
    options,
  );
  const { values, errors } = result;
  if (collection.relationFields.length > 0) {
    await checkReferences(ctx, values, locale, errors);
  }
  if (collection.uniqueGroups.length > 0) {
    const given = new Set(Object.keys(input));
    await checkUniques(ctx, collection, values, given, locale, rows, errors);
  }
  return result;
}

/**
 * Creates one record.
 *
 * @example
 * ```ts ignore
 * const result = await createRecord(ctx, posts, state, { title: "x" }, {});
 * ```
 */
export async function createRecord(
  ctx: LayerContext,
  collection: ResolvedCollection,
  state: WriteState,
  input: Readonly<Record<string, unknown>>,
  options: WriteOptions,
): Promise<CreateResult> {
  const { locale } = state;
  try {
    const record = await atomic(ctx, async () => {
      const { values, errors } = await validateWrite(
        ctx,
        collection,
        input,
        "create",
        locale,
        options,
        null,
      );
      if (hasErrors(errors)) throw new Refusal(errors);
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
      const executor = ctx.executor();
      await guarded(
        ctx,
        collection,
        () => executor.insertInto(collection.table).values(row).execute(),
      );
      if (translation) {
        const tr = translation;
        await guarded(
          ctx,
          collection,
          () =>
            executor.insertInto(collection.translationTable!).values(tr)
              .execute(),
        );
      }
      for (const field of collection.junctionFields) {
        const list = stored.get(field) as string[] | undefined;
        if (list && list.length > 0) {
          await insertJunction(ctx, field, uuid, list);
        }
      }
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
      if (state.spec.populate.size > 0) {
        await populateRecords(ctx, collection, [result], state.spec, locale);
      }
      return result;
    });
    return { ok: true, record };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, errors: error.errors };
    throw error;
  }
}

function structuredCloneIfList(value: unknown): unknown {
  return Array.isArray(value) ? [...value] : value ?? null;
}

interface Target extends ExistingRow {
  hasTranslation: boolean;
}

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
  query = applyWindow(ctx, collection, query, state);
  if (ctx.dialect === "postgres") query = query.forUpdate("m");
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
  try {
    const records = await atomic(ctx, async () => {
      const targets = await selectTargets(ctx, collection, state);
      const { values, errors } = await validateWrite(
        ctx,
        collection,
        input,
        "update",
        locale,
        options,
        targets,
      );
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
              errors[field.name] = renderIssue(ctx, outcome.issue);
            } else newRowValues.set(field, outcome.value);
          } else if (!field.nullable) {
            errors[field.name] = ctx.render("required", {});
          }
        }
      }
      if (hasErrors(errors)) throw new Refusal(errors);
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
          await guarded(
            ctx,
            collection,
            () =>
              executor.insertInto(collection.translationTable!).values(rows)
                .execute(),
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
