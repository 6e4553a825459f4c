/**
 * Password hashing with scrypt, random tokens and SHA-256 digests.
 *
 * Password hashes are self-describing strings
 * `scrypt$<cost>$<blockSize>$<parallelization>$<salt>$<key>` (base64url salt
 * of 16 bytes, derived key of 64 bytes), so a hash keeps verifying after the
 * configured cost is raised, and {@linkcode passwordNeedsRehash} tells when
 * to upgrade it. Derivation runs off the event loop, on hashing threads of lower
 * scheduling priority than it (Linux), so logins never take the CPU requests need;
 * where threads cannot start, on the asynchronous `node:crypto` scrypt.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@strata/strata/utils/crypto";
 *
 * const hash = await hashPassword("correct horse", { cost: 1024 });
 * console.log(await verifyPassword("correct horse", hash)); // true
 * console.log(await verifyPassword("wrong", hash)); // false
 * ```
 *
 * @module
 */

import { timingSafeEqual } from "node:crypto";
import { decodeBase64Url, encodeBase64Url } from "./_base64url.ts";
import { sha256Base64UrlNow } from "./_sha256.ts";
import { deriveKey } from "./_scrypt_threads.ts";
import {
  DEFAULT_PARAMS,
  maxmemFor,
  paramsProblem,
  type ScryptParams,
} from "./_password_params.ts";

/** scrypt parameters; every key is optional and defaults to 32768 / 8 / 1. */
export interface PasswordOptions {
  /** CPU/memory cost (scrypt `N`), a power of two of at least 2. Default 32768. */
  cost?: number;
  /** Block size (scrypt `r`). Default 8. */
  blockSize?: number;
  /** Parallelization (scrypt `p`). Default 1. */
  parallelization?: number;
}

const PREFIX = "scrypt";
const SALT_BYTES = 16;
const KEY_BYTES = 64;
const MIN_SALT_BYTES = 8;
const MAX_SALT_BYTES = 64;
// Generous for the longest valid hash (~ 6 + 3 * 9 + 86 + 86 characters).
const MAX_HASH_LENGTH = 512;
const INTEGER = /^[1-9][0-9]{0,8}$/;

/**
 * Validates scrypt options and fills in the defaults. The cost must be a
 * power of two of at least 2; absurd parameters (that would take more than
 * 256 MiB or 32 times the default work) are refused too. The error message
 * names the offending key under `keyPrefix`.
 *
 * @param options The options to check.
 * @param keyPrefix Configuration path used in error messages.
 * @returns The options with every key present.
 * @throws {TypeError} When a value is not a positive integer.
 * @throws {RangeError} When a value is out of range or the cost is not a power of two.
 *
 * @example
 * ```ts
 * import { assertPasswordOptions } from "@strata/strata/utils/crypto";
 *
 * assertPasswordOptions({ cost: 16384 }); // { cost: 16384, blockSize: 8, parallelization: 1 }
 * try {
 *   assertPasswordOptions({ cost: 1000 });
 * } catch (error) {
 *   console.log((error as Error).message); // "auth.password.cost must be a power of two"
 * }
 * ```
 */
export function assertPasswordOptions(
  options: PasswordOptions,
  keyPrefix = "auth.password",
): Required<PasswordOptions> {
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${keyPrefix} must be an object`);
  }
  const params: ScryptParams = {
    cost: options.cost ?? DEFAULT_PARAMS.cost,
    blockSize: options.blockSize ?? DEFAULT_PARAMS.blockSize,
    parallelization: options.parallelization ?? DEFAULT_PARAMS.parallelization,
  };
  const problem = paramsProblem(params);
  if (problem) {
    const [key, reason] = problem;
    const message = `${keyPrefix}.${key} ${reason}`;
    throw reason === "must be an integer"
      ? new TypeError(message)
      : new RangeError(message);
  }
  return params;
}

function derive(
  password: string,
  salt: Uint8Array,
  params: ScryptParams,
): Promise<Uint8Array> {
  return deriveKey({
    password,
    salt,
    length: KEY_BYTES,
    cost: params.cost,
    blockSize: params.blockSize,
    parallelization: params.parallelization,
    maxmem: maxmemFor(params),
  });
}

interface ParsedHash {
  params: ScryptParams;
  salt: Uint8Array;
  key: Uint8Array;
}

function parseHash(hash: unknown): ParsedHash | null {
  if (typeof hash !== "string" || hash.length > MAX_HASH_LENGTH) return null;
  const parts = hash.split("$");
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const numbers = parts.slice(1, 4);
  if (!numbers.every((part) => INTEGER.test(part))) return null;
  const [cost, blockSize, parallelization] = numbers.map(Number);
  const params = { cost, blockSize, parallelization };
  if (paramsProblem(params)) return null;
  const salt = decodeBase64Url(parts[4]);
  const key = decodeBase64Url(parts[5]);
  if (
    !salt || salt.length < MIN_SALT_BYTES || salt.length > MAX_SALT_BYTES ||
    !key || key.length !== KEY_BYTES
  ) {
    return null;
  }
  return { params, salt, key };
}

/**
 * Hashes a password with scrypt and a fresh 16-byte salt.
 *
 * @param password The plain-text password.
 * @param options scrypt parameters (default 32768 / 8 / 1).
 * @returns `scrypt$<cost>$<blockSize>$<parallelization>$<salt>$<key>`.
 * @throws {TypeError | RangeError} When the options are invalid.
 *
 * @example
 * ```ts
 * import { hashPassword } from "@strata/strata/utils/crypto";
 *
 * const hash = await hashPassword("s3cret", { cost: 1024 });
 * console.log(hash.startsWith("scrypt$1024$8$1$")); // true
 * ```
 */
export async function hashPassword(
  password: string,
  options: PasswordOptions = {},
): Promise<string> {
  if (typeof password !== "string") {
    throw new TypeError("Password must be a string");
  }
  const params = assertPasswordOptions(options);
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const key = await derive(password, salt, params);
  return [
    PREFIX,
    params.cost,
    params.blockSize,
    params.parallelization,
    encodeBase64Url(salt),
    encodeBase64Url(key),
  ].join("$");
}

/**
 * Checks a password against a hash made by {@linkcode hashPassword}, using
 * the parameters stored in the hash and a constant-time comparison. A
 * malformed or unsupported hash verifies as `false`; this never throws.
 *
 * @param password The plain-text password to check.
 * @param hash The stored hash string.
 * @returns Whether the password matches.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@strata/strata/utils/crypto";
 *
 * const hash = await hashPassword("s3cret", { cost: 1024 });
 * console.log(await verifyPassword("s3cret", hash)); // true
 * console.log(await verifyPassword("s3cret", "not a hash")); // false
 * ```
 */
export async function verifyPassword(
  password: string,
  hash: string,
): Promise<boolean> {
  if (typeof password !== "string") return false;
  const parsed = parseHash(hash);
  if (!parsed) return false;
  let key: Uint8Array;
  try {
    key = await derive(password, parsed.salt, parsed.params);
  } catch {
    return false;
  }
  return timingSafeEqual(key, parsed.key);
}

/**
 * Whether a stored hash was made with parameters other than `options` (or is
 * not a hash this module can read), so it should be replaced by a fresh
 * {@linkcode hashPassword} after the next successful verification.
 *
 * @param hash The stored hash string.
 * @param options The current parameters (default 32768 / 8 / 1).
 * @returns `true` when any parameter differs, the salt is not 16 bytes, or
 * the hash is malformed.
 * @throws {TypeError | RangeError} When the options are invalid.
 *
 * @example
 * ```ts
 * import { hashPassword, passwordNeedsRehash } from "@strata/strata/utils/crypto";
 *
 * const hash = await hashPassword("s3cret", { cost: 1024 });
 * console.log(passwordNeedsRehash(hash, { cost: 1024 })); // false
 * console.log(passwordNeedsRehash(hash, { cost: 2048 })); // true
 * ```
 */
export function passwordNeedsRehash(
  hash: string,
  options: PasswordOptions = {},
): boolean {
  const params = assertPasswordOptions(options);
  const parsed = parseHash(hash);
  if (!parsed) return true;
  return parsed.params.cost !== params.cost ||
    parsed.params.blockSize !== params.blockSize ||
    parsed.params.parallelization !== params.parallelization ||
    parsed.salt.length !== SALT_BYTES;
}

const dummyHashes = new Map<string, Promise<string>>();

function dummyHash(params: Required<PasswordOptions>): Promise<string> {
  const id = `${params.cost}$${params.blockSize}$${params.parallelization}`;
  let hash = dummyHashes.get(id);
  if (!hash) {
    hash = hashPassword(randomToken(), params);
    // A failed derivation must not poison every later call.
    hash.catch(() => dummyHashes.delete(id));
    dummyHashes.set(id, hash);
  }
  return hash;
}

/**
 * Spends the time of one real password verification without checking
 * anything, for the no-such-user path of a login, so response timing does not
 * reveal which accounts exist. The hash it verifies against is made once per
 * parameter set, on first use.
 *
 * @param options The parameters real hashes use (default 32768 / 8 / 1).
 * @throws {TypeError | RangeError} When the options are invalid.
 *
 * @example
 * ```ts
 * import { dummyVerify, verifyPassword } from "@strata/strata/utils/crypto";
 *
 * async function login(password: string, storedHash: string | undefined) {
 *   if (storedHash === undefined) {
 *     await dummyVerify({ cost: 1024 });
 *     return false;
 *   }
 *   return await verifyPassword(password, storedHash);
 * }
 * console.log(await login("pw", undefined)); // false
 * ```
 */
export async function dummyVerify(
  options: PasswordOptions = {},
): Promise<void> {
  const params = assertPasswordOptions(options);
  const hash = await dummyHash(params);
  await verifyPassword("dummy password that never matches", hash);
}

/**
 * A random token: base64url (unpadded) of `bytes` random bytes.
 *
 * @param bytes How many random bytes, 1 to 65536. Default 32.
 * @returns 43 characters for the default 32 bytes.
 * @throws {RangeError} When `bytes` is out of range.
 *
 * @example
 * ```ts
 * import { randomToken } from "@strata/strata/utils/crypto";
 *
 * const token = randomToken();
 * console.log(token.length); // 43
 * ```
 */
export function randomToken(bytes = 32): string {
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > 65536) {
    throw new RangeError("Token size must be an integer from 1 to 65536");
  }
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * SHA-256 of the UTF-8 text, as unpadded base64url (43 characters). Used to
 * store session tokens without storing the tokens themselves.
 *
 * @param text The text to digest.
 * @returns The digest in base64url.
 *
 * @example
 * ```ts
 * import { sha256Base64Url } from "@strata/strata/utils/crypto";
 *
 * console.log(await sha256Base64Url("abc"));
 * // "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"
 * ```
 */
export function sha256Base64Url(text: string): Promise<string> {
  try {
    return Promise.resolve(sha256Base64UrlNow(text));
  } catch (error) {
    return Promise.reject(error);
  }
}
