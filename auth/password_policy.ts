/**
 * The password policy's list check: the 10,000 most common passwords are refused on every
 * password write (sign-up, reset, `PATCH /auth/me`, Users writes).
 *
 * @module
 */
import { COMMON_PASSWORDS } from "./_common_passwords.ts";

let common: Set<string> | undefined;

/**
 * Whether `password` (or its lowercase form) is one of the 10,000 most common passwords.
 *
 * @example
 * ```ts
 * import { isCommonPassword } from "./password_policy.ts";
 * isCommonPassword("password123"); // true
 * isCommonPassword("PassWord123"); // true
 * isCommonPassword("violet-anchor-47-tundra"); // false
 * ```
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(COMMON_PASSWORDS.split("\n"));
  return common.has(password) || common.has(password.toLowerCase());
}
