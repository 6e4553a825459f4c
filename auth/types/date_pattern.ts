/**
 * `datePattern`: a date or time format the dashboard renders, trimmed. A field whose name
 * mentions `time` (`timeFormat`) takes a time format ({@link TIME_PATTERNS}), any other a
 * date format ({@link DATE_PATTERNS}); anything else is refused (`invalidChoice`), so an
 * account never stores a format the dashboard would silently ignore.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { codePoints, issue } from "./_issue.ts";
import { DATE_PATTERNS, TIME_PATTERNS } from "./date_formats.ts";

export { DATE_PATTERNS, TIME_PATTERNS };

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

const known: Validator = (value, ctx) => {
  const choices = /time/i.test(ctx.field) ? TIME_PATTERNS : DATE_PATTERNS;
  return choices.includes(value as string)
    ? undefined
    : issue("invalidChoice", { choices: choices.join(", ") });
};

/** The `datePattern` field type (kind `text`). */
export const datePatternType: FieldType = defineFieldType({
  name: "datePattern",
  kind: "text",
  sanitizers: [trim],
  validators: [isString, notBlank, notTooLong, known],
});
