/**
 * `multiSelect`: a list of distinct `choices` (stored as a JSON array: `text` on SQLite,
 * `jsonb` on PostgreSQL); `min`/`max` bound the count.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Validator } from "../define.ts";
import { checkCount, checkDistinct, issue } from "./_checks.ts";
import { checkLengthOptions } from "./text.ts";

const isList: Validator = (value) =>
  Array.isArray(value) ? undefined : issue("invalidType");

const allChoices: Validator = (value, ctx) => {
  const choices = ctx.options.choices ?? [];
  for (const item of value as unknown[]) {
    if (typeof item !== "string") return issue("invalidType");
    if (!choices.includes(item)) {
      return issue("invalidChoice", { value: item, choices });
    }
  }
  return undefined;
};

/** The `multiSelect` field type. */
export const multiSelectType: FieldType = Object.freeze<FieldType>({
  name: "multiSelect",
  kind: "multiSelect",
  validators: Object.freeze([isList, allChoices, checkDistinct, checkCount]),
  checkOptions: (options) =>
    options.choices
      ? checkLengthOptions(options)
      : 'a multiSelect field needs "choices"',
});
