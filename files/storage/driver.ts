/**
 * The storage interface file fields are stored through. Strata ships two drivers: `fs`
 * (a folder; the default) and `s3` (any S3-compatible service). Keys are opaque strings of
 * `[a-z0-9/._-]`, chosen by Strata.
 *
 * @module
 */

/** What a driver is told about a file it stores. */
export interface StorageMeta {
  /** The MIME type of the bytes. */
  readonly type: string;
}

/** A stored object's size and modification time. */
export interface StorageStat {
  /** Size in bytes. */
  readonly size: number;
  /** Last modification, epoch ms. */
  readonly modified: number;
}

/** A byte range, both ends inclusive (as HTTP `Range` names it). */
export interface ByteRange {
  /** First byte. */
  readonly start: number;
  /** Last byte (inclusive). */
  readonly end: number;
}

/**
 * A storage driver. `put` consumes the stream and resolves once the object is durable under
 * `key`; if the stream errors, nothing is left under `key` and `put` rejects with the
 * stream's error. `get` answers `null` for a missing key.
 */
export interface StorageDriver {
  /** Stores `stream` under `key` (replacing what was there). */
  put(
    key: string,
    stream: ReadableStream<Uint8Array>,
    meta: StorageMeta,
  ): Promise<void>;
  /** The bytes under `key` (only `range` when given), or `null` when missing. */
  get(
    key: string,
    range?: ByteRange,
  ): Promise<ReadableStream<Uint8Array> | null>;
  /** Deletes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Size and modification time of `key`, or `null` when missing. */
  stat(key: string): Promise<StorageStat | null>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/**
 * Throws for a key a driver must not accept (only Strata's own key shapes pass: no `..`,
 * no absolute paths, nothing outside `[a-z0-9/._-]`).
 *
 * @example
 * ```ts
 * import { assertStorageKey } from "./driver.ts";
 * assertStorageKey("files/0b/0b6f.bin"); // passes
 * ```
 */
export function assertStorageKey(key: string): void {
  if (!KEY.test(key) || key.includes("..") || key.length > 512) {
    throw new Error(`Invalid storage key ${JSON.stringify(key)}`);
  }
}
