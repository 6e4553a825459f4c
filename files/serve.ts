/**
 * `GET /files/<uuid>/<name>`: streams a stored file with the headers that keep it safe on
 * the app's origin (`nosniff`, a sandboxing CSP, `attachment` for anything a browser could
 * run), its strong ETag (the SHA-256), 304 for a matching `If-None-Match`, 206 for a single
 * `Range`, and HEAD without touching the bytes. A private file needs a valid signature; a
 * missing, wrong or expired one is the same 404 as an unknown file.
 *
 * @module
 */

import { notFound } from "../router/errors.ts";
import type { StrataEvent } from "../router/event.ts";
import { isUuid } from "../collections/types/_checks.ts";
import type { FileRow } from "../collections/files/table.ts";
import type { ByteRange } from "./storage/driver.ts";
import type { FileService } from "./service.ts";
import { imageVariant } from "./variants.ts";

/** Types shown inline; everything else (SVG and HTML included) downloads. */
const INLINE: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "application/pdf",
  "text/plain",
]);

/** On every file response: an uploaded HTML or SVG file can never run script here. */
const CSP = "default-src 'none'; sandbox";

/**
 * The `Content-Disposition` of a file: `inline` for raster images, PDF and plain text,
 * `attachment` otherwise, with an ASCII fallback name and the UTF-8 one.
 *
 * @example
 * ```ts
 * import { contentDisposition } from "./serve.ts";
 * contentDisposition("text/html", "page.html"); // 'attachment; filename="page.html"; filename*=UTF-8\'\'page.html'
 * ```
 */
export function contentDisposition(type: string, name: string): string {
  const kind = INLINE.has(type) ? "inline" : "attachment";
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The single byte range a `Range` header asks for: `null` to send the whole file (no header,
 * several ranges, another unit), `"unsatisfiable"` for a range outside the file.
 *
 * @example
 * ```ts
 * import { parseRange } from "./serve.ts";
 * parseRange("bytes=0-99", 1000); // { start: 0, end: 99 }
 * parseRange("bytes=-100", 1000); // { start: 900, end: 999 }
 * parseRange("bytes=2000-", 1000); // "unsatisfiable"
 * ```
 */
export function parseRange(
  header: string | null,
  size: number,
): ByteRange | "unsatisfiable" | null {
  if (header === null) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

function etagMatches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) =>
    tag.trim().replace(/^W\//, "") === etag
  );
}

/** What is served: the original file or one of its variants. */
interface Served {
  readonly key: string;
  readonly type: string;
  readonly size: number;
  readonly etag: string;
}

/**
 * Answers `GET`/`HEAD /files/<uuid>/<name>` from `files`.
 *
 * @example
 * ```ts ignore
 * defineHandler((event) => serveFile(event, app.files!));
 * ```
 */
export async function serveFile(
  event: StrataEvent,
  files: FileService,
): Promise<Response> {
  const uuid = event.params.uuid?.toLowerCase();
  if (!isUuid(uuid)) throw notFound();
  const row = await files.row(uuid);
  if (!row || row.name !== event.params.name) throw notFound();
  const query = event.query;
  if (
    row.private &&
    !files.links.verify(row.UUID, query.get("exp"), query.get("sig"))
  ) {
    throw notFound();
  }
  const served = query.has("w") || query.has("format")
    ? await imageVariant(files, row, query.get("w"), query.get("format"))
    : original(row);
  const headers = new Headers({
    "Content-Type": served.type === "text/plain"
      ? "text/plain; charset=utf-8"
      : served.type,
    "ETag": served.etag,
    "Last-Modified": new Date(row.createdAt).toUTCString(),
    "Cache-Control": row.private
      ? "private, no-store"
      : "public, max-age=31536000, immutable",
    "Content-Disposition": contentDisposition(served.type, row.name),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": CSP,
    "Accept-Ranges": "bytes",
  });
  const request = event.request;
  if (etagMatches(request.headers.get("if-none-match"), served.etag)) {
    return new Response(null, { status: 304, headers });
  }
  let range = parseRange(request.headers.get("range"), served.size);
  const ifRange = request.headers.get("if-range");
  if (range !== null && ifRange !== null && ifRange.trim() !== served.etag) {
    range = null;
  }
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${served.size}`);
    headers.delete("Content-Type");
    return new Response(null, { status: 416, headers });
  }
  const length = range ? range.end - range.start + 1 : served.size;
  headers.set("Content-Length", String(length));
  if (range) {
    headers.set(
      "Content-Range",
      `bytes ${range.start}-${range.end}/${served.size}`,
    );
  }
  const status = range ? 206 : 200;
  if (event.method === "HEAD") return new Response(null, { status, headers });
  const body = await files.storage.get(served.key, range ?? undefined);
  if (body === null) throw notFound();
  return new Response(body, { status, headers });
}

function original(row: FileRow): Served {
  return {
    key: row.key,
    type: row.type,
    size: row.size,
    etag: `"${row.sha256}"`,
  };
}
