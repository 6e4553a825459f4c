/**
 * The shapes the query builder answers with.
 *
 * @module
 */

/**
 * A record as read: `UUID`, the selected readable fields, `_updatedAt` (epoch ms, unless a
 * selection leaves it out) and, on a collection with translatable fields, `_translations`
 * (locales holding a translation, in configured order). Plain JSON-able values.
 */
export interface DataRecord {
  /** The record's UUID (v4). */
  UUID: string;
  /** Field values. */
  [field: string]: unknown;
}

/** A page of records (see `QueryBuilder.paginate`). */
export interface Page {
  /** The records on this page. */
  records: DataRecord[];
  /** How many records match in all. */
  total: number;
  /** This page's number (from 1). */
  page: number;
  /** Page size. */
  perPage: number;
  /** The last page's number (at least 1). */
  lastPage: number;
}

/** Field path → rendered message. */
export type WriteErrors = Record<string, string>;

/** The answer of `create`. */
export type CreateResult =
  | { ok: true; record: DataRecord }
  | { ok: false; errors: WriteErrors };

/** The answer of `update`. */
export type UpdateResult =
  | { ok: true; records: DataRecord[] }
  | { ok: false; errors: WriteErrors };

/** The answer of `delete` (a `restrict` violation throws a 409 `HTTPError` instead). */
export interface DeleteResult {
  /** Always `true`. */
  ok: true;
  /** The deleted records as they were. */
  records: DataRecord[];
}

const CODES = new WeakMap<WriteErrors, Record<string, string>>();
const CODE = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Whether `errors` holds any refusal (without listing its keys: a write asks this once per
 * request).
 *
 * @example
 * ```ts
 * import { hasWriteErrors } from "./results.ts";
 * hasWriteErrors({}); // false
 * hasWriteErrors({ title: "Too long" }); // true
 * ```
 */
export function hasWriteErrors(errors: WriteErrors): boolean {
  for (const _ in errors) return true;
  return false;
}

/**
 * Notes the stable code of the refusal at `path` of `errors` (a message key such as
 * `required`; anything that is not one is `invalid`).
 *
 * @example
 * ```ts
 * import { errorCodes, noteErrorCode } from "./results.ts";
 * const errors = { title: "This field is required" };
 * noteErrorCode(errors, "title", "required");
 * errorCodes(errors); // { title: "required" }
 * ```
 */
export function noteErrorCode(
  errors: WriteErrors,
  path: string,
  code: string,
): void {
  let codes = CODES.get(errors);
  if (!codes) CODES.set(errors, codes = {});
  codes[path] = CODE.test(code) ? code : "invalid";
}

/**
 * The stable code of each refusal in `errors` (field path → code, as `data.codes` of a 422
 * answers it); a refusal whose code was never noted is `invalid`.
 *
 * @example
 * ```ts
 * import { errorCodes } from "./results.ts";
 * errorCodes({ title: "Too long" }); // { title: "invalid" }
 * ```
 */
export function errorCodes(errors: WriteErrors): Record<string, string> {
  const noted = CODES.get(errors) ?? {};
  const out: Record<string, string> = {};
  for (const path of Object.keys(errors)) out[path] = noted[path] ?? "invalid";
  return out;
}
