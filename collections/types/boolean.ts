/**
 * `boolean`: `true` or `false` (stored as 0/1 on SQLite, `boolean` on PostgreSQL).
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { Validator } from "../define.ts";
import { issue } from "./_checks.ts";

const isBoolean: Validator = (value) =>
  typeof value === "boolean" ? undefined : issue("invalidType");

/** The `boolean` field type. */
export const booleanType: FieldType = Object.freeze<FieldType>({
  name: "boolean",
  kind: "boolean",
  validators: Object.freeze([isBoolean]),
  checkOptions: (options) =>
    options.min !== undefined || options.max !== undefined
      ? '"min" and "max" do not apply to booleans'
      : undefined,
});
