/**
 * File descriptors: what every read answers for a `file` / `files` value, the same in lists,
 * reads by UUID, populated records, `…/query` and realtime events:
 * `{ UUID, name, type, size, sha256, width?, height?, url }`. The `url` comes from the data
 * layer's `files.urlOf` (the app signs private files there).
 *
 * @module
 */

import type { LayerContext } from "../_context.ts";
import type { ResolvedField } from "../resolve.ts";
import type { DataRecord } from "../results.ts";
import { type FileRow, fileRowOf, FILES_TABLE } from "./table.ts";

/** A stored file as reads describe it. */
export interface FileDescriptor {
  /** The file's UUID (what a write gives to keep or attach it). */
  UUID: string;
  /** The client's file name (sanitised, never a path). */
  name: string;
  /** The sniffed MIME type. */
  type: string;
  /** Size in bytes. */
  size: number;
  /** Lower-case hex SHA-256. */
  sha256: string;
  /** Image width in pixels. */
  width?: number;
  /** Image height in pixels. */
  height?: number;
  /** Where to fetch it (signed and expiring for a private file). */
  url: string;
}

/**
 * The descriptor of a file row.
 *
 * @example
 * ```ts ignore
 * const descriptor = describeFile(row, "/files/…/a.png");
 * ```
 */
export function describeFile(row: FileRow, url: string): FileDescriptor {
  const descriptor: FileDescriptor = {
    UUID: row.UUID,
    name: row.name,
    type: row.type,
    size: row.size,
    sha256: row.sha256,
    url,
  };
  if (row.width !== null && row.height !== null) {
    descriptor.width = row.width;
    descriptor.height = row.height;
  }
  return descriptor;
}

/**
 * The URL of a file when the data layer was opened without `files` (public path, unsigned).
 *
 * @example
 * ```ts
 * import { plainFileUrl } from "./descriptors.ts";
 * plainFileUrl({ UUID: "f", name: "a b.png" }); // "/files/f/a%20b.png"
 * ```
 */
export function plainFileUrl(row: Pick<FileRow, "UUID" | "name">): string {
  return `/files/${row.UUID}/${encodeURIComponent(row.name)}`;
}

/**
 * Loads the rows of `ids` from `_strata_files` (in chunks).
 *
 * @example
 * ```ts ignore
 * const rows = await fileRows(ctx, [uuid]);
 * ```
 */
export async function fileRows(
  ctx: LayerContext,
  ids: Iterable<string>,
): Promise<Map<string, FileRow>> {
  const found = new Map<string, FileRow>();
  const list = [...new Set(ids)];
  for (let i = 0; i < list.length; i += 500) {
    const rows = await ctx.executor().selectFrom(FILES_TABLE).selectAll()
      .where("UUID", "in", list.slice(i, i + 500)).execute();
    for (const raw of rows) {
      const row = fileRowOf(raw as Record<string, unknown>);
      found.set(row.UUID, row);
    }
  }
  return found;
}

/**
 * Replaces the file UUIDs of `fields` in `records` by descriptors (a UUID whose file is gone
 * reads as `null`, or is dropped from a `files` list).
 *
 * @example
 * ```ts ignore
 * await describeFiles(ctx, records, plan.fileFields);
 * ```
 */
export async function describeFiles(
  ctx: LayerContext,
  records: readonly DataRecord[],
  fields: readonly ResolvedField[],
): Promise<void> {
  if (fields.length === 0 || records.length === 0) return;
  const ids: string[] = [];
  for (const record of records) {
    for (const field of fields) {
      const value = record[field.name];
      if (typeof value === "string") ids.push(value);
      else if (Array.isArray(value)) {
        for (const id of value) if (typeof id === "string") ids.push(id);
      }
    }
  }
  if (ids.length === 0) return;
  const rows = await fileRows(ctx, ids);
  const files = ctx.files;
  const urlOf = files ? (row: FileRow) => files.urlOf(row) : plainFileUrl;
  const describe = (id: unknown): FileDescriptor | null => {
    if (typeof id !== "string") return null;
    const row = rows.get(id);
    return row ? describeFile(row, urlOf(row)) : null;
  };
  for (const record of records) {
    for (const field of fields) {
      const value = record[field.name];
      if (typeof value === "string") record[field.name] = describe(value);
      else if (Array.isArray(value)) {
        record[field.name] = value.map(describe).filter((d) => d !== null);
      }
    }
  }
}
