/**
 * Storing one uploaded file: its bytes stream to storage while they arrive, hashed on the
 * way, cut off with 413 the moment they pass the field's `maxSize`, typed by sniffing their
 * first bytes (a claim the bytes contradict, or a type the field does not accept, is 422
 * `invalidFileType`), and measured if they are an image (over `uploads.maxImagePixels`: 422
 * `imageTooLarge`). Then an unattached row goes into `_strata_files`. A refused upload leaves
 * nothing behind.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { ResolvedField } from "../collections/resolve.ts";
import { acceptsType, fileMaxSize } from "../collections/types/file.ts";
import { type FileRow, FILES_TABLE } from "../collections/files/table.ts";
import { HTTPError, payloadTooLarge } from "../router/errors.ts";
import type { StorageDriver } from "./storage/driver.ts";
import { passThrough } from "./_pass_through.ts";
import {
  claimConflicts,
  imageSize,
  JpegSizeScanner,
  sanitizeFileName,
  SNIFF_BYTES,
  sniffType,
  storedType,
} from "./sniff.ts";

/** Bytes gathered before the type is decided (and the upload refused early if it must be). */
const TYPE_BYTES = 4096;

/** A refusal of one file: the field, its stable code and the message parameters. */
export class FileRefusal extends Error {
  /** The field the file was for. */
  readonly field: string;
  /** `invalidFileType` or `imageTooLarge`. */
  readonly code: string;
  /** Parameters of the message. */
  readonly params: Record<string, unknown>;

  /** Creates the refusal. */
  constructor(
    field: string,
    code: string,
    params: Record<string, unknown> = {},
  ) {
    super(`File refused: ${code}`);
    this.field = field;
    this.code = code;
    this.params = params;
  }
}

/** One file to store. */
export interface Upload {
  /** The bytes. */
  readonly stream: ReadableStream<Uint8Array>;
  /** The client's file name. */
  readonly filename: string | null;
  /** The client's claimed type (`Content-Type` of the part). */
  readonly contentType: string | null;
}

/** What a file is stored for. */
export interface UploadTarget {
  /** The `file` / `files` field. */
  readonly field: ResolvedField;
  /** The signed-in uploader, or `null`. */
  readonly uploader: string | null;
}

/** What storing needs. */
export interface StoreContext {
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  readonly storage: StorageDriver;
  readonly maxImagePixels: number;
  readonly now: () => number;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, size - at), at);
    at += chunk.byteLength;
    if (at >= size) break;
  }
  return out;
}

/**
 * The storage key of a new file: beside the others of its two-character prefix, not in a
 * folder of its own (a folder per file cost a mkdir and a second folder fsync per upload).
 * Files stored before keep the key their row holds (`files/<xx>/<uuid>/original`).
 *
 * @example
 * ```ts
 * import { fileKey } from "./store.ts";
 * fileKey("0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a"); // "files/0b/0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a"
 * ```
 */
export function fileKey(uuid: string): string {
  return `files/${uuid.slice(0, 2)}/${uuid}`;
}

/**
 * The storage key of a variant of the file stored under `key`: beside it, in either layout
 * (a key ending in `/original` is a file of the older folder-per-file layout).
 *
 * @example
 * ```ts
 * import { variantKey } from "./store.ts";
 * variantKey("files/0b/0b6f", 320, "webp"); // "files/0b/0b6f.w320.webp"
 * variantKey("files/0b/0b6f/original", 320, "webp"); // "files/0b/0b6f/w320.webp"
 * ```
 */
export function variantKey(key: string, width: number, format: string): string {
  const name = `w${width}.${format}`;
  return key.endsWith("/original")
    ? `${key.slice(0, -"original".length)}${name}`
    : `${key}.${name}`;
}

/**
 * Stores one upload for `target` and inserts its unattached row (see the module
 * documentation); throws a 413 `HTTPError` or a {@link FileRefusal}.
 *
 * @example
 * ```ts ignore
 * const row = await storeUpload(store, upload, { field, uploader: null });
 * ```
 */
export async function storeUpload(
  ctx: StoreContext,
  upload: Upload,
  target: UploadTarget,
): Promise<FileRow> {
  const { field } = target;
  const maxSize = fileMaxSize(field.options);
  const name = sanitizeFileName(upload.filename);
  const uuid = crypto.randomUUID();
  const key = fileKey(uuid);
  const hash = createHash("sha256");
  const head: Uint8Array[] = [];
  let headSize = 0;
  let size = 0;
  let type: string | null = null;
  let refusal: Error | null = null;
  const decide = () => {
    const bytes = concat(head, Math.min(headSize, TYPE_BYTES));
    const sniffed = sniffType(bytes);
    type = storedType(sniffed, upload.contentType);
    if (
      claimConflicts(sniffed, name, upload.contentType) ||
      !acceptsType(field.options, type)
    ) {
      throw refusal = new FileRefusal(field.name, "invalidFileType");
    }
  };
  // A JPEG may say its size after megabytes of metadata: scanned as it streams, not buffered.
  const jpeg = new JpegSizeScanner();
  const checkPixels = (final: boolean) => {
    if (type === null || !type.startsWith("image/")) return null;
    const dims = type === "image/jpeg"
      ? jpeg.size
      : imageSize(type, concat(head, Math.min(headSize, SNIFF_BYTES)));
    if (dims && dims.width * dims.height > ctx.maxImagePixels) {
      throw refusal = new FileRefusal(field.name, "imageTooLarge", {
        max: ctx.maxImagePixels,
      });
    }
    if (!dims && final && type !== "image/svg+xml") return null;
    return dims;
  };
  let pixelsChecked = false;
  const metered = passThrough(upload.stream, {
    chunk(chunk) {
      size += chunk.byteLength;
      if (size > maxSize) {
        throw refusal = payloadTooLarge(
          `The file is larger than ${maxSize} bytes`,
          undefined,
          { messageKey: "errors.payloadTooLarge" },
        );
      }
      hash.update(chunk);
      if (!jpeg.done) jpeg.feed(chunk);
      const grows = headSize < SNIFF_BYTES;
      if (grows) {
        head.push(chunk.slice(0, SNIFF_BYTES - headSize));
        headSize += Math.min(chunk.byteLength, SNIFF_BYTES - headSize);
        if (type === null && headSize >= TYPE_BYTES) decide();
      }
      if (
        type !== null && !pixelsChecked && headSize >= 64 &&
        (grows || type === "image/jpeg")
      ) {
        // PNG, GIF and WebP say their size up front, a JPEG when its frame header arrives: a
        // bomb is refused before it is stored.
        pixelsChecked = checkPixels(false) !== null;
      }
    },
    end() {
      if (type === null) decide();
    },
  });
  try {
    await ctx.storage.put(key, metered, {
      type: "application/octet-stream",
    });
  } catch (error) {
    throw refusal ?? error;
  }
  let dims: { width: number; height: number } | null = null;
  try {
    dims = checkPixels(true);
  } catch (error) {
    await ctx.storage.delete(key);
    throw error;
  }
  const row: FileRow = {
    UUID: uuid,
    key,
    name,
    type: type!,
    size,
    sha256: hash.digest("hex"),
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    private: field.options.private === true,
    collection: field.collection,
    field: field.name,
    record: null,
    state: "pending",
    uploader: target.uploader,
    createdAt: ctx.now(),
    claimedAt: null,
    variants: [],
  };
  try {
    await ctx.db.insertInto(FILES_TABLE).values({
      ...row,
      private: row.private ? 1 : 0,
      variants: "[]",
    }).execute();
  } catch (error) {
    await ctx.storage.delete(key).catch(() => {});
    throw error;
  }
  return row;
}

/**
 * Whether `error` is what {@link storeUpload} refuses with (413 or a file refusal).
 *
 * @example
 * ```ts ignore
 * if (isUploadRefusal(error)) throw error;
 * ```
 */
export function isUploadRefusal(error: unknown): boolean {
  return error instanceof FileRefusal ||
    (error instanceof HTTPError && error.status === 413);
}
