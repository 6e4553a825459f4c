/**
 * Image variants: `?w=320[&format=webp|avif|jpeg|png]` answers the image at that width (its
 * aspect ratio kept), made once with `sharp` (npm; loaded the first time a variant is asked
 * for) and kept in storage beside the original. A width outside `uploads.imageWidths` is
 * rounded up to the next allowed one (the largest when above them all), and never exceeds the
 * original's width, so no client can make the server generate unbounded variants.
 *
 * @module
 */

import { badRequest } from "../router/errors.ts";
import { type FileRow, FILES_TABLE } from "../collections/files/table.ts";
import type { FileService } from "./service.ts";
import { variantKey } from "./store.ts";
import { kyselyOf } from "../collections/database.ts";

/** Output formats of a variant. */
const FORMATS: Readonly<Record<string, string>> = {
  webp: "image/webp",
  avif: "image/avif",
  jpeg: "image/jpeg",
  png: "image/png",
};

/** Originals a variant can be made of, by type → default output format. */
const SOURCES: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "image/avif": "avif",
  "image/gif": "png",
};

/** What a variant request is answered with. */
export interface ServedVariant {
  /** Storage key. */
  readonly key: string;
  /** MIME type. */
  readonly type: string;
  /** Size in bytes. */
  readonly size: number;
  /** Strong ETag. */
  readonly etag: string;
}

// deno-lint-ignore no-explicit-any
type Sharp = (input: Uint8Array, options?: Record<string, unknown>) => any;

let sharpLoading: Promise<Sharp> | null = null;

/**
 * Loads `sharp` once, on first use (its native binary comes inside the npm package).
 *
 * @example
 * ```ts ignore
 * const sharp = await loadSharp();
 * ```
 */
export function loadSharp(): Promise<Sharp> {
  sharpLoading ??= import("sharp").then((module) =>
    (module.default ?? module) as unknown as Sharp
  ).catch((error) => {
    sharpLoading = null;
    throw new Error("Image variants need the npm package sharp", {
      cause: error,
    });
  });
  return sharpLoading;
}

/** Whether `sharp` has been loaded in this process (for tests of its laziness). */
export function sharpLoaded(): boolean {
  return sharpLoading !== null;
}

/**
 * The width a variant is made at: the next allowed width at or above `asked` (the largest
 * allowed when above them all), never above the original's.
 *
 * @example
 * ```ts
 * import { variantWidth } from "./variants.ts";
 * variantWidth(300, [64, 320, 640], 1000); // 320
 * variantWidth(5000, [64, 320, 640], 1000); // 640
 * variantWidth(600, [64, 320, 640], 500); // 500
 * ```
 */
export function variantWidth(
  asked: number,
  allowed: readonly number[],
  original: number,
): number {
  const width = allowed.find((w) => w >= asked) ?? allowed[allowed.length - 1];
  return Math.min(width, original);
}

const making = new Map<string, Promise<ServedVariant>>();

/**
 * The variant of image `row` that `w` and `format` ask for, made and stored on first use.
 *
 * @example
 * ```ts ignore
 * const variant = await imageVariant(files, row, "320", "webp");
 * ```
 */
export async function imageVariant(
  files: FileService,
  row: FileRow,
  w: string | null,
  format: string | null,
): Promise<ServedVariant> {
  const source = SOURCES[row.type];
  if (!source || row.width === null || row.height === null) {
    throw badRequest("Only raster images have variants", undefined, {
      messageKey: "errors.badRequest",
    });
  }
  const output = format ?? source;
  if (!Object.hasOwn(FORMATS, output)) {
    throw badRequest("format must be webp, avif, jpeg or png", undefined, {
      messageKey: "errors.badRequest",
    });
  }
  const asked = w === null ? row.width : Number(w);
  if (!Number.isSafeInteger(asked) || asked < 1) {
    throw badRequest("w must be a positive whole number", undefined, {
      messageKey: "errors.badRequest",
    });
  }
  const width = variantWidth(asked, files.config.imageWidths, row.width);
  const type = FORMATS[output];
  if (width === row.width && type === row.type) {
    return {
      key: row.key,
      type: row.type,
      size: row.size,
      etag: `"${row.sha256}"`,
    };
  }
  const key = variantKey(row.key, width, output);
  const etag = `"${row.sha256}-w${width}.${output}"`;
  const stat = await files.storage.stat(key);
  if (stat) return { key, type, size: stat.size, etag };
  let pending = making.get(key);
  if (!pending) {
    pending = makeVariant(files, row, key, width, output).then((size) => ({
      key,
      type,
      size,
      etag,
    })).finally(() => making.delete(key));
    making.set(key, pending);
  }
  return await pending;
}

async function makeVariant(
  files: FileService,
  row: FileRow,
  key: string,
  width: number,
  output: string,
): Promise<number> {
  const sharp = await loadSharp();
  const stream = await files.storage.get(row.key);
  if (stream === null) {
    throw new Error(`The file ${row.UUID} is missing in storage`);
  }
  const original = new Uint8Array(await new Response(stream).arrayBuffer());
  const bytes: Uint8Array = await sharp(original, {
    limitInputPixels: files.config.maxImagePixels,
  }).rotate().resize({ width, withoutEnlargement: true })
    .toFormat(output).toBuffer();
  await files.storage.put(key, ReadableStream.from([bytes]), {
    type: FORMATS[output],
  });
  await rememberVariant(files, row.UUID, key);
  return bytes.byteLength;
}

/** Adds `key` to the file's variant list (compare-and-set: concurrent makers both land). */
async function rememberVariant(
  files: FileService,
  uuid: string,
  key: string,
): Promise<void> {
  const db = kyselyOf(files.db);
  for (let attempt = 0; attempt < 10; attempt++) {
    const row = await db.selectFrom(FILES_TABLE).select("variants")
      .where("UUID", "=", uuid).executeTakeFirst();
    if (!row) return;
    const list: string[] = JSON.parse(row.variants as string);
    if (list.includes(key)) return;
    const result = await db.updateTable(FILES_TABLE)
      .set({ variants: JSON.stringify([...list, key]) })
      .where("UUID", "=", uuid).where("variants", "=", row.variants)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return;
  }
}
