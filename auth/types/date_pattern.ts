/**
 * `datePattern`: a date or time format pattern or token (`LL`, `LTS`, `YYYY-MM-DD`): a
 * non-blank string of at most 64 characters, trimmed.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { codePoints, issue } from "./_issue.ts";

const MAX_LENGTH = 64;

const trim: Sanitizer = (value) =>
  typeof value === "string" ? value.trim() : value;

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const notBlank: Validator = (value) =>
  value === "" ? issue("empty") : undefined;

const notTooLong: Validator = (value) =>
  codePoints(value as string) > MAX_LENGTH
    ? issue("tooLong", { max: MAX_LENGTH })
    : undefined;

/** The `datePattern` field type (kind `text`). */
export const datePatternType: FieldType = defineFieldType({
  name: "datePattern",
  kind: "text",
  sanitizers: [trim],
  validators: [isString, notBlank, notTooLong],
});
