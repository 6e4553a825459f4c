/**
 * Unique checks inside the write's transaction, so every violated field is reported at once
 * (`notUnique`), plus the mapping of a database unique violation (a concurrent write that
 * slipped past the check) back to field names.
 *
 * @module
 */

import { sql } from "kysely";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import { noteErrorCode, type WriteErrors } from "./results.ts";

/** A row being updated: its UUID and current database values by field name. */
export interface ExistingRow {
  /** The record's UUID. */
  readonly UUID: string;
  /** Current database values (column and translation fields). */
  readonly values: Readonly<Record<string, unknown>>;
}

function report(
  ctx: LayerContext,
  group: readonly ResolvedField[],
  given: ReadonlySet<string>,
  errors: WriteErrors,
): void {
  const message = ctx.render("notUnique", {});
  const named = group.filter((f) => given.has(f.name));
  for (const field of named.length > 0 ? named : group) {
    if (Object.hasOwn(errors, field.name)) continue;
    errors[field.name] = message;
    noteErrorCode(errors, field.name, "notUnique");
  }
}

async function taken(
  ctx: LayerContext,
  collection: ResolvedCollection,
  group: readonly ResolvedField[],
  dbValues: readonly unknown[],
  locale: string,
  exclude: string | null,
): Promise<boolean> {
  const translated = group[0].storage === "translation";
  const table = translated ? collection.translationTable! : collection.table;
  const idColumn = translated ? "record" : "UUID";
  let query = ctx.executor().selectFrom(table).select(sql.lit(1).as("one"));
  group.forEach((field, i) => {
    query = query.where(field.name, "=", dbValues[i]);
  });
  if (translated) query = query.where("locale", "=", locale);
  if (exclude !== null) query = query.where(idColumn, "!=", exclude);
  const rows = await query.limit(1).execute();
  return rows.length > 0;
}

/**
 * Adds `notUnique` errors for the unique groups the write touches. `rows` is `null` on
 * create, else the rows being updated.
 *
 * @example
 * ```ts ignore
 * await checkUniques(ctx, posts, values, new Set(["slug"]), "en", null, errors);
 * ```
 */
export async function checkUniques(
  ctx: LayerContext,
  collection: ResolvedCollection,
  values: ReadonlyMap<ResolvedField, unknown>,
  given: ReadonlySet<string>,
  locale: string,
  rows: readonly ExistingRow[] | null,
  errors: WriteErrors,
): Promise<void> {
  for (const group of collection.uniqueGroups) {
    if (group.some((f) => Object.hasOwn(errors, f.name))) continue;
    const touched = group.filter((f) => values.has(f));
    if (touched.length === 0) continue;
    if (rows === null) {
      const dbValues = group.map((f) => f.toDb(values.get(f)));
      if (dbValues.some((v) => v === null)) continue;
      if (await taken(ctx, collection, group, dbValues, locale, null)) {
        report(ctx, group, given, errors);
      }
      continue;
    }
    if (rows.length > 1 && touched.length === group.length) {
      // Every row would get the same (non-null) combination.
      if (group.every((f) => values.get(f) !== null)) {
        report(ctx, group, given, errors);
      }
      continue;
    }
    for (const row of rows) {
      const dbValues = group.map((f) =>
        values.has(f) ? f.toDb(values.get(f)) : row.values[f.name] ?? null
      );
      if (dbValues.some((v) => v === null)) continue;
      if (await taken(ctx, collection, group, dbValues, locale, row.UUID)) {
        report(ctx, group, given, errors);
        break;
      }
    }
  }
}

/**
 * The field names a database unique violation names, or `null` when `error` is not one.
 *
 * @example
 * ```ts ignore
 * uniqueViolationFields(posts, error); // ["slug"]
 * ```
 */
export function uniqueViolationFields(
  collection: ResolvedCollection,
  error: unknown,
): string[] | null {
  if (!(error instanceof Error)) return null;
  const { code, constraint } = error as {
    code?: unknown;
    constraint?: unknown;
  };
  if (code === "23505") {
    const index = collection.indexes.find((i) => i.name === constraint);
    return index ? index.columns.filter((c) => c !== "locale") : [];
  }
  const match = /UNIQUE constraint failed: (.+)$/.exec(error.message);
  if (!match) return null;
  return match[1].split(",").map((s) => s.trim().split(".").pop()!)
    .filter((c) => c !== "locale" && collection.fields.has(c));
}

/**
 * The refusal a database unique violation earns (`notUnique` at the fields of the violated
 * index, or at `UUID` when none is named), or `null` when `error` is not one.
 *
 * @example
 * ```ts ignore
 * const errors = notUniqueErrors(ctx, posts, error);
 * if (errors === null) throw error;
 * ```
 */
export function notUniqueErrors(
  ctx: LayerContext,
  collection: ResolvedCollection,
  error: unknown,
): WriteErrors | null {
  const fields = uniqueViolationFields(collection, error);
  if (fields === null) return null;
  const message = ctx.render("notUnique", {});
  const errors: WriteErrors = {};
  for (const name of fields.length > 0 ? fields : ["UUID"]) {
    errors[name] = message;
    noteErrorCode(errors, name, "notUnique");
  }
  return errors;
}
