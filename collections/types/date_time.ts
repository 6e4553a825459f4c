/**
 * `dateTime`: an instant as epoch milliseconds (a safe integer). A `Date` given by trusted
 * code is converted; `min`/`max` are epoch milliseconds.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Sanitizer, Validator } from "../define.ts";
import { checkRange, issue } from "./_checks.ts";
import { checkNumberOptions } from "./integer.ts";

const fromDate: Sanitizer = (value) =>
  value instanceof Date ? value.getTime() : value;

const isEpochMs: Validator = (value) => {
  if (typeof value !== "number") return issue("invalidType");
  return Number.isSafeInteger(value) ? undefined : issue("invalidDateTime");
};

/** The `dateTime` field type. */
export const dateTimeType: FieldType = Object.freeze<FieldType>({
  name: "dateTime",
  kind: "dateTime",
  sanitizers: Object.freeze([fromDate]),
  validators: Object.freeze([isEpochMs, checkRange]),
  checkOptions: checkNumberOptions,
});
