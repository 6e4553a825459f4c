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
}

/**
 * Registers `fn` on the hook `name`. Default-export the result from a file in `hooks/`, or
 * list it in a layer's `hooks`.
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
): HookRegistration {
  if (typeof name !== "string" || name === "") {
    throw new TypeError("hook() needs a hook name");
  }
  if (typeof fn !== "function") {
    throw new TypeError(`hook("${name}") needs a function`);
  }
  return Object.freeze({ hook: name, fn });
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
