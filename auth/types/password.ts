/**
 * `password`: write-only plain text on input, hashed with scrypt just before storage using
 * the app's `auth.password` options. The password policy applies to every write: at least
 * `auth.password.minLength` characters (default 8; a field's `min` overrides it), at most
 * 1024, and none of the 10,000 most common passwords.
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { FieldOptions, Validator } from "../../collections/define.ts";
import { hashPassword } from "../../utils/crypto.ts";
import { currentApp, settingsOf } from "../_state.ts";
import { codePoints, issue } from "./_issue.ts";
import { isCommonPassword } from "../password_policy.ts";

/** Shortest password accepted unless the field sets `min`. */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted unless the field sets `max`: bounds the hashing work. */
export const MAX_PASSWORD_LENGTH = 1024;

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const lengthRange: Validator = (value, ctx) => {
  const app = currentApp();
  const min = typeof ctx.options.min === "number"
    ? ctx.options.min
    : app
    ? settingsOf(app).passwordMinLength
    : MIN_PASSWORD_LENGTH;
  const max = typeof ctx.options.max === "number"
    ? ctx.options.max
    : MAX_PASSWORD_LENGTH;
  const length = codePoints(value as string);
  if (length < min) return issue("tooShort", { min });
  if (length > max) return issue("tooLong", { max });
  return undefined;
};

const uncommon: Validator = (value) =>
  isCommonPassword(value as string) ? issue("commonPassword") : undefined;

function checkOptions(options: Readonly<FieldOptions>): string | undefined {
  for (const key of ["min", "max"] as const) {
    const value = options[key];
    if (
      value !== undefined &&
      !(Number.isSafeInteger(value) && value as number >= 1)
    ) {
      return `"${key}" must be a positive integer length`;
    }
  }
  if (options.readable === true) {
    return "a password field is write-only and cannot be readable";
  }
  return undefined;
}

/** Hashes with the options of the app the write runs for (defaults outside any app). */
function hash(value: unknown): Promise<string> {
  const app = currentApp();
  return hashPassword(value as string, app ? settingsOf(app).password : {});
}

/** The `password` field type (kind `text`, write-only). */
export const passwordType: FieldType = defineFieldType({
  name: "password",
  kind: "text",
  defaults: { readable: false },
  validators: [isString, lengthRange, uncommon],
  prepareForStorage: hash,
  checkOptions,
});
