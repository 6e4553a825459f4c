/**
 * Time-based one-time passwords (RFC 6238, on HOTP of RFC 4226) and the base32 secrets and
 * `otpauth://` URLs authenticator apps read.
 *
 * @module
 */
import { createHmac } from "node:crypto";

/** HMAC algorithms RFC 6238 names. */
export type TotpAlgorithm = "SHA1" | "SHA256" | "SHA512";

/** Options of {@link totpCode}. */
export interface TotpOptions {
  /** Digits of the code. Default 6. */
  readonly digits?: number;
  /** Seconds per step. Default 30. */
  readonly period?: number;
  /** Default `SHA1` (what authenticator apps expect). */
  readonly algorithm?: TotpAlgorithm;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * RFC 4648 base32 without padding.
 *
 * @example
 * ```ts
 * import { encodeBase32 } from "./totp.ts";
 * encodeBase32(new TextEncoder().encode("foobar")); // "MZXW6YTBOI"
 * ```
 */
export function encodeBase32(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes RFC 4648 base32 (case-insensitive, padding and spaces ignored); `null` when it
 * holds another character.
 *
 * @example
 * ```ts
 * import { decodeBase32 } from "./totp.ts";
 * new TextDecoder().decode(decodeBase32("mzxw6ytboi======")!); // "foobar"
 * ```
 */
export function decodeBase32(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) return null;
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/**
 * The HOTP code (RFC 4226) of `secret` at `counter`.
 *
 * @example
 * ```ts
 * import { hotpCode } from "./totp.ts";
 * hotpCode(new TextEncoder().encode("12345678901234567890"), 0); // "755224"
 * ```
 */
export function hotpCode(
  secret: Uint8Array,
  counter: number,
  digits = 6,
  algorithm: TotpAlgorithm = "SHA1",
): string {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const mac = createHmac(algorithm.toLowerCase(), secret).update(message)
    .digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) |
    (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/**
 * The time step of `timeMs` (epoch ms) for a period in seconds.
 *
 * @example
 * ```ts
 * import { totpStep } from "./totp.ts";
 * totpStep(59_000); // 1
 * ```
 */
export function totpStep(timeMs: number, period = 30): number {
  return Math.floor(timeMs / 1000 / period);
}

/**
 * The TOTP code (RFC 6238) of `secret` at `timeMs` (epoch ms).
 *
 * @example
 * ```ts
 * import { totpCode } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * totpCode(secret, 59_000, { digits: 8 }); // "94287082"
 * ```
 */
export function totpCode(
  secret: Uint8Array,
  timeMs: number,
  options: TotpOptions = {},
): string {
  return hotpCode(
    secret,
    totpStep(timeMs, options.period ?? 30),
    options.digits ?? 6,
    options.algorithm ?? "SHA1",
  );
}

/**
 * The step among `now`'s and its neighbours (±1) at which `code` is the 6-digit SHA-1 code of
 * `secret`, or `null`. Compares every candidate, so the time taken does not depend on which
 * one matched.
 *
 * @example
 * ```ts
 * import { matchTotp, totpCode } from "./totp.ts";
 * const secret = new TextEncoder().encode("12345678901234567890");
 * matchTotp(secret, totpCode(secret, 60_000), 89_000); // 2
 * ```
 */
export function matchTotp(
  secret: Uint8Array,
  code: string,
  now: number,
): number | null {
  const step = totpStep(now);
  let found: number | null = null;
  for (const candidate of [step - 1, step, step + 1]) {
    if (hotpCode(secret, candidate) === code && found === null) {
      found = candidate;
    }
  }
  return found;
}

/**
 * The `otpauth://totp/…` URL an authenticator app scans (as a QR code) to add `secret`.
 *
 * @example
 * ```ts
 * import { otpauthUrl } from "./totp.ts";
 * otpauthUrl("JBSWY3DPEHPK3PXP", "ada@example.com", "example.com");
 * // "otpauth://totp/example.com:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=example.com&algorithm=SHA1&digits=6&period=30"
 * ```
 */
export function otpauthUrl(
  secret: string,
  account: string,
  issuer: string,
): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: "6",
    period: "30",
  });
  return `otpauth://totp/${label}?${query}`;
}
