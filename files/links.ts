/**
 * The URLs reads hand out for stored files: `<basePath>/files/<uuid>/<name>`, plus an
 * expiring signature for a private file.
 *
 * @module
 */

import type { FileUrls } from "../collections/data_layer.ts";
import type { FileRow } from "../collections/files/table.ts";
import { signFile, verifyFileSignature } from "./signing.ts";

/** Builds and checks file links; the secret is set once the database is open. */
export class FileLinks implements FileUrls {
  readonly #basePath: string;
  readonly #maxAge: number;
  readonly #now: () => number;
  #secret: string | null = null;

  /**
   * Links under `basePath`, signed ones valid for `maxAge` ms on the clock `now`.
   *
   * @example
   * ```ts
   * import { FileLinks } from "./links.ts";
   * const links = new FileLinks("", 3_600_000, Date.now);
   * links.setSecret("a-secret-of-some-length");
   * ```
   */
  constructor(basePath: string, maxAge: number, now: () => number) {
    this.#basePath = basePath;
    this.#maxAge = maxAge;
    this.#now = now;
  }

  /** Sets the signing secret. */
  setSecret(secret: string): void {
    this.#secret = secret;
  }

  /** The URL a read hands out for `row`. */
  urlOf(row: Pick<FileRow, "UUID" | "name" | "private">): string {
    const path = `${this.#basePath}/files/${row.UUID}/${
      encodeURIComponent(row.name)
    }`;
    if (!row.private) return path;
    const exp = Math.floor((this.#now() + this.#maxAge) / 1000);
    return `${path}?exp=${exp}&sig=${this.#sign(row.UUID, exp)}`;
  }

  /** Whether a request for private file `uuid` carries a valid, unexpired signature. */
  verify(uuid: string, exp: string | null, sig: string | null): boolean {
    if (this.#secret === null) return false;
    return verifyFileSignature(this.#secret, uuid, exp, sig, this.#now());
  }

  #sign(uuid: string, exp: number): string {
    if (this.#secret === null) {
      throw new Error("File links are signed before the secret is known");
    }
    return signFile(this.#secret, uuid, exp);
  }
}
