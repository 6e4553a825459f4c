/**
 * The files of an app: its storage driver, signed links, uploads and the sweeper, opened
 * once per app when any collection has a file field.
 *
 * @module
 */

import { isAbsolute, join } from "node:path";
import type { DataLayer } from "../collections/data_layer.ts";
import { hasFileFields } from "../collections/data_layer.ts";
import { type Database, kyselyOf } from "../collections/database.ts";
import {
  type FileRow,
  fileRowOf,
  FILES_TABLE,
} from "../collections/files/table.ts";
import type { ResolvedUploadsConfig } from "../app/config.ts";
import type { StorageDriver } from "./storage/driver.ts";
import { fsStorage } from "./storage/fs.ts";
import { s3Storage } from "./storage/s3.ts";
import { fileMaxSize } from "../collections/types/file.ts";
import type { FileLinks } from "./links.ts";
import { databaseSecret } from "./signing.ts";
import { storeUpload, type Upload, type UploadTarget } from "./store.ts";
import { startSweeper, type Sweeper } from "./sweeper.ts";
import { type MultipartWrite, readMultipartWrite } from "./record_write.ts";
import type { ResolvedCollection } from "../collections/resolve.ts";

/** The files of one app. */
export interface FileService {
  /** Where the bytes live. */
  readonly storage: StorageDriver;
  /** The database (`_strata_files`). */
  readonly db: Database;
  /** Links and their signatures. */
  readonly links: FileLinks;
  /** The `uploads` config. */
  readonly config: ResolvedUploadsConfig;
  /** Stores an upload and records it unattached (see `store.ts`). */
  store(upload: Upload, target: UploadTarget): Promise<FileRow>;
  /** Deletes files stored by a request whose write did not attach them. */
  discard(uuids: Iterable<string>): Promise<void>;
  /** Reads a multipart record write (see `record_write.ts`). */
  readWrite(
    request: Request,
    collection: ResolvedCollection,
    maxBodySize: number,
  ): Promise<MultipartWrite>;
  /** The row of a file, or `null`. */
  row(uuid: string): Promise<FileRow | null>;
  /** Runs a sweep now; answers how many files were deleted. */
  sweep(): Promise<number>;
  /** Stops the sweeper. */
  close(): Promise<void>;
}

/** What {@link openFileService} needs. */
export interface FileServiceOptions {
  /** The open data layer. */
  readonly data: DataLayer;
  /** The `uploads` config. */
  readonly config: ResolvedUploadsConfig;
  /** The app's root (an `fs` storage folder is relative to it). */
  readonly root: string;
  /** The links the data layer was opened with. */
  readonly links: FileLinks;
  /** The clock. */
  readonly now: () => number;
  /** A storage driver that replaces the configured one (tests, custom backends). */
  readonly storage?: StorageDriver;
  /** Renders a validation message key in the request's language. */
  readonly render: (key: string, params: Record<string, unknown>) => string;
}

/**
 * Whether the process runs in production (`STRATA_ENV=production`): then `uploads.secret`
 * must be set.
 */
function production(): boolean {
  try {
    return Deno.env.get("STRATA_ENV") === "production";
  } catch {
    return false;
  }
}

/**
 * The storage driver `config` names.
 *
 * @example
 * ```ts ignore
 * const storage = storageOf(config.uploads, "/srv/app");
 * ```
 */
export function storageOf(
  config: ResolvedUploadsConfig,
  root: string,
): StorageDriver {
  const storage = config.storage;
  if (storage.driver === "s3") return s3Storage(storage);
  const dir = storage.dir ?? ".data/uploads";
  return fsStorage(isAbsolute(dir) ? dir : join(root, dir));
}

/**
 * Opens the files of an app, or answers `null` when no collection has a file field.
 *
 * @example
 * ```ts ignore
 * const files = await openFileService({ data, config: config.uploads, root, links, now });
 * ```
 */
export async function openFileService(
  options: FileServiceOptions,
): Promise<FileService | null> {
  const { data, config, links, now } = options;
  if (!hasFileFields(data.collections.values())) return null;
  for (const collection of data.collections.values()) {
    for (const field of collection.fieldList) {
      if (field.kind !== "file" && field.kind !== "files") continue;
      if (fileMaxSize(field.options) > config.maxSize) {
        throw new Error(
          `${collection.name}.${field.name}: maxSize is above uploads.maxSize (${config.maxSize} bytes)`,
        );
      }
    }
  }
  if (config.secret === null && production()) {
    throw new Error(
      "uploads.secret must be set in production (STRATA_ENV=production): private file links are signed with it",
    );
  }
  const db = kyselyOf(data.db);
  links.setSecret(config.secret ?? await databaseSecret(db));
  const storage = options.storage ?? storageOf(config, options.root);
  const sweeper: Sweeper = startSweeper({
    db,
    dialect: data.dialect,
    storage,
    collections: data.collections,
    now,
    orphanTtl: config.orphanTtl,
  }, config.sweepInterval);
  const service: FileService = {
    storage,
    db: data.db,
    links,
    config,
    store: (upload, target) =>
      storeUpload(
        { db, storage, maxImagePixels: config.maxImagePixels, now },
        upload,
        target,
      ),
    readWrite: (request, collection, maxBodySize) =>
      readMultipartWrite(
        {
          store: service.store,
          discard: service.discard,
          render: options.render,
        },
        request,
        collection,
        maxBodySize,
      ),
    async discard(uuids) {
      const list = [...uuids];
      if (list.length === 0) return;
      const rows = await db.selectFrom(FILES_TABLE).select(["UUID", "key"])
        .where("UUID", "in", list).where("state", "=", "pending").execute();
      for (const row of rows) {
        await storage.delete(row.key as string);
        await db.deleteFrom(FILES_TABLE).where("UUID", "=", row.UUID)
          .where("state", "=", "pending").execute();
      }
    },
    async row(uuid) {
      const raw = await db.selectFrom(FILES_TABLE).selectAll()
        .where("UUID", "=", uuid).executeTakeFirst();
      return raw ? fileRowOf(raw as Record<string, unknown>) : null;
    },
    sweep: () => sweeper.sweep(),
    close: () => sweeper.close(),
  };
  return service;
}
