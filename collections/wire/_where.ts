/**
 * Validation and normalisation of `where` (the object form of `where.ts`).
 *
 * Check order inside one field entry, chosen so that nothing about a field the
 * caller cannot reach leaks: the field is resolved first (unknown, write-only,
 * out of scope: `invalidField` at `where.<field>`), and only for a reachable
 * field are operator names looked at (`unknownOperator` for a name that is no
 * operator at all, `invalidField` for an operator its kind does not take).
 *
 * @module
 */

import {
  type FieldCondition,
  OPERATORS_BY_KIND,
  WHERE_OPERATORS,
  type WhereFilter,
  type WhereOperator,
  type WhereScalar,
} from "../where.ts";
import { wireError } from "./errors.ts";
import {
  type FieldResolver,
  isPlainObject,
  type ResolvedField,
} from "./_fields.ts";
import { checkScalar } from "./_values.ts";
import { utf8Length } from "../_utf8.ts";
import type { QueryGuards, WireCollection } from "./types.ts";

/** Nesting of `or`, `not` and `has` a filter may reach (as the literal syntax). */
const MAX_FILTER_DEPTH = 32;

const OPERATORS: ReadonlySet<string> = new Set(WHERE_OPERATORS);
const UUID_OPERATORS: ReadonlySet<WhereOperator> = new Set(["equalsTo", "in"]);
const LIST_OPERATORS: ReadonlySet<WhereOperator> = new Set([
  "in",
  "includesAll",
  "includesAny",
]);
const PATTERN_OPERATORS: ReadonlySet<WhereOperator> = new Set([
  "contains",
  "startsWith",
  "endsWith",
  "like",
]);

function allows(field: ResolvedField, op: WhereOperator): boolean {
  if (field.kind === "uuid") return UUID_OPERATORS.has(op);
  if (op === "isNull" && !field.nullable) return false;
  return OPERATORS_BY_KIND[field.kind].includes(op);
}

/** Parses one `where` value; holds the condition count of the whole filter. */
class WhereParser {
  readonly #resolver: FieldResolver;
  readonly #guards: QueryGuards;
  #conditions = 0;
  #patterns = 0;
  #patternBytes = 0;

  constructor(resolver: FieldResolver, guards: QueryGuards) {
    this.#resolver = resolver;
    this.#guards = guards;
  }

  filter(
    value: unknown,
    collection: WireCollection,
    path: string,
    depth: number,
    hasDepth: number,
  ): WhereFilter {
    if (!isPlainObject(value)) {
      throw wireError("invalidShape", path, "Expected a filter object");
    }
    if (depth > MAX_FILTER_DEPTH) throw wireError("tooDeep", path);
    const out: WhereFilter = {};
    for (const key of Object.keys(value)) {
      const item = value[key];
      const at = `${path}.${key}`;
      if (key === "or") {
        if (!Array.isArray(item) || item.length === 0) {
          throw wireError("invalidShape", at, "Expected a non-empty list");
        }
        this.#count(at, item.length);
        out.or = item.map((branch, i) =>
          this.filter(branch, collection, `${at}[${i}]`, depth + 1, hasDepth)
        );
      } else if (key === "not") {
        this.#count(at, 1);
        out.not = this.filter(item, collection, at, depth + 1, hasDepth);
      } else {
        const field = this.#resolver.resolve(collection, key);
        if (field === undefined) throw wireError("invalidField", at);
        out[key] = this.#condition(field, item, at, depth, hasDepth);
      }
    }
    return out;
  }

  #condition(
    field: ResolvedField,
    value: unknown,
    path: string,
    depth: number,
    hasDepth: number,
  ): WhereScalar | FieldCondition {
    if (value === null) throw wireError("nullEquality", path);
    if (!isPlainObject(value)) {
      if (!allows(field, "equalsTo")) throw wireError("invalidField", path);
      this.#count(path, 1);
      if (Array.isArray(value)) throw wireError("invalidValue", path);
      return checkScalar(field.kind, value, path, this.#guards);
    }
    const names = Object.keys(value);
    if (names.length === 0) {
      throw wireError("invalidShape", path, "Expected at least one operator");
    }
    const out: FieldCondition = {};
    for (const name of names) {
      const at = `${path}.${name}`;
      if (!OPERATORS.has(name)) throw wireError("unknownOperator", at);
      const op = name as WhereOperator;
      if (!allows(field, op)) throw wireError("invalidField", at);
      this.#count(at, 1);
      const operand = value[name];
      if (op === "has") {
        out.has = this.#has(field, operand, at, depth, hasDepth);
      } else {
        out[op] = this.#operand(field, op, operand, at);
      }
    }
    return out;
  }

  #has(
    field: ResolvedField,
    value: unknown,
    path: string,
    depth: number,
    hasDepth: number,
  ): WhereFilter {
    const target = this.#resolver.target(field);
    // A relation whose target is unknown to the context cannot be probed.
    if (target === undefined) throw wireError("invalidField", path);
    if (hasDepth + 1 > this.#guards.maxHasDepth) {
      throw wireError("tooDeep", path);
    }
    return this.filter(value, target, path, depth + 1, hasDepth + 1);
  }

  #operand(
    field: ResolvedField,
    op: WhereOperator,
    value: unknown,
    path: string,
  ): WhereScalar | WhereScalar[] {
    if (op === "isNull" || op === "empty") {
      if (typeof value !== "boolean") throw wireError("invalidValue", path);
      return value;
    }
    if (LIST_OPERATORS.has(op)) {
      if (!Array.isArray(value)) throw wireError("invalidValue", path);
      if (value.length > this.#guards.maxInLength) {
        throw wireError("listTooLong", path);
      }
      return value.map((item, i) => {
        const at = `${path}[${i}]`;
        if (item === null) {
          throw wireError(op === "in" ? "nullEquality" : "invalidValue", at);
        }
        return checkScalar(field.kind, item, at, this.#guards);
      });
    }
    if (value === null) {
      throw wireError(
        op === "equalsTo" ? "nullEquality" : "invalidValue",
        path,
      );
    }
    const pattern = PATTERN_OPERATORS.has(op);
    // Pattern operators only ever compare text, whatever else the kind holds.
    const kind = pattern ? "text" : field.kind;
    const checked = checkScalar(kind, value, path, this.#guards, pattern);
    if (pattern) this.#countPattern(path, checked as string);
    return checked;
  }

  /**
   * Pattern matching is the costliest per row: one query's patterns are bounded in count
   * and in total bytes, beside each one's own `maxPatternBytes`.
   */
  #countPattern(path: string, value: string): void {
    if (++this.#patterns > this.#guards.maxPatterns) {
      throw wireError("tooManyPatterns", path);
    }
    this.#patternBytes += utf8Length(value);
    if (this.#patternBytes > this.#guards.maxPatternBytesTotal) {
      throw wireError("patternsTooLarge", path);
    }
  }

  #count(path: string, n: number): void {
    this.#conditions += n;
    if (this.#conditions > this.#guards.maxConditions) {
      throw wireError("tooManyConditions", path);
    }
  }
}

/**
 * Validates a `where` value against `collection` and returns the normalised
 * filter (equality shorthand kept, UUIDs lowercased).
 *
 * @example
 * ```ts
 * import { parseWhere } from "./_where.ts";
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
 * parseWhere(
 *   { views: { atLeast: 10 } },
 *   ctx.collection,
 *   new FieldResolver(ctx),
 *   ctx.guards,
 * );
 * ```
 */
export function parseWhere(
  value: unknown,
  collection: WireCollection,
  resolver: FieldResolver,
  guards: QueryGuards,
): WhereFilter {
  return new WhereParser(resolver, guards).filter(
    value,
    collection,
    "where",
    0,
    0,
  );
}
