/**
 * Hooks: named extension points (`query:filter`, `auth:account-fields`, …) that layers and apps
 * register functions on.
 *
 * @module
 */

/** A function registered on a hook; its arguments and result depend on the hook. */
export type HookFunction = (...args: never[]) => unknown;

/** A function registered on a named hook. */
export interface HookRegistration {
  /** The hook name, e.g. `query:filter`. */
  readonly hook: string;
  /** The function. */
  readonly fn: HookFunction;
  /** Which changes a `record:*` hook runs for (all when absent). */
  readonly filter?: RecordHookFilter;
  /**
   * A stable name (set by the folder loader: the hook file's name), under which
   * `record:afterCommit` remembers what it ran.
   */
  readonly id?: string;
}

/** Limits a `record:*` hook to some collections (names as defined) and operations. */
export interface RecordHookFilter {
  /** Collection names, as defined (`Orders`, not the API path). */
  readonly collections?: readonly string[];
  /** Operations. */
  readonly ops?: readonly ("create" | "update" | "delete")[];
}

function checkFilter(name: string, filter: RecordHookFilter): RecordHookFilter {
  if (!name.startsWith("record:")) {
    throw new TypeError(`hook("${name}") takes no filter`);
  }
  if (typeof filter !== "object" || filter === null) {
    throw new TypeError(`hook("${name}") needs a filter object`);
  }
  for (const key of Object.keys(filter)) {
    if (key !== "collections" && key !== "ops") {
      throw new TypeError(`hook("${name}"): unknown filter key "${key}"`);
    }
  }
  const list = (value: unknown, key: string, allowed?: readonly string[]) => {
    if (value === undefined) return undefined;
    if (
      !Array.isArray(value) ||
      value.some((v) =>
        typeof v !== "string" || (allowed && !allowed.includes(v))
      )
    ) {
      throw new TypeError(
        `hook("${name}"): ${key} must be a list of ${
          allowed ? allowed.join(", ") : "collection names"
        }`,
      );
    }
    return Object.freeze([...value]);
  };
  return Object.freeze({
    collections: list(filter.collections, "collections"),
    ops: list(filter.ops, "ops", ["create", "update", "delete"]) as
      | readonly ("create" | "update" | "delete")[]
      | undefined,
  });
}

/**
 * Whether a `record:*` hook limited by `filter` runs for a change of `collection` by `op`.
 *
 * @example
 * ```ts
 * import { filterMatches } from "./hooks.ts";
 * filterMatches({ ops: ["create"] }, "Orders", "create"); // true
 * ```
 */
export function filterMatches(
  filter: RecordHookFilter | undefined,
  collection: string,
  op: string,
): boolean {
  if (!filter) return true;
  if (filter.collections && !filter.collections.includes(collection)) {
    return false;
  }
  return !filter.ops || (filter.ops as readonly string[]).includes(op);
}

/**
 * Registers `fn` on the hook `name`. Default-export the result from a file in `hooks/`, or
 * list it in a layer's `hooks`. A `record:*` hook may be limited to some collections and
 * operations by a filter before the function.
 *
 * @example
 * ```ts
 * // hooks/published_only.ts: every read of Posts sees published posts only
 * import { hook } from "@strata/strata";
 * export default hook("query:filter", ({ collection }: { collection: string }) =>
 *   collection === "Posts" ? { published: true } : undefined
 * );
 * ```
 */
export function hook<F extends HookFunction>(
  name: string,
  fn: F,
): HookRegistration;
/**
 * Registers `fn` on the `record:*` hook `name`, for the changes `filter` admits.
 *
 * @example
 * ```ts
 * import { hook } from "@strata/strata";
 * export default hook(
 *   "record:afterCommit",
 *   { collections: ["Orders"], ops: ["create"] },
 *   (event: { uuid: string }) => console.log("New order", event.uuid),
 * );
 * ```
 */
export function hook<F extends HookFunction>(
  name: string,
  filter: RecordHookFilter,
  fn: F,
): HookRegistration;
export function hook<F extends HookFunction>(
  name: string,
  filterOrFn: RecordHookFilter | F,
  maybeFn?: F,
): HookRegistration {
  if (typeof name !== "string" || name === "") {
    throw new TypeError("hook() needs a hook name");
  }
  const fn = maybeFn === undefined ? filterOrFn : maybeFn;
  if (typeof fn !== "function") {
    throw new TypeError(`hook("${name}") needs a function`);
  }
  if (maybeFn === undefined) return Object.freeze({ hook: name, fn });
  const filter = checkFilter(name, filterOrFn as RecordHookFilter);
  return Object.freeze({ hook: name, fn, filter });
}

/**
 * Whether `value` was made by {@link hook}.
 *
 * @example
 * ```ts
 * import { hook, isHookRegistration } from "./hooks.ts";
 * isHookRegistration(hook("query:filter", () => undefined)); // true
 * ```
 */
export function isHookRegistration(value: unknown): value is HookRegistration {
  return typeof value === "object" && value !== null &&
    typeof (value as HookRegistration).hook === "string" &&
    typeof (value as HookRegistration).fn === "function";
}
