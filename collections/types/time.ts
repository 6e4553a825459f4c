/**
 * `time`: a time of day `HH:MM:SS` (24 h); `HH:MM` is accepted and stored as `HH:MM:00`.
 * `min`/`max` are times in the same form.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Sanitizer, Validator } from "../define.ts";
import { checkRange, issue } from "./_checks.ts";

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const SHORT_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/**
 * Whether `value` is a time of day written `HH:MM:SS`.
 *
 * @example
 * ```ts
 * import { isTimeOfDay } from "./time.ts";
 * isTimeOfDay("23:59:59"); // true
 * isTimeOfDay("24:00:00"); // false
 * ```
 */
export function isTimeOfDay(value: unknown): value is string {
  return typeof value === "string" && TIME.test(value);
}

const addSeconds: Sanitizer = (value) =>
  typeof value === "string" && SHORT_TIME.test(value) ? `${value}:00` : value;

const isTime: Validator = (value) => {
  if (typeof value !== "string") return issue("invalidType");
  return TIME.test(value) ? undefined : issue("invalidTime");
};

/** The `time` field type. */
export const timeType: FieldType = Object.freeze<FieldType>({
  name: "time",
  kind: "time",
  sanitizers: Object.freeze([addSeconds]),
  validators: Object.freeze([isTime, checkRange]),
  checkOptions: (options) => {
    const { min, max } = options;
    if (min !== undefined && !isTimeOfDay(min)) {
      return '"min" must be a time written HH:MM:SS';
    }
    if (max !== undefined && !isTimeOfDay(max)) {
      return '"max" must be a time written HH:MM:SS';
    }
    return undefined;
  },
});
