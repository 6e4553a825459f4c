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

/** Fills `part` from `reader`, keeping what overflows in `rest`; answers the bytes filled. */
async function fill(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  part: Uint8Array,
  rest: { bytes: Uint8Array | null; done: boolean },
): Promise<number> {
  let filled = 0;
  while (filled < part.length) {
    let chunk = rest.bytes;
    rest.bytes = null;
    if (chunk === null) {
      if (rest.done) break;
      const { done, value } = await reader.read();
      if (done) {
        rest.done = true;
        break;
      }
      chunk = value;
    }
    const take = Math.min(chunk.length, part.length - filled);
    part.set(chunk.subarray(0, take), filled);
    filled += take;
    if (take < chunk.length) rest.bytes = chunk.subarray(take);
  }
  return filled;
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
      const reader = stream.getReader();
      const rest = { bytes: null as Uint8Array | null, done: false };
      let part = new Uint8Array(PART_SIZE);
      let uploadId: string | null = null;
      try {
        let filled = await fill(reader, part, rest);
        const single = rest.done ||
          (rest.bytes === null && (await peek(reader, rest)));
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
          if (rest.done && rest.bytes === null) break;
          part = new Uint8Array(PART_SIZE);
          filled = await fill(reader, part, rest);
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
        await reader.cancel(error).catch(() => {});
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
async function peek(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  rest: { bytes: Uint8Array | null; done: boolean },
): Promise<boolean> {
  while (true) {
    const { done, value } = await reader.read();
    if (done) {
      rest.done = true;
      return true;
    }
    if (value.length > 0) {
      rest.bytes = value;
      return false;
    }
  }
}
