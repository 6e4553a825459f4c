/**
 * Content sniffing: a file's MIME type from its first bytes (never from what the client
 * claims), and the pixel size of raster images from their headers.
 *
 * @module
 */

/** How many leading bytes sniffing and image sizes look at. */
export const SNIFF_BYTES = 256 * 1024;

const ascii = (bytes: Uint8Array, at: number, text: string): boolean => {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) {
    if (bytes[at + i] !== text.charCodeAt(i)) return false;
  }
  return true;
};

const BRANDS: Readonly<Record<string, string>> = {
  avif: "image/avif",
  avis: "image/avif",
  heic: "image/heic",
  heix: "image/heic",
  mif1: "image/heif",
  isom: "video/mp4",
  iso2: "video/mp4",
  mp41: "video/mp4",
  mp42: "video/mp4",
  "M4A ": "audio/mp4",
  qt: "video/quicktime",
};

function isText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, Math.min(bytes.length, 8192));
  for (const b of sample) {
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b) || b === 0x7f) {
      return false;
    }
  }
  try {
    // A multi-byte character may be cut at the end of the sample.
    new TextDecoder("utf-8", { fatal: true }).decode(
      sample.length === 8192 ? sample.subarray(0, 8188) : sample,
    );
    return true;
  } catch {
    return sample.length === 8192;
  }
}

/** Markup that a browser would run: HTML documents and SVG. */
function markupType(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder().decode(bytes.subarray(0, 1024))
    .replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (
    /^<svg[\s>]/.test(head) ||
    (head.startsWith("<?xml") && head.includes("<svg"))
  ) {
    return "image/svg+xml";
  }
  if (
    /^<(!doctype html|html|head|body|script|iframe|title|style|a |div|p[\s>]|table|br|b[\s>]|h1|font)/
      .test(head) || head.startsWith("<!--")
  ) {
    return "text/html";
  }
  if (head.startsWith("<?xml")) return "application/xml";
  return undefined;
}

/**
 * The MIME type of a file from its first bytes: images, PDF, archives and media by their
 * signatures, SVG and HTML by their markup, other UTF-8 text as `text/plain`, and everything
 * else `application/octet-stream`.
 *
 * @example
 * ```ts
 * import { sniffType } from "./sniff.ts";
 * sniffType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])); // "image/png"
 * sniffType(new TextEncoder().encode("hello")); // "text/plain"
 * ```
 */
export function sniffType(bytes: Uint8Array): string {
  const b = bytes;
  if (b.length === 0) return "application/octet-stream";
  if (
    b.length >= 8 && b[0] === 0x89 && ascii(b, 1, "PNG\r\n\x1a\n")
  ) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    return "image/jpeg";
  }
  if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) return "image/gif";
  if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) return "image/webp";
  if (ascii(b, 4, "ftyp")) {
    const brand = new TextDecoder().decode(b.subarray(8, 12));
    return BRANDS[brand] ?? BRANDS[brand.trim()] ?? "application/octet-stream";
  }
  if (ascii(b, 0, "%PDF-")) return "application/pdf";
  if (b.length >= 4 && ascii(b, 0, "PK") && b[2] === 3 && b[3] === 4) {
    return "application/zip";
  }
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) {
    return "application/gzip";
  }
  if (ascii(b, 0, "BM")) return "image/bmp";
  if (ascii(b, 0, "II*\0") || ascii(b, 0, "MM\0*")) return "image/tiff";
  if (ascii(b, 0, "ID3") || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)) {
    return "audio/mpeg";
  }
  if (ascii(b, 0, "OggS")) return "audio/ogg";
  if (ascii(b, 0, "\x1aE\xdf\xa3")) return "video/webm";
  if (ascii(b, 0, "7z\xbc\xaf\x27\x1c")) return "application/x-7z-compressed";
  if (!isText(b)) return "application/octet-stream";
  return markupType(b) ?? "text/plain";
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  html: "text/html",
  htm: "text/html",
  txt: "text/plain",
  mp4: "video/mp4",
  bmp: "image/bmp",
  tif: "image/tiff",
  tiff: "image/tiff",
};

/** Types a signature identifies for sure: a claim of one of them must match the bytes. */
const SIGNED_TYPES: ReadonlySet<string> = new Set(Object.values(BY_EXTENSION));

/** Types a browser may run or render as a document: never taken from a client's claim. */
const ACTIVE = /\/(x?html|xml|css)$|\+xml$|script/;

/** Sniffed types so generic that a client's more specific claim may refine them. */
const GENERIC: ReadonlySet<string> = new Set([
  "application/zip",
  "application/octet-stream",
  "text/plain",
]);

function claimsOf(name: string, claimed: string | null): string[] {
  const dot = name.lastIndexOf(".");
  const byName = dot > 0
    ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()]
    : undefined;
  const type = claimed?.split(";")[0].trim().toLowerCase();
  return [byName, type].filter((claim): claim is string =>
    claim !== undefined && claim !== "" && claim !== "application/octet-stream"
  );
}

/**
 * Whether what a client claims of a file (its part's `Content-Type` and the extension of its
 * name) contradicts what its bytes are: a `.png` that is a zip, an `image/jpeg` that is HTML,
 * a "text" file that is markup. Claims sniffing cannot tell apart (`text/csv`, a `.docx`,
 * which is a zip) never conflict.
 *
 * @example
 * ```ts
 * import { claimConflicts } from "./sniff.ts";
 * claimConflicts("application/zip", "photo.png", "image/png"); // true
 * claimConflicts("image/png", "photo.png", "image/png"); // false
 * claimConflicts("application/zip", "cv.docx", null); // false
 * ```
 */
export function claimConflicts(
  sniffed: string,
  name: string,
  claimed: string | null,
): boolean {
  for (const claim of claimsOf(name, claimed)) {
    if (claim === sniffed) continue;
    // A signed type is recognised by its bytes: a claim of one must be what the bytes are.
    if (SIGNED_TYPES.has(claim)) return true;
    // Bytes a browser would run as a page are never anything else.
    if (sniffed === "text/html" || sniffed === "image/svg+xml") return true;
    // Text claimed as a binary signature-less format, or the other way round, is fine.
  }
  return false;
}

/**
 * The type a file is stored with: the sniffed one, refined by the client's claim only where
 * sniffing is generic (a zip, plain text, unknown bytes) and the claim is a specific type a
 * browser would not run (`.docx`, `text/csv`); HTML, SVG, XML, scripts and CSS are never
 * taken from a claim.
 *
 * @example
 * ```ts
 * import { storedType } from "./sniff.ts";
 * storedType("application/zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document");
 * // "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
 * storedType("text/plain", "application/javascript"); // "text/plain"
 * ```
 */
export function storedType(sniffed: string, claimed: string | null): string {
  if (!GENERIC.has(sniffed)) return sniffed;
  const type = claimed?.split(";")[0].trim().toLowerCase();
  if (
    type === undefined || type === "application/octet-stream" ||
    SIGNED_TYPES.has(type) || ACTIVE.test(type) ||
    !/^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*$/.test(type) ||
    type.length > 127
  ) {
    return sniffed;
  }
  // Plain text keeps a text claim only; a zip or unknown bytes keep a non-text one only.
  if ((sniffed === "text/plain") !== type.startsWith("text/")) return sniffed;
  return type;
}

/** A raster image's pixel size. */
export interface ImageSize {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
}

const u16be = (b: ArrayLike<number>, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) =>
  b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) =>
  ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);

/** Markers without a length: TEM, RST0..RST7 and SOI. */
function standalone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
}

/** SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC). */
function startOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 &&
    marker !== 0xc8 && marker !== 0xcc;
}

/**
 * Finds a JPEG's frame size (its SOF marker) in a stream, wherever the marker sits: segments
 * before it (APPn of any size, DQT, DHT, COM) are skipped by their lengths, not kept, so the
 * scan holds a few bytes whatever the file. It ends at the SOF, at the start of the entropy
 * coded data (SOS) or at bytes that are no marker.
 *
 * @example
 * ```ts
 * import { JpegSizeScanner } from "./sniff.ts";
 * const scanner = new JpegSizeScanner();
 * scanner.feed(new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0, 11, 8, 0, 120]));
 * scanner.feed(new Uint8Array([0, 160, 3]));
 * scanner.size; // { width: 160, height: 120 }
 * ```
 */
export class JpegSizeScanner {
  /** Bytes of the segment being skipped still to come. */
  #skip = 0;
  /** The marker header read so far (at most 9 bytes: FF, marker, length, SOF fields). */
  #header: number[] = [];
  #done = false;
  #size: ImageSize | null = null;

  /** Whether the scan has ended (with or without a size). */
  get done(): boolean {
    return this.#done;
  }

  /** The frame size once found, else `null`. */
  get size(): ImageSize | null {
    return this.#size;
  }

  /** Scans the next bytes of the file. */
  feed(chunk: Uint8Array): void {
    let at = 0;
    while (!this.#done && at < chunk.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.length - at);
        this.#skip -= n;
        at += n;
        continue;
      }
      const header = this.#header;
      header.push(chunk[at++]);
      if (header[0] !== 0xff) {
        this.#done = true;
      } else if (header.length === 2) {
        // A fill byte repeats FF; a marker without a length is whole already.
        if (header[1] === 0xff) header.pop();
        else if (standalone(header[1])) header.length = 0;
        else if (header[1] === 0xda || header[1] === 0xd9) this.#done = true;
      } else if (header.length === 4 && !startOfFrame(header[1])) {
        this.#skip = Math.max(0, u16be(header, 2) - 2);
        header.length = 0;
      } else if (header.length === 9) {
        this.#size = {
          height: u16be(header, 5),
          width: u16be(header, 7),
        };
        this.#done = true;
      }
    }
  }
}

function jpegSize(b: Uint8Array): ImageSize | null {
  const scanner = new JpegSizeScanner();
  scanner.feed(b);
  return scanner.size;
}

function isoBoxSize(b: Uint8Array): ImageSize | null {
  // The `ispe` property box of a HEIF/AVIF file: size, "ispe", version+flags, width, height.
  for (let at = 0; at + 20 <= b.length; at++) {
    if (ascii(b, at, "ispe")) {
      return { width: u32be(b, at + 8), height: u32be(b, at + 12) };
    }
  }
  return null;
}

/**
 * The pixel size of an image from its first bytes (PNG, JPEG, GIF, WebP, AVIF/HEIF, BMP), or
 * `null` when the header does not say.
 *
 * @example
 * ```ts
 * import { imageSize } from "./sniff.ts";
 * const gif = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 3, 0]);
 * imageSize("image/gif", gif); // { width: 2, height: 3 }
 * ```
 */
export function imageSize(type: string, b: Uint8Array): ImageSize | null {
  switch (type) {
    case "image/png":
      return b.length >= 24 && ascii(b, 12, "IHDR")
        ? { width: u32be(b, 16), height: u32be(b, 20) }
        : null;
    case "image/gif":
      return b.length >= 10
        ? { width: u16le(b, 6), height: u16le(b, 8) }
        : null;
    case "image/jpeg":
      return jpegSize(b);
    case "image/bmp":
      return b.length >= 26
        ? {
          width: Math.abs(
            new DataView(b.buffer, b.byteOffset).getInt32(18, true),
          ),
          height: Math.abs(
            new DataView(b.buffer, b.byteOffset).getInt32(22, true),
          ),
        }
        : null;
    case "image/webp": {
      if (b.length < 30) return null;
      if (ascii(b, 12, "VP8X")) {
        return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
      }
      if (ascii(b, 12, "VP8L")) {
        const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
        return {
          width: (bits & 0x3fff) + 1,
          height: ((bits >> 14) & 0x3fff) + 1,
        };
      }
      if (ascii(b, 12, "VP8 ")) {
        return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
      }
      return null;
    }
    case "image/avif":
    case "image/heic":
    case "image/heif":
      return isoBoxSize(b);
  }
  return null;
}

/**
 * A client's file name made safe to store and show: the last path segment, without control
 * characters, quotes or backslashes, at most 200 characters; `file` when nothing is left.
 *
 * @example
 * ```ts
 * import { sanitizeFileName } from "./sniff.ts";
 * sanitizeFileName("../../etc/passwd"); // "passwd"
 * sanitizeFileName('C:\\Users\\me\\"cv".pdf'); // "cv.pdf"
 * ```
 */
export function sanitizeFileName(name: string | null | undefined): string {
  const last = (name ?? "").split(/[\\/]/).pop() ?? "";
  // deno-lint-ignore no-control-regex
  const clean = last.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "")
    .normalize("NFC").trim().replace(/^\.+/, "");
  const cut = [...clean].slice(0, 200).join("");
  return cut === "" ? "file" : cut;
}
