/**
 * `number`: a finite number; `min`/`max` bound the value.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Validator } from "../define.ts";
import { checkRange, issue } from "./_checks.ts";
import { checkNumberOptions } from "./integer.ts";

const isFinite: Validator = (value) => {
  if (typeof value !== "number") return issue("invalidType");
  return Number.isFinite(value) ? undefined : issue("invalidNumber");
};

/** The `number` field type. */
export const numberType: FieldType = Object.freeze<FieldType>({
  name: "number",
  kind: "number",
  validators: Object.freeze([isFinite, checkRange]),
  checkOptions: checkNumberOptions,
});
