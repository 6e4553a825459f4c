/**
 * AWS Signature Version 4 for S3 requests, with plain payload signing (the payload's SHA-256
 * in `x-amz-content-sha256`; not aws-chunked).
 *
 * @module
 */

import { createHash, createHmac } from "node:crypto";

/** The credentials and region requests are signed with. */
export interface SigV4Credentials {
  /** The access key. */
  readonly accessKeyId: string;
  /** The secret key. */
  readonly secretAccessKey: string;
  /** The signing region. */
  readonly region: string;
}

/** A request to sign. */
export interface SigV4Request {
  /** HTTP method. */
  readonly method: string;
  /** The full URL (path already encoded as sent). */
  readonly url: URL;
  /** Headers to send besides the signing ones (names lower-case). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Hex SHA-256 of the payload. */
  readonly payloadHash: string;
}

/** Hex SHA-256 of the empty payload. */
export const EMPTY_HASH =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * Hex SHA-256 of `bytes`.
 *
 * @example
 * ```ts
 * import { EMPTY_HASH, sha256Hex } from "./sigv4.ts";
 * sha256Hex(new Uint8Array()) === EMPTY_HASH; // true
 * ```
 */
export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * RFC 3986 encoding as SigV4 wants it (unreserved characters kept).
 *
 * @example
 * ```ts
 * import { uriEncode } from "./sigv4.ts";
 * uriEncode("a b*"); // "a%20b%2A"
 * ```
 */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: string | Uint8Array, data: string): Uint8Array {
  return createHmac("sha256", key).update(data).digest();
}

/**
 * The headers that sign `request` at `now` (epoch ms): `x-amz-date`,
 * `x-amz-content-sha256` and `authorization`, merged over the request's own.
 *
 * @example
 * ```ts
 * import { EMPTY_HASH, signRequest } from "./sigv4.ts";
 * const headers = signRequest(
 *   { accessKeyId: "AKID", secretAccessKey: "secret", region: "us-east-1" },
 *   { method: "GET", url: new URL("http://127.0.0.1:9000/bucket/key"), payloadHash: EMPTY_HASH },
 *   Date.UTC(2026, 0, 1),
 * );
 * headers.authorization.startsWith("AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request"); // true
 * ```
 */
export function signRequest(
  credentials: SigV4Credentials,
  request: SigV4Request,
  now: number,
): Record<string, string> {
  const amzDate = new Date(now).toISOString().replace(/[-:]|\.\d{3}/g, "");
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...request.headers,
    host: request.url.host,
    "x-amz-date": amzDate,
    "x-amz-content-sha256": request.payloadHash,
  };
  const names = Object.keys(headers).map((n) => n.toLowerCase()).sort();
  const canonicalHeaders = names.map((name) =>
    `${name}:${String(headers[name]).trim().replace(/\s+/g, " ")}\n`
  ).join("");
  const signedHeaders = names.join(";");
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a, x], [b, y]) =>
      a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0
    )
    .map(([k, v]) => `${k}=${v}`).join("&");
  const canonical = [
    request.method,
    request.url.pathname,
    query,
    canonicalHeaders,
    signedHeaders,
    request.payloadHash,
  ].join("\n");
  const scope = `${day}/${credentials.region}/s3/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${
    sha256Hex(canonical)
  }`;
  const key = hmac(
    hmac(
      hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), credentials.region),
      "s3",
    ),
    "aws4_request",
  );
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  delete headers.host;
  headers.authorization =
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
