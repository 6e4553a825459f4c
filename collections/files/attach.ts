/**
 * Writes of `file` / `files` values. A UUID may be written when it is the field's current
 * value, or an unattached upload for this collection and field made by the caller (a signed-in
 * user's earlier `POST /files`, or a file part of this very request). After the row is
 * written the new files are attached to it and the ones its value no longer holds are
 * detached, in the write's transaction; the sweeper deletes detached files.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { LayerContext } from "../_context.ts";
import type { ResolvedCollection, ResolvedField } from "../resolve.ts";
import { noteErrorCode, type WriteErrors } from "../results.ts";
import type { ExistingRow } from "../uniques.ts";
import { Refusal } from "../_atomic.ts";
import { FILES_TABLE } from "./table.ts";

const freshUploads = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs `fn` with `uploads` (UUIDs of files stored by the current request) attachable by the
 * writes inside it, whoever the caller is: the multipart record write uses it.
 *
 * @example
 * ```ts ignore
 * await withUploads(new Set([uuid]), () => query("Posts").create({ cover: uuid }));
 * ```
 */
export function withUploads<T>(
  uploads: ReadonlySet<string>,
  fn: () => Promise<T>,
): Promise<T> {
  return freshUploads.run(uploads, fn);
}

function fileIds(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) {
    return value.filter((v): v is string => typeof v === "string");
  }
  return [];
}

/** A stored column value (JSON text on SQLite) as a list of UUIDs. */
function storedIds(field: ResolvedField, raw: unknown): string[] {
  if (raw === null || raw === undefined) return [];
  return fileIds(field.fromDb ? field.fromDb(raw) : raw);
}

/** The file fields among the values of a write. */
function fileValues(
  values: ReadonlyMap<ResolvedField, unknown>,
): [ResolvedField, string[]][] {
  const out: [ResolvedField, string[]][] = [];
  for (const [field, value] of values) {
    if (field.kind === "file" || field.kind === "files") {
      out.push([field, fileIds(value)]);
    }
  }
  return out;
}

/**
 * Refuses (`fileNotFound`) file UUIDs a write may not use; `rows` are the records an update
 * rewrites (`null` on create). An update of several records naming files in a file field is
 * refused with `fileOfOneRecord` (a file belongs to one record).
 *
 * @example
 * ```ts ignore
 * await checkFileValues(ctx, posts, values, null, errors);
 * ```
 */
export async function checkFileValues(
  ctx: LayerContext,
  values: ReadonlyMap<ResolvedField, unknown>,
  rows: readonly ExistingRow[] | null,
  errors: WriteErrors,
): Promise<void> {
  const fresh = freshUploads.getStore();
  const actor = ctx.actingUser()?.UUID ?? null;
  for (const [field, ids] of fileValues(values)) {
    if (ids.length === 0 || Object.hasOwn(errors, field.name)) continue;
    // One file belongs to one record field value: an update of several records may clear
    // a file field (null, []) but not name files in it, not even the ones a record holds.
    if (rows !== null && rows.length > 1) {
      errors[field.name] = ctx.render("fileOfOneRecord", {});
      noteErrorCode(errors, field.name, "fileOfOneRecord");
      continue;
    }
    const current = new Set(
      rows?.length === 1 ? storedIds(field, rows[0].values[field.name]) : [],
    );
    const wanted = ids.filter((id) => !current.has(id));
    if (wanted.length === 0) continue;
    const found = await ctx.executor().selectFrom(FILES_TABLE)
      .select(["UUID", "uploader"])
      .where("UUID", "in", wanted)
      .where("state", "=", "pending")
      .where("collection", "=", field.collection)
      .where("field", "=", field.name)
      .execute() as { UUID: string; uploader: string | null }[];
    const usable = new Set(
      found.filter((row) =>
        fresh?.has(row.UUID) ||
        (row.uploader !== null && row.uploader === actor)
      ).map((row) => row.UUID),
    );
    if (wanted.some((id) => !usable.has(id))) {
      errors[field.name] = ctx.render("fileNotFound", {});
      noteErrorCode(errors, field.name, "fileNotFound");
    }
  }
}

/**
 * Attaches the files a write's values name to `record` and detaches those its value no
 * longer holds; throws a refusal when a file was attached elsewhere meanwhile.
 *
 * @example
 * ```ts ignore
 * await attachFiles(ctx, posts, values, uuid);
 * ```
 */
export async function attachFiles(
  ctx: LayerContext,
  collection: ResolvedCollection,
  values: ReadonlyMap<ResolvedField, unknown>,
  record: string,
  created: boolean,
): Promise<void> {
  const executor = ctx.executor();
  for (const [field, ids] of fileValues(values)) {
    if (!created) {
      let detach = executor.updateTable(FILES_TABLE)
        .set({ state: "detached" })
        .where("record", "=", record)
        .where("collection", "=", collection.name)
        .where("field", "=", field.name)
        .where("state", "=", "attached");
      if (ids.length > 0) detach = detach.where("UUID", "not in", ids);
      await detach.execute();
    }
    if (ids.length === 0) continue;
    const result = await executor.updateTable(FILES_TABLE)
      .set({ state: "attached", record })
      .where("UUID", "in", ids)
      .where("state", "=", "pending")
      .where("collection", "=", collection.name)
      .where("field", "=", field.name)
      .executeTakeFirst();
    const attached = Number(result.numUpdatedRows);
    if (attached === ids.length) continue;
    // The rest must already be this record's (kept values); anything else was taken by a
    // concurrent write between the check and now.
    const kept = await executor.selectFrom(FILES_TABLE).select("UUID")
      .where("UUID", "in", ids)
      .where("record", "=", record)
      .where("state", "=", "attached")
      .execute();
    if (kept.length !== ids.length) {
      const errors = { [field.name]: ctx.render("fileNotFound", {}) };
      noteErrorCode(errors, field.name, "fileNotFound");
      throw new Refusal(errors);
    }
  }
}
