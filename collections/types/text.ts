/**
 * `text`: a string. Not trimmed; `''` is refused unless `allowEmpty`; `min`/`max` bound the
 * length in code points.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { FieldOptions, Validator } from "../define.ts";
import { isCount, issue } from "./_checks.ts";

function length(value: string): number {
  // Only strings with surrogate pairs need the slower code-point count.
  return /[\uD800-\uDBFF]/.test(value) ? [...value].length : value.length;
}

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const notEmpty: Validator = (value, ctx) =>
  value === "" && !ctx.options.allowEmpty ? issue("empty") : undefined;

const lengthRange: Validator = (value, ctx) => {
  const { min, max } = ctx.options;
  if (min === undefined && max === undefined) return undefined;
  const n = length(value as string);
  if (typeof min === "number" && n < min) return issue("tooShort", { min });
  if (typeof max === "number" && n > max) return issue("tooLong", { max });
  return undefined;
};

/**
 * Checks `min`/`max` are non-negative integers (lengths).
 *
 * @example
 * ```ts ignore
 * checkLengthOptions({ max: -1 }); // '"max" must be a non-negative integer length'
 * ```
 */
export function checkLengthOptions(
  options: Readonly<FieldOptions>,
): string | undefined {
  if (!isCount(options.min)) {
    return '"min" must be a non-negative integer length';
  }
  if (!isCount(options.max)) {
    return '"max" must be a non-negative integer length';
  }
  return undefined;
}

/** The `text` field type. */
export const textType: FieldType = Object.freeze<FieldType>({
  name: "text",
  kind: "text",
  validators: Object.freeze([isString, notEmpty, lengthRange]),
  checkOptions: checkLengthOptions,
});
