/**
 * `records`: an ordered list of distinct UUIDs of the field's `collection`, stored in a
 * junction table with positions. A UUID that does not exist is refused at `field[i]`
 * (`invalidReference`). `onDelete`: `cascade` (default: the link leaves the list) or
 * `restrict`. `min`/`max` bound the count.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Sanitizer, Validator } from "../define.ts";
import { checkCount, checkDistinct, issue, normalizeUuid } from "./_checks.ts";
import { checkLengthOptions } from "./text.ts";

const lowercase: Sanitizer = (value) =>
  Array.isArray(value) ? value.map(normalizeUuid) : value;

const isList: Validator = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === "string")
    ? undefined
    : issue("invalidType");

/** The `records` field type. */
export const recordsType: FieldType = Object.freeze<FieldType>({
  name: "records",
  kind: "records",
  sanitizers: Object.freeze([lowercase]),
  validators: Object.freeze([isList, checkDistinct, checkCount]),
  checkOptions: (options) => {
    if (!options.collection) return 'a records field needs "collection"';
    if (options.onDelete === "setNull") {
      return 'onDelete "setNull" does not apply to records (use "cascade")';
    }
    if (options.unique || options.index || options.translatable) {
      return '"unique", "index" and "translatable" do not apply to records';
    }
    return checkLengthOptions(options);
  },
});
