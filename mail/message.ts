/**
 * A mail as the app hands it to `sendMail`, and its checks: addresses a header cannot be
 * smuggled into, and sizes the outbox can hold.
 *
 * @module
 */

/** A mail to send. */
export interface MailMessage {
  /** One address or a list (at most 50). */
  to: string | readonly string[];
  /** The subject line (one line, at most 998 characters). */
  subject: string;
  /** The plain-text body (at most 1 MB). */
  text: string;
  /** An HTML body (at most 1 MB), sent beside the text. */
  html?: string;
}

/** Most recipients of one mail. */
export const MAX_RECIPIENTS = 50;
/** Largest text or HTML body, in characters. */
export const MAX_BODY = 1_000_000;

/** An address: one `@`, no spaces, no control characters, no header punctuation. */
const ADDRESS = /^[^\s@<>()[\]\\,;:"\p{Cc}]+@[^\s@<>()[\]\\,;:"\p{Cc}]+$/u;

/**
 * Whether `address` is a plain email address (`ada@example.com`), at most 254 characters.
 *
 * @example
 * ```ts
 * import { isMailAddress } from "@strata/strata";
 * isMailAddress("ada@example.com"); // true
 * isMailAddress("ada@example.com\r\nBcc: eve@example.com"); // false
 * ```
 */
export function isMailAddress(address: unknown): address is string {
  return typeof address === "string" && address.length <= 254 &&
    ADDRESS.test(address);
}

/**
 * The recipients of `message` as a list, after checking the message; throws a TypeError
 * naming what is wrong.
 *
 * @example
 * ```ts
 * import { checkMail } from "./message.ts";
 * checkMail({ to: "ada@example.com", subject: "Hi", text: "Hello" }); // ["ada@example.com"]
 * ```
 */
export function checkMail(message: MailMessage): string[] {
  if (typeof message !== "object" || message === null) {
    throw new TypeError("A mail must be an object with to, subject and text");
  }
  const to = typeof message.to === "string" ? [message.to] : message.to;
  if (!Array.isArray(to) || to.length === 0 || to.length > MAX_RECIPIENTS) {
    throw new TypeError(
      `A mail needs between 1 and ${MAX_RECIPIENTS} recipients`,
    );
  }
  for (const address of to) {
    if (!isMailAddress(address)) {
      throw new TypeError(`Not a mail address: ${JSON.stringify(address)}`);
    }
  }
  if (
    typeof message.subject !== "string" ||
    !/^[^\p{Cc}]{0,998}$/u.test(message.subject)
  ) {
    throw new TypeError(
      "A mail subject must be one line of at most 998 characters",
    );
  }
  for (const key of ["text", "html"] as const) {
    const body = message[key];
    if (key === "html" && body === undefined) continue;
    if (typeof body !== "string" || body.length > MAX_BODY) {
      throw new TypeError(
        `A mail ${key} body must be a string of at most ${MAX_BODY} characters`,
      );
    }
  }
  return [...to];
}
