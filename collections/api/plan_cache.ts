/**
 * Parsed wire plans kept per collection and query string, so a query string the API has
 * seen is not parsed again. Only plans that depend on nothing else are kept: those of a
 * caller whose scope selects no fields and whose query reaches no other collection (then
 * the parse reads the collection's own description, the guards and the locales alone,
 * which are fixed from boot). The policies, hooks and the read itself still run per
 * request; a kept plan is frozen, so no caller can change what the next one gets.
 *
 * @module
 */
import type { ApiCollection } from "./registry.ts";

/** Query strings kept per collection and route; the least recently used go first. */
export const MAX_PLANS = 256;

const plans = new WeakMap<ApiCollection, Map<string, unknown>>();

/**
 * The plan kept for `key` (a route's name and its query string) on `collection`, or
 * `undefined`.
 *
 * @example
 * ```ts ignore
 * const plan = keptPlan<ListPlan>(grant.collection, "list?" + search);
 * ```
 */
export function keptPlan<P>(
  collection: ApiCollection,
  key: string,
): P | undefined {
  const kept = plans.get(collection);
  const plan = kept?.get(key);
  if (plan === undefined) return undefined;
  // Re-inserting moves the entry to the most recently used end.
  kept!.delete(key);
  kept!.set(key, plan);
  return plan as P;
}

/**
 * Keeps `plan` (frozen, deeply) for `key` on `collection` and returns it.
 *
 * @example
 * ```ts ignore
 * return keepPlan(grant.collection, "list?" + search, plan);
 * ```
 */
export function keepPlan<P>(
  collection: ApiCollection,
  key: string,
  plan: P,
): P {
  let kept = plans.get(collection);
  if (!kept) plans.set(collection, kept = new Map());
  deepFreeze(plan);
  kept.set(key, plan);
  if (kept.size > MAX_PLANS) kept.delete(kept.keys().next().value as string);
  return plan;
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) {
    return;
  }
  Object.freeze(value);
  if (value instanceof Set || value instanceof Map) return;
  for (const key of Object.keys(value)) {
    deepFreeze((value as Record<string, unknown>)[key]);
  }
}
