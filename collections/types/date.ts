/**
 * `date`: a real calendar date as `YYYY-MM-DD` (stored as text, which sorts
 * chronologically); `min`/`max` are dates in the same form.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Validator } from "../define.ts";
import { checkRange, issue } from "./_checks.ts";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `value` is a real calendar date written `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * import { isCalendarDate } from "./date.ts";
 * isCalendarDate("2024-02-29"); // true
 * isCalendarDate("2023-02-29"); // false
 * ```
 */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [+match[1], +match[2], +match[3]];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS[month - 1]);
}

const isDate: Validator = (value) => {
  if (typeof value !== "string") return issue("invalidType");
  return isCalendarDate(value) ? undefined : issue("invalidDate");
};

/** The `date` field type. */
export const dateType: FieldType = Object.freeze<FieldType>({
  name: "date",
  kind: "date",
  validators: Object.freeze([isDate, checkRange]),
  checkOptions: (options) => {
    const { min, max } = options;
    if (min !== undefined && !isCalendarDate(min)) {
      return '"min" must be a date written YYYY-MM-DD';
    }
    if (max !== undefined && !isCalendarDate(max)) {
      return '"max" must be a date written YYYY-MM-DD';
    }
    return undefined;
  },
});
