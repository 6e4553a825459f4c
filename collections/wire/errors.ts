/**
 * The 400 errors of the wire query grammar: every malformed query answers
 * `{ statusCode: 400, message, data: { code, path } }`.
 *
 * @module
 */

import { HTTPError } from "../../router/errors.ts";

/** Every stable error code of the wire query grammar. */
export const WIRE_ERROR_CODES = [
  "unknownParam",
  "invalidField",
  "unknownOperator",
  "invalidValue",
  "invalidShape",
  "nullEquality",
  "tooDeep",
  "invalidNumber",
  "invalidPagination",
  "emptySelect",
  "duplicateOrderField",
  "duplicatePopulateField",
  "invalidLocale",
  "localeNotApplicable",
  "sameLocale",
  "tooManyConditions",
  "listTooLong",
  "tooManyFields",
  "tooManyOrderKeys",
  "tooManyPopulate",
  "populateTooDeep",
  "valueTooLarge",
  "tooManyPatterns",
  "patternsTooLarge",
  "searchNotAvailable",
] as const;

/** One stable error code of the wire query grammar. */
export type WireErrorCode = typeof WIRE_ERROR_CODES[number];

const CODES: ReadonlySet<string> = new Set(WIRE_ERROR_CODES);

const DEFAULT_MESSAGES: Readonly<Record<WireErrorCode, string>> = {
  unknownParam: "Unknown query parameter",
  invalidField: "Unknown field or disallowed operator",
  unknownOperator: "Unknown operator",
  invalidValue: "Invalid value for this field",
  invalidShape: "Malformed query value",
  nullEquality: "Equality with null is not allowed, use isNull",
  tooDeep: "Query nested too deeply",
  invalidNumber: "Expected a non-negative integer",
  invalidPagination: "Use either limit/offset or page/perPage, not both",
  emptySelect: "Select needs at least one field",
  duplicateOrderField: "Field ordered more than once",
  duplicatePopulateField: "Relation populated more than once",
  invalidLocale: "Unknown or unsupported locale",
  localeNotApplicable: "This collection has no translatable fields",
  sameLocale: "Source and target locale are the same",
  tooManyConditions: "Too many conditions",
  listTooLong: "List too long",
  tooManyFields: "Too many selected fields",
  tooManyOrderKeys: "Too many order keys",
  tooManyPopulate: "Too many populated relations",
  populateTooDeep: "Populate nested too deeply",
  valueTooLarge: "Value too large",
  tooManyPatterns: "Too many pattern conditions",
  patternsTooLarge: "Pattern conditions too large in total",
  searchNotAvailable: "This collection has no searchable field",
};

/**
 * Builds the 400 error of a malformed query. `path` names the offending part
 * (`where.views.atLeast`, `where.or[1].title`, `select[2]`, `limit`);
 * `message` defaults to a fixed text per code.
 *
 * @example
 * ```ts
 * import { wireError } from "./errors.ts";
 * const error = wireError("invalidNumber", "limit");
 * error.status; // 400
 * error.data; // { code: "invalidNumber", path: "limit" }
 * ```
 */
export function wireError(
  code: WireErrorCode,
  path: string,
  message?: string,
): HTTPError {
  return new HTTPError(400, message ?? DEFAULT_MESSAGES[code], {
    data: { code, path },
    messageKey: `query.${code}`,
  });
}

/**
 * Whether `error` is a 400 built by {@link wireError} (status 400 and a known
 * `data.code`).
 *
 * @example
 * ```ts
 * import { isWireError, wireError } from "./errors.ts";
 * isWireError(wireError("tooDeep", "where")); // true
 * ```
 */
export function isWireError(error: unknown): error is HTTPError {
  return error instanceof HTTPError && error.status === 400 &&
    typeof error.data?.code === "string" && CODES.has(error.data.code) &&
    typeof error.data.path === "string";
}
