/**
 * Field resolution shared by `where`, `select`, `order` and `populate`: a
 * field is reachable when it is defined, readable and inside the caller's
 * reachable set. Every other name (unknown, write-only, out of scope,
 * prototype names) resolves to `undefined`, so callers answer them alike.
 *
 * @module
 */

import type { FieldKind } from "../where.ts";
import type { WireCollection, WireContext, WireField } from "./types.ts";
import { FILE_WIRE_COLLECTION } from "../files/table.ts";

/** The implicit primary key every collection has. */
export const UUID_FIELD = "UUID";

/** The kind of a resolved field; `uuid` is the implicit `UUID` field. */
export type ResolvedKind = FieldKind | "uuid";

/** A reachable field. */
export interface ResolvedField {
  /** Its name. */
  name: string;
  /** Its kind. */
  kind: ResolvedKind;
  /** Whether it may hold null. */
  nullable: boolean;
  /** `record`/`records`: the target collection's name. */
  target?: string;
}

/**
 * Resolves names against a context, remembering each reachable set.
 *
 * @example
 * ```ts
 * import { FieldResolver } from "./_fields.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const posts = { name: "Posts", fields: {} };
 * const resolver = new FieldResolver({
 *   collection: posts,
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * });
 * resolver.resolve(posts, "UUID"); // { name: "UUID", kind: "uuid", nullable: false }
 * resolver.resolve(posts, "constructor"); // undefined
 * ```
 */
export class FieldResolver {
  readonly #ctx: WireContext;
  readonly #reachable = new Map<string, ReadonlySet<string> | undefined>();

  /** Resolves against `ctx`; one resolver serves one parse. */
  constructor(ctx: WireContext) {
    this.#ctx = ctx;
  }

  /** The reachable field `name` of `collection`, or `undefined`. */
  resolve(collection: WireCollection, name: string): ResolvedField | undefined {
    const allowed = this.#allowed(collection.name);
    if (allowed !== undefined && !allowed.has(name)) return undefined;
    if (name === UUID_FIELD) {
      return { name, kind: "uuid", nullable: false };
    }
    // "__proto__" is refused even when a definition object carries it as an
    // own key, since the output objects are built by assignment.
    if (name === "__proto__" || !Object.hasOwn(collection.fields, name)) {
      return undefined;
    }
    const field: WireField = collection.fields[name];
    if (!field.readable) return undefined;
    return {
      name,
      kind: field.kind,
      nullable: field.nullable,
      target: field.target,
    };
  }

  /** The collection a relation field points at, if it is known. */
  target(field: ResolvedField): WireCollection | undefined {
    if (field.kind === "file" || field.kind === "files") {
      return FILE_WIRE_COLLECTION;
    }
    if (field.target === undefined) return undefined;
    return this.#ctx.collectionByName(field.target);
  }

  #allowed(collection: string): ReadonlySet<string> | undefined {
    if (this.#ctx.reachable === undefined) return undefined;
    if (!this.#reachable.has(collection)) {
      this.#reachable.set(collection, this.#ctx.reachable(collection));
    }
    return this.#reachable.get(collection);
  }
}

/**
 * Whether `value` is a plain object (not an array, not null, no class).
 *
 * @example
 * ```ts
 * import { isPlainObject } from "./_fields.ts";
 * isPlainObject({}); // true
 * isPlainObject([]); // false
 * ```
 */
export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
