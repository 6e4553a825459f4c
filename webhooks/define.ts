/**
 * `defineWebhook`: a webhook is a file `webhooks/<name>.ts` default-exporting one; every
 * committed change it admits is POSTed, signed, to its URL (see docs/webhooks.md).
 *
 * @module
 */

import type { ChangeOp } from "../collections/changes/log.ts";

/** What {@link defineWebhook} takes. */
export interface WebhookOptions {
  /** Where deliveries are POSTed: an absolute `https:` URL (`http:` with `webhooks.allowInsecure`). */
  readonly url: string;
  /** Collection names, as defined (`Orders`); default every collection that produces events. */
  readonly collections?: readonly string[];
  /** Operations; default all three. */
  readonly ops?: readonly ChangeOp[];
  /** The signing secret (at least 16 characters), shared with the receiver. */
  readonly secret: string;
  /** Extra request headers (not `Content-Type`, `Host` or the `Strata-*` ones). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A webhook, as {@link defineWebhook} checked it. */
export interface WebhookDefinition {
  /** Brand telling a webhook apart from other values. */
  readonly kind: "webhook";
  /** The target URL. */
  readonly url: URL;
  /** Collection names, or `undefined` for all that produce events. */
  readonly collections: readonly string[] | undefined;
  /** Operations. */
  readonly ops: readonly ChangeOp[];
  /** The signing secret. */
  readonly secret: string;
  /** Extra request headers. */
  readonly headers: Readonly<Record<string, string>>;
}

const OPS: readonly ChangeOp[] = ["create", "update", "delete"];
const KEYS = ["url", "collections", "ops", "secret", "headers"];
// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED_HEADERS = new Set([
  "content-type",
  "content-length",
  "host",
  "connection",
  "transfer-encoding",
]);

function fail(message: string): never {
  throw new TypeError(`defineWebhook(): ${message}`);
}

function checkUrl(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    fail("url must be an absolute URL");
  }
  if (typeof value !== "string") fail("url must be an absolute URL");
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    fail("url must be an https: (or http:) URL");
  }
  if (url.username || url.password) {
    fail("url must not carry credentials (send them in headers)");
  }
  url.hash = "";
  return url;
}

function checkList<T extends string>(
  value: unknown,
  key: string,
  allowed?: readonly T[],
): readonly T[] | undefined {
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) || value.length === 0 ||
    value.some((v) =>
      typeof v !== "string" || (allowed && !allowed.includes(v as T))
    )
  ) {
    fail(
      `${key} must be a non-empty list of ${
        allowed ? allowed.join(", ") : "collection names"
      }`,
    );
  }
  return Object.freeze([...new Set(value as T[])]);
}

function checkHeaders(value: unknown): Readonly<Record<string, string>> {
  if (value === undefined) return Object.freeze({});
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail("headers must be an object of strings");
  }
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) fail(`header name "${name}" is not valid`);
    if (RESERVED_HEADERS.has(lower) || lower.startsWith("strata-")) {
      fail(`header "${name}" is set by Strata`);
    }
    if (typeof header !== "string" || /[\r\n\0]/.test(header)) {
      fail(`header "${name}" must be a string without line breaks`);
    }
    out[name] = header;
  }
  return Object.freeze(out);
}

/**
 * Declares a webhook: default-export it from `webhooks/<name>.ts` (the file name is the
 * webhook's name). Each committed change of the named collections is POSTed to `url` as
 * `{ id, collection, op, record, at }`, signed with `secret` (`Strata-Signature`), retried
 * with backoff until a 2xx answer or `webhooks.retryFor`.
 *
 * @example
 * ```ts
 * // webhooks/orders.ts
 * import { defineWebhook } from "@strata/strata";
 * export default defineWebhook({
 *   url: "https://example.com/hooks/orders",
 *   collections: ["Orders"],
 *   ops: ["create", "update"],
 *   secret: "a-long-random-secret-from-the-environment",
 * });
 * ```
 */
export function defineWebhook(options: WebhookOptions): WebhookDefinition {
  if (typeof options !== "object" || options === null) {
    fail("needs an options object");
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.includes(key)) fail(`unknown option "${key}"`);
  }
  if (typeof options.secret !== "string" || options.secret.length < 16) {
    fail("secret must be a string of at least 16 characters");
  }
  return Object.freeze({
    kind: "webhook" as const,
    url: checkUrl(options.url),
    collections: checkList(options.collections, "collections"),
    ops: checkList(options.ops, "ops", OPS) ?? OPS,
    secret: options.secret,
    headers: checkHeaders(options.headers),
  });
}

/**
 * Whether `value` was made by {@link defineWebhook}.
 *
 * @example
 * ```ts
 * import { defineWebhook, isWebhook } from "./define.ts";
 * isWebhook(defineWebhook({ url: "https://example.com/", secret: "0123456789abcdef" })); // true
 * ```
 */
export function isWebhook(value: unknown): value is WebhookDefinition {
  return typeof value === "object" && value !== null &&
    (value as WebhookDefinition).kind === "webhook";
}
