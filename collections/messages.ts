/**
 * Validation messages: the write pipeline produces message keys with parameters; a
 * renderer turns them into text. The default renderer speaks English; the i18n layer passes
 * its own (`DataLayerOptions.messages`).
 *
 * @module
 */

/** Renders a message key with its parameters. */
export type MessageRenderer = (
  key: string,
  params: Record<string, unknown>,
) => string;

/** English templates of the keys the data layer produces; `{name}` is a parameter. */
export const DEFAULT_MESSAGES: Readonly<Record<string, string>> = Object.freeze(
  {
    required: "This field is required",
    invalidType: "This value has the wrong type",
    empty: "This field cannot be empty",
    tooShort: "Must be at least {min} characters long",
    tooLong: "Must be at most {max} characters long",
    tooSmall: "Must be at least {min}",
    tooLarge: "Must be at most {max}",
    tooFew: "Must contain at least {min} items",
    tooMany: "Must contain at most {max} items",
    invalidChoice: "This value is not one of the allowed choices",
    duplicateValue: "This list contains the same value twice",
    unknownField: "This field is not accepted",
    notUnique: "This value is already taken",
    invalidReference: "This record does not exist",
    invalidDate: "Must be a date written YYYY-MM-DD",
    invalidTime: "Must be a time written HH:MM:SS",
    invalidDateTime: "Must be a timestamp in whole milliseconds",
    invalidInteger: "Must be a whole number",
    invalidNumber: "Must be a finite number",
    nulCharacter: "Must not contain the NUL character",
    tooLongForIndex: "Too long for an indexed field (at most {max} bytes)",
    fileNotFound: "This file does not exist or cannot be used here",
    fileOfOneRecord:
      "A file belongs to one record: set files on one record at a time",
    invalidFileType: "This type of file is not accepted",
    tooManyFiles: "At most {max} files",
    tooFewFiles: "At least {min} files",
    imageTooLarge: "This image has too many pixels",
  },
);

/**
 * Replaces `{name}` placeholders with parameters (lists joined by ", ").
 *
 * @example
 * ```ts
 * import { interpolate } from "./messages.ts";
 * interpolate("Must be at most {max}", { max: 5 }); // "Must be at most 5"
 * ```
 */
export function interpolate(
  template: string,
  params: Record<string, unknown>,
): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return Array.isArray(value) ? value.join(", ") : String(value);
  });
}

/**
 * The default renderer: the English template of a known key, else the key itself taken as
 * a literal message (validators may return plain messages).
 *
 * @example
 * ```ts
 * import { renderDefaultMessage } from "./messages.ts";
 * renderDefaultMessage("tooLong", { max: 3 }); // "Must be at most 3 characters long"
 * renderDefaultMessage("Pick another name", {}); // "Pick another name"
 * ```
 */
export function renderDefaultMessage(
  key: string,
  params: Record<string, unknown>,
): string {
  const template = Object.hasOwn(DEFAULT_MESSAGES, key)
    ? DEFAULT_MESSAGES[key]
    : key;
  return interpolate(template, params);
}
