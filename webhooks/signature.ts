/**
 * Webhook signatures, Stripe-style: `Strata-Signature: t=<unix seconds>,v1=<hex>`, where the
 * hex is the HMAC-SHA256 of `"<t>.<body>"` under the webhook's secret. The timestamp is signed
 * with the body, so a receiver that checks it refuses replays of old deliveries.
 *
 * @module
 */

import { timingSafeEqual } from "node:crypto";
import { type Duration, parseDuration } from "../router/limits.ts";
import type { StrataEvent } from "../router/event.ts";
import type { RequestEvent } from "../router/request_event.ts";

/** The header carrying the signature. */
export const SIGNATURE_HEADER = "Strata-Signature";
/** The header carrying the delivery's id (the change's seq). */
export const EVENT_ID_HEADER = "Strata-Event-Id";

/** The body of a delivery, as {@link verifyWebhook} answers it. */
export interface WebhookBody {
  /** The change's seq: order and deduplicate deliveries by it. */
  readonly id: number;
  /** The collection's name (`Orders`). */
  readonly collection: string;
  /** What happened. */
  readonly op: "create" | "update" | "delete";
  /** The record as the system reads it (a delete: its last stored state). */
  readonly record: Record<string, unknown> | null;
  /** When the change was committed (epoch ms). */
  readonly at: number;
}

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** How far the signature's time may be from now. Default `'5m'`. */
  readonly tolerance?: Duration;
}

const encoder = new TextEncoder();
// Anything larger is not a delivery (a record is bounded by the request limits that wrote it).
const MAX_BODY = 16 * 1024 * 1024;

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, encoder.encode(text)),
  );
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The `Strata-Signature` value of `body` signed at `time` (unix seconds).
 *
 * @example
 * ```ts
 * import { signWebhook } from "./signature.ts";
 * await signWebhook("0123456789abcdef", '{"id":1}', 1700000000); // "t=1700000000,v1=…"
 * ```
 */
export async function signWebhook(
  secret: string,
  body: string,
  time: number,
): Promise<string> {
  return `t=${time},v1=${await hmacHex(secret, `${time}.${body}`)}`;
}

function parseSignature(
  header: string,
): { time: number; signatures: string[] } | null {
  let time: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^\d{1,12}$/.test(value)) time = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) {
      signatures.push(value);
    }
  }
  return time === undefined || signatures.length === 0
    ? null
    : { time, signatures };
}

/** The body of `source` as text, or `null` when it cannot be read within the limit. */
async function bodyText(source: Request | StrataEvent): Promise<string | null> {
  if (!(source instanceof Request)) {
    // A Strata handler's request was read (under the route's size limit) before it ran.
    const bytes = await (source as RequestEvent).bufferBody();
    return bytes === null ? "" : new TextDecoder().decode(bytes);
  }
  if (source.bodyUsed) {
    throw new TypeError(
      "verifyWebhook(): the request body was already read (in a Strata handler, pass the event)",
    );
  }
  const length = Number(source.headers.get("content-length") ?? 0);
  if (length > MAX_BODY) return null;
  try {
    const text = await source.text();
    return text.length > MAX_BODY ? null : text;
  } catch {
    return null;
  }
}

/**
 * Checks a webhook delivery in a receiver: answers the parsed body when `Strata-Signature`
 * holds for `secret` and its time is within `tolerance` of now, else `null` (answer 400 then).
 * Pass the `Request` (any server), or in a Strata handler its event (Strata has read the
 * request's body by then, under the route's `maxBodySize`). It reads the body.
 *
 * @example
 * ```ts
 * // api/hooks/orders.post.ts in the receiving app
 * import { badRequest, defineHandler, verifyWebhook } from "@strata/strata";
 * export default defineHandler(async (event) => {
 *   const delivery = await verifyWebhook(event, Deno.env.get("ORDERS_SECRET") ?? "");
 *   if (!delivery) throw badRequest("Bad signature");
 *   console.log(delivery.id, delivery.op, delivery.record);
 *   return { ok: true };
 * });
 * ```
 */
export async function verifyWebhook(
  request: Request | StrataEvent,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookBody | null> {
  const tolerance = parseDuration(options.tolerance ?? "5m", "tolerance");
  const headers = request instanceof Request
    ? request.headers
    : request.request.headers;
  const header = headers.get(SIGNATURE_HEADER);
  const parsed = header === null ? null : parseSignature(header);
  if (!parsed || typeof secret !== "string" || secret === "") return null;
  if (Math.abs(Date.now() - parsed.time * 1000) > tolerance) return null;
  const body = await bodyText(request);
  if (body === null) return null;
  const expected = encoder.encode(
    await hmacHex(secret, `${parsed.time}.${body}`),
  );
  const matches = parsed.signatures.some((signature) =>
    timingSafeEqual(encoder.encode(signature), expected)
  );
  if (!matches) return null;
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}
