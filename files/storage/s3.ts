/**
 * The `s3` storage driver: any S3-compatible service through its REST API, signed with
 * SigV4 (plain payload signing). A file up to 8 MiB is one `PutObject`; a larger one is a
 * multipart upload of 8 MiB parts (so at most one part is held in memory), aborted when its
 * stream fails, so nothing is left under the key.
 *
 * @module
 */

import type { StorageConfig } from "../../app/config.ts";
import {
  assertStorageKey,
  type ByteRange,
  type StorageDriver,
  type StorageStat,
} from "./driver.ts";
import { EMPTY_HASH, sha256Hex, signRequest, uriEncode } from "./sigv4.ts";

/** Size of one part of a multipart upload (and the largest single `PutObject`). */
export const PART_SIZE = 8 * 1024 * 1024;

/** The `s3` storage settings. */
export type S3StorageConfig = Extract<StorageConfig, { driver: "s3" }>;

/** An S3 request that did not answer as expected. */
export class S3Error extends Error {
  /** The HTTP status. */
  readonly status: number;

  /** Creates the error. */
  constructor(status: number, message: string) {
    super(message);
    this.name = "S3Error";
    this.status = status;
  }
}

/** The stream a put reads, and what it read beyond the last part. */
interface Source {
  /** A byte stream's reader: it reads straight into the part's buffer. */
  readonly byob: ReadableStreamBYOBReader | null;
  /** Any other stream's reader. */
  readonly reader: ReadableStreamDefaultReader<Uint8Array> | null;
  /** Bytes read but not yet put in a part. */
  rest: Uint8Array | null;
  /** Whether the stream has ended. */
  done: boolean;
}

function sourceOf(stream: ReadableStream<Uint8Array>): Source {
  try {
    const byob = stream.getReader({ mode: "byob" });
    return { byob, reader: null, rest: null, done: false };
  } catch {
    return { byob: null, reader: stream.getReader(), rest: null, done: false };
  }
}

/**
 * Fills `part` from `source`, keeping what overflows in `source.rest`; answers the part (a
 * byte stream's read takes the buffer over and hands it back) and the bytes filled.
 */
async function fill(
  source: Source,
  part: Uint8Array,
): Promise<{ part: Uint8Array; filled: number }> {
  let filled = 0;
  while (filled < part.length) {
    let chunk = source.rest;
    source.rest = null;
    if (chunk === null) {
      if (source.done) break;
      if (source.byob) {
        const { done, value } = await source.byob.read(part.subarray(filled));
        if (value) part = new Uint8Array(value.buffer);
        if (done || !value) {
          source.done = true;
          break;
        }
        filled += value.byteLength;
        continue;
      }
      const { done, value } = await source.reader!.read();
      if (done) {
        source.done = true;
        break;
      }
      chunk = value;
    }
    const take = Math.min(chunk.length, part.length - filled);
    part.set(chunk.subarray(0, take), filled);
    filled += take;
    if (take < chunk.length) source.rest = chunk.subarray(take);
  }
  return { part, filled };
}

function xmlValue(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return match ? match[1] : null;
}

/**
 * A storage driver over an S3 bucket.
 *
 * @example
 * ```ts ignore
 * const storage = s3Storage({
 *   driver: "s3",
 *   bucket: "uploads",
 *   endpoint: "http://127.0.0.1:9000",
 *   region: "us-east-1",
 *   accessKeyId: "S3RVER",
 *   secretAccessKey: "S3RVER",
 * });
 * ```
 */
export function s3Storage(
  config: S3StorageConfig,
  now: () => number = Date.now,
): StorageDriver {
  const endpoint = new URL(config.endpoint);
  const pathStyle = config.forcePathStyle !== false;
  const credentials = {
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    region: config.region ?? "us-east-1",
  };
  const urlOf = (key: string, query: Record<string, string> = {}): URL => {
    assertStorageKey(key);
    const url = new URL(endpoint);
    const path = key.split("/").map(uriEncode).join("/");
    const base = endpoint.pathname.replace(/\/$/, "");
    if (pathStyle) url.pathname = `${base}/${uriEncode(config.bucket)}/${path}`;
    else {
      url.hostname = `${config.bucket}.${endpoint.hostname}`;
      url.pathname = `${base}/${path}`;
    }
    for (const [name, value] of Object.entries(query)) {
      url.searchParams.set(name, value);
    }
    return url;
  };
  const send = async (
    method: string,
    url: URL,
    body: Uint8Array | null,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    const payloadHash = body ? sha256Hex(body) : EMPTY_HASH;
    const signed = signRequest(
      credentials,
      { method, url, headers, payloadHash },
      now(),
    );
    return await fetch(url, {
      method,
      headers: signed,
      body: body as BodyInit | null,
    });
  };
  const fail = async (response: Response, what: string): Promise<never> => {
    const text = await response.text().catch(() => "");
    throw new S3Error(
      response.status,
      `S3 ${what} answered ${response.status}: ${
        xmlValue(text, "Message") ?? xmlValue(text, "Code") ??
          text.slice(0, 200)
      }`,
    );
  };
  const expect = async (
    response: Response,
    what: string,
  ): Promise<Response> => {
    if (!response.ok) await fail(response, what);
    return response;
  };
  return {
    async put(key, stream, meta) {
      const source = sourceOf(stream);
      let uploadId: string | null = null;
      try {
        let { part, filled } = await fill(source, new Uint8Array(PART_SIZE));
        const single = source.done ||
          (source.rest === null && (await peek(source)));
        if (single) {
          await expect(
            await send("PUT", urlOf(key), part.subarray(0, filled), {
              "content-type": meta.type,
            }),
            "PutObject",
          ).then((r) => r.body?.cancel());
          return;
        }
        const created = await expect(
          await send("POST", urlOf(key, { uploads: "" }), null, {
            "content-type": meta.type,
          }),
          "CreateMultipartUpload",
        );
        uploadId = xmlValue(await created.text(), "UploadId");
        if (!uploadId) throw new S3Error(502, "S3 sent no UploadId");
        const etags: string[] = [];
        while (filled > 0) {
          const answer = await expect(
            await send(
              "PUT",
              urlOf(key, {
                partNumber: String(etags.length + 1),
                uploadId,
              }),
              part.subarray(0, filled),
            ),
            "UploadPart",
          );
          await answer.body?.cancel();
          etags.push(answer.headers.get("etag") ?? "");
          if (source.done && source.rest === null) break;
          ({ part, filled } = await fill(source, new Uint8Array(PART_SIZE)));
        }
        const xml = `<CompleteMultipartUpload>${
          etags.map((etag, i) =>
            `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`
          ).join("")
        }</CompleteMultipartUpload>`;
        const completed = await expect(
          await send(
            "POST",
            urlOf(key, { uploadId }),
            new TextEncoder().encode(xml),
            { "content-type": "application/xml" },
          ),
          "CompleteMultipartUpload",
        );
        // S3 may answer 200 with an error document.
        const text = await completed.text();
        if (text.includes("<Error>")) {
          throw new S3Error(
            502,
            `S3 CompleteMultipartUpload failed: ${xmlValue(text, "Message")}`,
          );
        }
      } catch (error) {
        await (source.byob ?? source.reader)!.cancel(error).catch(() => {});
        if (uploadId !== null) {
          await send("DELETE", urlOf(key, { uploadId }), null)
            .then((r) => r.body?.cancel()).catch(() => {});
        }
        throw error;
      }
    },
    async get(key, range?: ByteRange) {
      const headers: Record<string, string> = range
        ? { range: `bytes=${range.start}-${range.end}` }
        : {};
      const response = await send("GET", urlOf(key), null, headers);
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      await expect(response, "GetObject");
      return response.body ?? new ReadableStream({ start: (c) => c.close() });
    },
    async delete(key) {
      const response = await send("DELETE", urlOf(key), null);
      await response.body?.cancel();
      if (!response.ok && response.status !== 404) {
        throw new S3Error(
          response.status,
          `S3 DeleteObject answered ${response.status}`,
        );
      }
    },
    async stat(key): Promise<StorageStat | null> {
      const response = await send("HEAD", urlOf(key), null);
      await response.body?.cancel();
      if (response.status === 404) return null;
      if (!response.ok) {
        throw new S3Error(
          response.status,
          `S3 HeadObject answered ${response.status}`,
        );
      }
      const modified = response.headers.get("last-modified");
      return {
        size: Number(response.headers.get("content-length") ?? 0),
        modified: modified ? Date.parse(modified) : 0,
      };
    },
  };
}

/** Reads one more chunk to learn whether a full first part was the whole stream. */
async function peek(source: Source): Promise<boolean> {
  while (true) {
    const { done, value } = source.byob
      ? await source.byob.read(new Uint8Array(64 * 1024))
      : await source.reader!.read();
    if (done || !value) {
      source.done = true;
      return true;
    }
    if (value.length > 0) {
      source.rest = value;
      return false;
    }
  }
}
