/**
 * Small validators shared by the built-in field types.
 *
 * @module
 */

import type { FieldContext, ValidationIssue, Validator } from "../define.ts";

/**
 * A refusal by message key with parameters.
 *
 * @example
 * ```ts ignore
 * issue("tooLong", { max: 5 }); // { key: "tooLong", params: { max: 5 } }
 * ```
 */
export function issue(
  key: string,
  params?: Record<string, unknown>,
): ValidationIssue {
  return params ? { key, params } : { key };
}

/**
 * Whether a `min`/`max` option is absent or a non-negative safe integer (a length or a
 * count). The types' option checks test both bounds written out: they run once per field at
 * boot, where a loop over the two keys cost an array, an iterator and a result per step.
 *
 * @example
 * ```ts ignore
 * isCount(undefined); // true
 * isCount(-1); // false
 * ```
 */
export function isCount(value: unknown): boolean {
  return value === undefined ||
    (Number.isSafeInteger(value) && (value as number) >= 0);
}

/** Refuses values outside `[min, max]` (numbers or strings compared as such). */
export const checkRange: Validator = (value, ctx: FieldContext) => {
  const { min, max } = ctx.options;
  if (min !== undefined && (value as number | string) < min) {
    return issue("tooSmall", { min });
  }
  if (max !== undefined && (value as number | string) > max) {
    return issue("tooLarge", { max });
  }
  return undefined;
};

/** Refuses lists with fewer than `min` or more than `max` items. */
export const checkCount: Validator = (value, ctx: FieldContext) => {
  const { min, max } = ctx.options;
  const count = (value as unknown[]).length;
  if (typeof min === "number" && count < min) return issue("tooFew", { min });
  if (typeof max === "number" && count > max) return issue("tooMany", { max });
  return undefined;
};

/** Refuses lists that hold a value twice. */
export const checkDistinct: Validator = (value) =>
  new Set(value as unknown[]).size === (value as unknown[]).length
    ? undefined
    : issue("duplicateValue");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Whether `value` is a UUID in canonical (lowercase) form.
 *
 * @example
 * ```ts ignore
 * isUuid(crypto.randomUUID()); // true
 * ```
 */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && value.length === 36 && UUID.test(value);
}

/**
 * Lowercases UUID-looking strings so lookups match `crypto.randomUUID()` output.
 *
 * @example
 * ```ts ignore
 * normalizeUuid("3F2504E0-4F89-41D3-9A0C-0305E82C3301"); // lowercased
 * ```
 */
export function normalizeUuid(value: unknown): unknown {
  return typeof value === "string" && value.length === 36
    ? value.toLowerCase()
    : value;
}
