/**
 * `integer`: a safe integer (|n| ≤ 2^53 - 1); `min`/`max` bound the value.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { FieldOptions, Validator } from "../define.ts";
import { checkRange, issue } from "./_checks.ts";

const isInteger: Validator = (value) => {
  if (typeof value !== "number") return issue("invalidType");
  return Number.isSafeInteger(value) ? undefined : issue("invalidInteger");
};

/**
 * Checks `min`/`max` are numbers.
 *
 * @example
 * ```ts ignore
 * checkNumberOptions({ min: "1" }); // '"min" must be a number'
 * ```
 */
export function checkNumberOptions(
  options: Readonly<FieldOptions>,
): string | undefined {
  const { min, max } = options;
  if (min !== undefined && typeof min !== "number") {
    return '"min" must be a number';
  }
  if (max !== undefined && typeof max !== "number") {
    return '"max" must be a number';
  }
  return undefined;
}

/** The `integer` field type. */
export const integerType: FieldType = Object.freeze<FieldType>({
  name: "integer",
  kind: "integer",
  validators: Object.freeze([isInteger, checkRange]),
  checkOptions: checkNumberOptions,
});
