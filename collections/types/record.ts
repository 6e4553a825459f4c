/**
 * `record`: the UUID of a record of the field's `collection`. Existence is checked inside
 * the write's transaction (`invalidReference`); `onDelete` decides what a delete of the
 * target does (`setNull`, `cascade`, `restrict` — the default).
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Sanitizer, Validator } from "../define.ts";
import { issue, isUuid, normalizeUuid } from "./_checks.ts";

const lowercase: Sanitizer = (value) => normalizeUuid(value);

const isReference: Validator = (value) => {
  if (typeof value !== "string") return issue("invalidType");
  return isUuid(value) ? undefined : issue("invalidReference");
};

/** The `record` field type. */
export const recordType: FieldType = Object.freeze<FieldType>({
  name: "record",
  kind: "record",
  sanitizers: Object.freeze([lowercase]),
  validators: Object.freeze([isReference]),
  checkOptions: (options) => {
    if (!options.collection) return 'a record field needs "collection"';
    if (options.min !== undefined || options.max !== undefined) {
      return '"min" and "max" do not apply to record';
    }
    return undefined;
  },
});
