/**
 * `email`: a string, trimmed and lowercased before it is checked, so lookups match
 * case-insensitively.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { codePoints, issue } from "./_issue.ts";

/** Longest address SMTP can carry (RFC 5321 path limit minus the brackets). */
const MAX_LENGTH = 254;
const LOCAL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/**
 * Whether `value` looks like a deliverable address: `local@domain` with a dotted domain
 * of valid labels and a top-level label that is not all digits.
 *
 * @example
 * ```ts
 * import { isEmailAddress } from "./email.ts";
 * isEmailAddress("ada@example.com"); // true
 * isEmailAddress("ada@localhost"); // false
 * ```
 */
export function isEmailAddress(value: string): boolean {
  if (codePoints(value) > MAX_LENGTH) return false;
  const at = value.lastIndexOf("@");
  if (at < 1) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split(".");
  return local.length <= 64 && LOCAL.test(local) && labels.length >= 2 &&
    labels.every((label) => LABEL.test(label)) &&
    !/^\d+$/.test(labels[labels.length - 1]);
}

const normalize: Sanitizer = (value) =>
  typeof value === "string" ? value.trim().toLowerCase() : value;

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const notEmpty: Validator = (value) =>
  value === "" ? issue("empty") : undefined;

const wellFormed: Validator = (value) =>
  isEmailAddress(value as string) ? undefined : issue("invalidEmail");

/** The `email` field type (kind `text`). */
export const emailType: FieldType = defineFieldType({
  name: "email",
  kind: "text",
  sanitizers: [normalize],
  validators: [isString, notEmpty, wellFormed],
});
