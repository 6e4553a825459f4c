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
