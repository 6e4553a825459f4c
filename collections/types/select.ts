/**
 * `select`: one of the field's `choices`.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Validator } from "../define.ts";
import { issue } from "./_checks.ts";

const isChoice: Validator = (value, ctx) => {
  if (typeof value !== "string") return issue("invalidType");
  return ctx.options.choices?.includes(value)
    ? undefined
    : issue("invalidChoice", { value, choices: ctx.options.choices });
};

/** The `select` field type. */
export const selectType: FieldType = Object.freeze<FieldType>({
  name: "select",
  kind: "select",
  validators: Object.freeze([isChoice]),
  checkOptions: (options) =>
    options.choices
      ? (options.min !== undefined || options.max !== undefined
        ? '"min" and "max" do not apply to select'
        : undefined)
      : 'a select field needs "choices"',
});
