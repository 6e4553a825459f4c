/**
 * Values that are answered at once when they can be: a step that usually has its answer at
 * hand (a cached plan, a SQLite read) returns it, not a promise of it, so a request that
 * never waits costs no promise, no async frame and no microtask per step.
 *
 * @module
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Whether `value` is something `await` would unwrap.
 *
 * @example
 * ```ts
 * import { isThenable } from "./_maybe_promise.ts";
 * isThenable(Promise.resolve(1)); // true
 * isThenable(1); // false
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function";
}

/**
 * `next(value)`: at once when `value` is not a promise, else once it resolves (a rejection
 * passes through, as would a throw of `next`).
 *
 * @example
 * ```ts
 * import { thenMaybe } from "./_maybe_promise.ts";
 * thenMaybe(2, (n) => n + 1); // 3
 * await thenMaybe(Promise.resolve(2), (n) => n + 1); // 3
 * ```
 */
export function thenMaybe<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isThenable(value)
    ? (value as Promise<T>).then(next)
    : next(value as T);
}
