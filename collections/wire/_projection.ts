/**
 * `select`, `order` and `populate`. Each takes a list, or a single string
 * standing for a one-item list (`select=title`).
 *
 * @module
 */

import { wireError } from "./errors.ts";
import { RELEVANCE } from "./_search.ts";
import type { FieldResolver } from "./_fields.ts";
import type {
  OrderKey,
  PopulatePlan,
  QueryGuards,
  WireCollection,
  WireContext,
} from "./types.ts";

function asList(value: unknown, path: string): unknown[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value;
  throw wireError("invalidShape", path, "Expected a list");
}

function nameAt(value: unknown, path: string): string {
  if (typeof value !== "string") {
    throw wireError("invalidShape", path, "Expected a field name");
  }
  return value;
}

/**
 * Validates `select`: a non-empty list of reachable fields. A field named
 * twice is kept once, at its first position (there is no error code for it,
 * and selecting a field twice asks for nothing different). A dotted path
 * (`author.name`, `comments.author.email`) narrows a record the same query
 * populates: each step before the last is a relation in `populate`, the last a
 * field reachable in the collection it leads to; anything else is
 * `invalidField` at that entry.
 *
 * @example
 * ```ts
 * import { parseSelect } from "./_projection.ts";
 * import { FieldResolver } from "./_fields.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       views: {
 *         kind: "integer" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: false,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * };
 * parseSelect(["views", "UUID", "views"], ctx.collection, new FieldResolver(ctx), ctx.guards);
 * // ["views", "UUID"]
 * ```
 */
export function parseSelect(
  value: unknown,
  collection: WireCollection,
  resolver: FieldResolver,
  guards: QueryGuards,
  populate: readonly PopulatePlan[] = [],
): string[] {
  const list = asList(value, "select");
  if (list.length === 0) throw wireError("emptySelect", "select");
  if (list.length > guards.maxSelect) {
    throw wireError("tooManyFields", "select");
  }
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const at = `select[${i}]`;
    const name = nameAt(item, at);
    if (!selectsReachable(name, collection, resolver, populate)) {
      throw wireError("invalidField", at);
    }
    seen.add(name);
  });
  return [...seen];
}

/** Whether a select entry (a field, or a dotted path into populated records) is reachable. */
function selectsReachable(
  entry: string,
  collection: WireCollection,
  resolver: FieldResolver,
  populate: readonly PopulatePlan[],
): boolean {
  const steps = entry.split(".");
  let current = collection;
  let level = populate;
  for (let i = 0; i < steps.length - 1; i++) {
    const node = level.find((plan) => plan.field === steps[i]);
    const field = node && resolver.resolve(current, steps[i]);
    const target = field && resolver.target(field);
    if (!node || !target) return false;
    current = target;
    level = node.populate;
  }
  return resolver.resolve(current, steps[steps.length - 1]) !== undefined;
}

/**
 * Validates `order`: `field` or `-field` over reachable fields that have an
 * order (not `multiSelect` or `records`), each field at most once; `_relevance`
 * only when `searching`.
 *
 * @example
 * ```ts
 * import { parseOrder } from "./_projection.ts";
 * import { FieldResolver } from "./_fields.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       views: {
 *         kind: "integer" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: false,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * };
 * parseOrder("-views", ctx.collection, new FieldResolver(ctx), ctx.guards);
 * // [{ field: "views", descending: true }]
 * ```
 */
export function parseOrder(
  value: unknown,
  collection: WireCollection,
  resolver: FieldResolver,
  guards: QueryGuards,
  searching = false,
): OrderKey[] {
  const list = asList(value, "order");
  if (list.length > guards.maxOrder) {
    throw wireError("tooManyOrderKeys", "order");
  }
  const seen = new Set<string>();
  return list.map((item, i) => {
    const at = `order[${i}]`;
    const key = nameAt(item, at);
    const descending = key.startsWith("-");
    const name = descending ? key.slice(1) : key;
    const field = name === RELEVANCE
      ? (searching ? { kind: "number" } : undefined)
      : resolver.resolve(collection, name);
    if (
      field === undefined || field.kind === "multiSelect" ||
      field.kind === "records" || field.kind === "file" ||
      field.kind === "files"
    ) {
      throw wireError("invalidField", at);
    }
    if (seen.has(name)) throw wireError("duplicateOrderField", at);
    seen.add(name);
    return { field: name, descending };
  });
}

/**
 * Validates `populate`: dotted paths of `record` / `records` fields
 * (`comments.author`), each step reachable in the collection at that step.
 * Paths merge into one tree in first-seen order; a path listed twice is
 * `duplicatePopulateField` (a prefix of a longer path is not a duplicate).
 *
 * @example
 * ```ts
 * import { parsePopulate } from "./_projection.ts";
 * import { FieldResolver } from "./_fields.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       views: {
 *         kind: "integer" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: false,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * };
 * parsePopulate([], ctx, new FieldResolver(ctx)); // []
 * ```
 */
export function parsePopulate(
  value: unknown,
  ctx: WireContext,
  resolver: FieldResolver,
): PopulatePlan[] {
  const { guards } = ctx;
  const list = asList(value, "populate");
  if (list.length > guards.maxPopulate) {
    throw wireError("tooManyPopulate", "populate");
  }
  const roots: PopulatePlan[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const at = `populate[${i}]`;
    const path = nameAt(item, at);
    const steps = path.split(".");
    if (steps.length > guards.maxPopulateDepth) {
      throw wireError("populateTooDeep", at);
    }
    let collection = ctx.collection;
    let level = roots;
    for (const step of steps) {
      const field = resolver.resolve(collection, step);
      const target = field === undefined ||
          (field.kind !== "record" && field.kind !== "records")
        ? undefined
        : resolver.target(field);
      if (target === undefined) throw wireError("invalidField", at);
      let node = level.find((n) => n.field === step);
      if (node === undefined) {
        node = { field: step, populate: [] };
        level.push(node);
      }
      level = node.populate;
      collection = target;
    }
    if (seen.has(path)) throw wireError("duplicatePopulateField", at);
    seen.add(path);
  });
  return roots;
}
