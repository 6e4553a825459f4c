/**
 * Read specifications: which fields a read returns and which relations it populates, built
 * from `.select(...)` and `.populate(...)` and checked against the collections once per
 * query; the per-collection column plans derived from them are cached.
 *
 * @module
 */

import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection, ResolvedField } from "./resolve.ts";
import { fieldOrThrow, QueryError } from "./query_error.ts";

/** What one read returns. */
export interface ReadSpec {
  /** Selected top-level names (`null`: every readable field and `_updatedAt`). */
  readonly select: readonly string[] | null;
  /** Populated relation → what to read of the target. */
  readonly populate: ReadonlyMap<string, ReadSpec>;
}

/** The columns and conversions of a selection. */
export interface ReadPlan {
  /** Kysely select items. */
  readonly columns: readonly string[];
  /** Selected fields in definition order. */
  readonly fields: readonly ResolvedField[];
  /** Selected fields that have a column (main or translation). */
  readonly valueFields: readonly ResolvedField[];
  /** Selected `records` fields. */
  readonly junctionFields: readonly ResolvedField[];
  /** Selected `file` / `files` fields (their UUIDs become file descriptors). */
  readonly fileFields: readonly ResolvedField[];
  /** Whether `_updatedAt` is returned. */
  readonly updatedAt: boolean;
  /** Whether `_translations` is returned. */
  readonly translations: boolean;
}

/** The spec of a read of every readable field with nothing populated. */
export const DEFAULT_SPEC: ReadSpec = Object.freeze({
  select: null,
  populate: new Map(),
});

interface MutableSpec {
  select: string[] | null;
  populate: Map<string, MutableSpec>;
}

function relationField(
  collection: ResolvedCollection,
  name: string,
  path: string,
): ResolvedField {
  const field = fieldOrThrow(collection, name, path);
  if (!field.target) {
    throw new QueryError(
      "invalidField",
      path,
      `Field "${name}" of ${collection.name} is not a relation at ${path}`,
    );
  }
  return field;
}

function child(
  ctx: LayerContext,
  spec: MutableSpec,
  collection: ResolvedCollection,
  name: string,
  path: string,
): [MutableSpec, ResolvedCollection] {
  const field = relationField(collection, name, path);
  let next = spec.populate.get(name);
  if (!next) {
    next = { select: null, populate: new Map() };
    spec.populate.set(name, next);
  }
  if (spec.select && !spec.select.includes(name)) spec.select.push(name);
  return [next, ctx.collection(field.target!)];
}

/**
 * Builds a read spec from selection and populate paths (`author.email`, `tags.owner`).
 * Trusted code may select write-only fields explicitly.
 *
 * @example
 * ```ts ignore
 * const spec = buildReadSpec(ctx, posts, ["title", "author.name"], ["tags"]);
 * ```
 */
export function buildReadSpec(
  ctx: LayerContext,
  collection: ResolvedCollection,
  select: readonly string[] | null,
  populate: readonly string[],
): ReadSpec {
  const root: MutableSpec = { select: null, populate: new Map() };
  if (select) {
    root.select = [];
    // Nested selections are attached after the top level is known.
    const nested: [string[], string][] = [];
    select.forEach((entry, i) => {
      const path = `select[${i}]`;
      const parts = entry.split(".");
      if (parts.length > 1) {
        nested.push([parts, path]);
        return;
      }
      if (entry === "UUID") return;
      if (entry !== "_updatedAt" && !collection.fields.has(entry)) {
        throw new QueryError(
          "invalidField",
          path,
          `Unknown field "${entry}" in ${collection.name} at ${path}`,
        );
      }
      if (!root.select!.includes(entry)) root.select!.push(entry);
    });
    for (const [parts, path] of nested) {
      let spec = root;
      let current = collection;
      for (let i = 0; i < parts.length - 1; i++) {
        [spec, current] = child(ctx, spec, current, parts[i], path);
      }
      const leaf = parts[parts.length - 1];
      if (
        leaf !== "UUID" && leaf !== "_updatedAt" && !current.fields.has(leaf)
      ) {
        throw new QueryError(
          "invalidField",
          path,
          `Unknown field "${leaf}" in ${current.name} at ${path}`,
        );
      }
      spec.select ??= [];
      if (leaf !== "UUID" && !spec.select.includes(leaf)) {
        spec.select.push(leaf);
      }
    }
  }
  populate.forEach((entry, i) => {
    const path = `populate[${i}]`;
    let spec = root;
    let current = collection;
    for (const part of entry.split(".")) {
      [spec, current] = child(ctx, spec, current, part, path);
    }
  });
  return root;
}

const planCache = new WeakMap<ResolvedCollection, Map<string, ReadPlan>>();
const MAX_PLANS = 256;

/**
 * The (cached) column plan of a selection.
 *
 * @example
 * ```ts ignore
 * readPlan(posts, null).columns; // ["m.UUID", "m._updatedAt", …]
 * ```
 */
export function readPlan(
  collection: ResolvedCollection,
  select: readonly string[] | null,
): ReadPlan {
  let plans = planCache.get(collection);
  if (!plans) {
    plans = new Map();
    planCache.set(collection, plans);
  }
  const key = select ? select.join(",") : "*";
  let plan = plans.get(key);
  if (plan) return plan;
  const fields = select
    ? collection.fieldList.filter((f) => select.includes(f.name))
    : collection.readableFields;
  const valueFields = fields.filter((f) => f.storage !== "junction");
  const columns = ["m.UUID"];
  const updatedAt = select === null || select.includes("_updatedAt");
  if (updatedAt) columns.push("m._updatedAt");
  for (const f of valueFields) {
    columns.push(f.storage === "translation" ? `t.${f.name}` : `m.${f.name}`);
  }
  plan = Object.freeze({
    columns,
    fields,
    valueFields,
    junctionFields: fields.filter((f) => f.storage === "junction"),
    fileFields: fields.filter((f) => f.kind === "file" || f.kind === "files"),
    updatedAt,
    translations: collection.translationTable !== null,
  });
  if (plans.size >= MAX_PLANS) plans.clear();
  plans.set(key, plan);
  return plan;
}
