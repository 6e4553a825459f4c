/**
 * `_strata_files`: one row per stored file — its storage key, metadata, the collection and
 * field it was uploaded for, and its owner record once attached. A record column holds file
 * UUIDs; this table says which record field value a file belongs to.
 *
 * States: `pending` (uploaded, not attached yet: `record` is null), `attached` (the value of
 * `collection.field` on `record`), `detached` (the value went away; the sweeper deletes it).
 *
 * @module
 */

import type { SqlDialect } from "../db/open_database.ts";
import type { WireCollection } from "../wire/types.ts";
import { resolveCollections, type ResolvedCollection } from "../resolve.ts";
import { builtinFieldTypes } from "../field_types.ts";
import { defineCollection, field } from "../define.ts";

/** The files table. */
export const FILES_TABLE = "_strata_files";

/** A file's state (see the module documentation). */
export type FileState = "pending" | "attached" | "detached";

/** One row of `_strata_files`. */
export interface FileRow {
  /** The file's UUID (what record columns hold). */
  UUID: string;
  /** Where the bytes live in storage. */
  key: string;
  /** The client's file name, sanitised. */
  name: string;
  /** The sniffed MIME type. */
  type: string;
  /** Size in bytes. */
  size: number;
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string;
  /** Image width in pixels, or null. */
  width: number | null;
  /** Image height in pixels, or null. */
  height: number | null;
  /** Served only through signed URLs. */
  private: boolean;
  /** The collection it was uploaded for. */
  collection: string;
  /** The field it was uploaded for. */
  field: string;
  /** The owner record once attached. */
  record: string | null;
  /** See {@link FileState}. */
  state: FileState;
  /** The signed-in user who uploaded it, or null. */
  uploader: string | null;
  /** Upload time, epoch ms. */
  createdAt: number;
  /** When a sweeper claimed it for deletion (epoch ms), or null. */
  claimedAt: number | null;
  /** Storage keys of the image variants made of it. */
  variants: string[];
}

/**
 * The statements creating `_strata_files` and its indexes when missing, run by schema sync
 * in its transaction (see `SyncOptions.ownTables`).
 *
 * @example
 * ```ts
 * import { filesTableStatements } from "./table.ts";
 * filesTableStatements("sqlite").length; // 3
 * ```
 */
export function filesTableStatements(dialect: SqlDialect): string[] {
  const big = dialect === "postgres" ? "bigint" : "integer";
  return [
    `create table if not exists "${FILES_TABLE}" ("UUID" text primary key, ` +
    `"key" text not null, "name" text not null, "type" text not null, ` +
    `"size" ${big} not null, "sha256" text not null, "width" integer, "height" integer, ` +
    `"private" integer not null, "collection" text not null, "field" text not null, ` +
    `"record" text, "state" text not null, "uploader" text, "createdAt" ${big} not null, ` +
    `"claimedAt" ${big}, "variants" text default '[]' not null)`,
    `create index if not exists "${FILES_TABLE}__owner__idx" on "${FILES_TABLE}" ("record", "collection", "field")`,
    `create index if not exists "${FILES_TABLE}__state__idx" on "${FILES_TABLE}" ("state", "createdAt")`,
  ];
}

/**
 * A row as the database hands it back, with its numbers and booleans normalised.
 *
 * @example
 * ```ts ignore
 * const row = fileRowOf(raw);
 * ```
 */
export function fileRowOf(raw: Record<string, unknown>): FileRow {
  const num = (v: unknown) => v === null || v === undefined ? null : Number(v);
  return {
    UUID: raw.UUID as string,
    key: raw.key as string,
    name: raw.name as string,
    type: raw.type as string,
    size: Number(raw.size),
    sha256: raw.sha256 as string,
    width: num(raw.width),
    height: num(raw.height),
    private: Boolean(Number(raw.private)),
    collection: raw.collection as string,
    field: raw.field as string,
    record: (raw.record ?? null) as string | null,
    state: raw.state as FileState,
    uploader: (raw.uploader ?? null) as string | null,
    createdAt: Number(raw.createdAt),
    claimedAt: num(raw.claimedAt),
    variants: JSON.parse((raw.variants as string | undefined) ?? "[]"),
  };
}

const METADATA_FIELDS = {
  name: field("text"),
  type: field("text"),
  size: field("integer"),
  sha256: field("text"),
  width: field("integer", { nullable: true }),
  height: field("integer", { nullable: true }),
};

const metadata = new Map<SqlDialect, ResolvedCollection>();

/**
 * The metadata of `_strata_files` as a collection, for the filters `has` takes on a file
 * field (`{ avatar: { has: { type: { startsWith: "image/" } } } }`).
 *
 * @example
 * ```ts ignore
 * fileMetadataCollection("sqlite").table; // "_strata_files"
 * ```
 */
export function fileMetadataCollection(
  dialect: SqlDialect,
): ResolvedCollection {
  let collection = metadata.get(dialect);
  if (!collection) {
    const resolved = resolveCollections(
      { StrataFiles: defineCollection({ fields: METADATA_FIELDS }) },
      builtinFieldTypes,
      dialect,
    ).get("StrataFiles")!;
    collection = { ...resolved, table: FILES_TABLE };
    metadata.set(dialect, collection);
  }
  return collection;
}

/** The file metadata as the wire grammar sees it (the target of `has` on a file field). */
export const FILE_WIRE_COLLECTION: WireCollection = Object.freeze({
  name: FILES_TABLE,
  fields: Object.freeze(
    Object.fromEntries(
      Object.entries(METADATA_FIELDS).map(([name, def]) => [name, {
        kind: def.type === "text" ? "text" as const : "integer" as const,
        nullable: (def as { nullable?: boolean }).nullable === true,
        readable: true,
        translatable: false,
      }]),
    ),
  ),
});
