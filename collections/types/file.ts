/**
 * `file` and `files`: a field holding one stored file, or an ordered list of them. The
 * column holds the file UUID(s); reads replace them by file descriptors (see
 * `collections/files/`). Whether a UUID may be written (an unattached upload of the caller
 * for this field, or the field's current value) is checked by the write against
 * `_strata_files`, not here.
 *
 * @module
 */

import type { FieldType } from "../field_types.ts";
import type { FieldOptions, Validator } from "../define.ts";
import { parseSize } from "../../router/limits.ts";
import {
  checkDistinct,
  isCount,
  issue,
  isUuid,
  normalizeUuid,
} from "./_checks.ts";

/** The `maxSize` of a file field without one: 10 MiB. */
export const DEFAULT_FILE_MAX_SIZE = 10 * 1024 * 1024;

/**
 * The largest file a field accepts, in bytes.
 *
 * @example
 * ```ts
 * import { fileMaxSize } from "./file.ts";
 * fileMaxSize({ maxSize: "1mb" }); // 1048576
 * fileMaxSize({}); // 10485760
 * ```
 */
export function fileMaxSize(options: Readonly<FieldOptions>): number {
  return options.maxSize === undefined
    ? DEFAULT_FILE_MAX_SIZE
    : parseSize(options.maxSize, "maxSize");
}

/**
 * Whether a (sniffed) MIME type passes a field's `accept` list (`image/*` globs allowed;
 * no list accepts everything).
 *
 * @example
 * ```ts
 * import { acceptsType } from "./file.ts";
 * acceptsType({ accept: ["image/*"] }, "image/png"); // true
 * acceptsType({ accept: ["image/*"] }, "application/pdf"); // false
 * ```
 */
export function acceptsType(
  options: Readonly<FieldOptions>,
  type: string,
): boolean {
  const accept = options.accept;
  if (accept === undefined || accept.length === 0) return true;
  const lower = type.toLowerCase();
  return accept.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith("/*") ? lower.startsWith(p.slice(0, -1)) : p === lower;
  });
}

const uuid: Validator = (value) =>
  isUuid(value) ? undefined : issue("invalidType");

const uuidList: Validator = (value) =>
  Array.isArray(value) && value.every(isUuid)
    ? undefined
    : issue("invalidType");

const fileCount: Validator = (value, ctx) => {
  const { min, max } = ctx.options;
  const count = (value as unknown[]).length;
  if (typeof min === "number" && count < min) {
    return issue("tooFewFiles", { min });
  }
  if (typeof max === "number" && count > max) {
    return issue("tooManyFiles", { max });
  }
  return undefined;
};

function checkFileOptions(
  options: Readonly<FieldOptions>,
  list: boolean,
): string | undefined {
  if (options.maxSize !== undefined) {
    try {
      const size = parseSize(options.maxSize, "maxSize");
      if (!(size >= 1) || !Number.isSafeInteger(size)) throw new Error();
    } catch {
      return '"maxSize" must be a positive size such as 10485760 or "10mb"';
    }
  }
  if (options.translatable) return "file fields cannot be translatable";
  if (options.unique || options.index) {
    return '"unique" and "index" do not apply to file fields';
  }
  if (!list && (options.min !== undefined || options.max !== undefined)) {
    return '"min" and "max" apply to files fields only';
  }
  if (!isCount(options.min)) {
    return '"min" must be a non-negative integer count';
  }
  if (!isCount(options.max)) {
    return '"max" must be a non-negative integer count';
  }
  if (
    "default" in options && options.default !== undefined &&
    options.default !== emptyList
  ) {
    return "file fields take no default";
  }
  return undefined;
}

/** The default of a `files` field: a fresh empty list. */
const emptyList = (): string[] => [];

const lowerList = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(normalizeUuid) : value;

/** The `file` field type: one stored file (its UUID in the column). */
export const fileType: FieldType = Object.freeze<FieldType>({
  name: "file",
  kind: "file",
  sanitizers: Object.freeze([normalizeUuid]),
  validators: Object.freeze([uuid]),
  checkOptions: (options) => checkFileOptions(options, false),
});

/** The `files` field type: an ordered list of stored files; defaults to `[]`. */
export const filesType: FieldType = Object.freeze<FieldType>({
  name: "files",
  kind: "files",
  sanitizers: Object.freeze([lowerList]),
  validators: Object.freeze([uuidList, checkDistinct, fileCount]),
  defaults: Object.freeze({ default: emptyList }),
  checkOptions: (options) => checkFileOptions(options, true),
});
