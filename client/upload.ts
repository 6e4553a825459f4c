/**
 * The transport of `upload`: the multipart body built as one `Blob` (so its size is known
 * before it is sent), and a request through `XMLHttpRequest` that reports the body's bytes
 * as they go out, for the platforms that have it (browsers).
 *
 * @module
 */

/** How much of an upload's request body has been sent. */
export interface UploadProgress {
  /** Bytes sent so far. */
  readonly loaded: number;
  /** Bytes of the whole request body (the file and its multipart framing). */
  readonly total: number;
}

/** A multipart body with its content type. */
export interface MultipartBody {
  /** The body: the framing around the file's bytes, not a copy of them. */
  readonly body: Blob;
  /** `multipart/form-data` with the body's boundary. */
  readonly contentType: string;
}

/** A boundary no file can be expected to hold (getRandomValues works outside secure contexts). */
function boundary(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return "----strata" + hex;
}

/**
 * The `multipart/form-data` body of one file part named `file`, as a browser's `FormData`
 * writes it (a `"`, CR or LF of the file name percent-encoded).
 *
 * @example
 * ```ts
 * import { multipartBody } from "./upload.ts";
 * const { body, contentType } = multipartBody(new Blob(["hi"]), "a.txt");
 * contentType.startsWith("multipart/form-data; boundary="); // true
 * body.size > 2; // true
 * ```
 */
export function multipartBody(file: Blob, filename: string): MultipartBody {
  const mark = boundary();
  const name = filename.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(
    /\n/g,
    "%0A",
  );
  const type = file.type === "" ? "application/octet-stream" : file.type;
  const head = `--${mark}\r\ncontent-disposition: form-data; name="file"; ` +
    `filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`;
  return {
    body: new Blob([head, file, `\r\n--${mark}--\r\n`]),
    contentType: `multipart/form-data; boundary=${mark}`,
  };
}

/** The part of `XMLHttpRequest` an upload uses (Deno's types have none: it is a browser's). */
interface Xhr {
  readonly status: number;
  readonly statusText: string;
  readonly response: ArrayBuffer | null;
  responseType: string;
  readonly upload: {
    addEventListener(
      type: "progress",
      listener: (event: { loaded: number }) => void,
    ): void;
  };
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  addEventListener(type: "loadend", listener: () => void): void;
  send(body: Blob): void;
  abort(): void;
}

/** This platform's `XMLHttpRequest`, if it has one. */
function xhrClass(): (new () => Xhr) | undefined {
  const found = (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
  return typeof found === "function" ? found as new () => Xhr : undefined;
}

/**
 * Whether this platform can report upload progress (it has `XMLHttpRequest`).
 *
 * @example
 * ```ts
 * import { canReportProgress } from "./upload.ts";
 * canReportProgress(); // false in Deno, true in a browser
 * ```
 */
export function canReportProgress(): boolean {
  return xhrClass() !== undefined;
}

/** The statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The headers of an `XMLHttpRequest` answer (cookies are never among them). */
function responseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(":");
    if (at > 0) {
      headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
    }
  }
  return headers;
}

/**
 * Sends `body` through `XMLHttpRequest`, calling `onProgress` as its bytes go out (each call
 * a larger `loaded`); answers the `Response` fetch would have, and fails as fetch does: a
 * `TypeError` for a network failure, the signal's reason when aborted.
 *
 * @example
 * ```ts ignore
 * import { multipartBody, sendWithProgress } from "./upload.ts";
 * const { body, contentType } = multipartBody(new Blob(["hi"]), "a.txt");
 * const response = await sendWithProgress(
 *   "/files?collection=Photos&field=attachment",
 *   { method: "POST", headers: new Headers({ "content-type": contentType }), body },
 *   ({ loaded, total }) => console.log(loaded, total),
 * );
 * ```
 */
export function sendWithProgress(
  url: string,
  init: {
    method: string;
    headers: Headers;
    body: Blob;
    signal?: AbortSignal;
  },
  onProgress: (progress: UploadProgress) => void,
): Promise<Response> {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const XhrClass = xhrClass();
    if (XhrClass === undefined) {
      return reject(new TypeError("This platform has no XMLHttpRequest"));
    }
    const request = new XhrClass();
    const total = init.body.size;
    let sent = -1;
    const abort = () => request.abort();
    request.open(init.method, url);
    request.responseType = "arraybuffer";
    for (const [key, value] of init.headers) {
      request.setRequestHeader(key, value);
    }
    request.upload.addEventListener("progress", (event) => {
      const loaded = Math.min(event.loaded, total);
      if (loaded <= sent) return;
      sent = loaded;
      onProgress({ loaded, total });
    });
    request.addEventListener("loadend", () => {
      signal?.removeEventListener("abort", abort);
      if (signal?.aborted) return reject(signal.reason);
      // status 0: no answer at all, as fetch rejects for it.
      if (request.status === 0) {
        return reject(new TypeError("The upload failed: no answer"));
      }
      resolve(
        new Response(
          NULL_BODY.has(request.status) ? null : request.response,
          {
            status: request.status,
            statusText: request.statusText,
            headers: responseHeaders(request.getAllResponseHeaders()),
          },
        ),
      );
    });
    signal?.addEventListener("abort", abort);
    request.send(init.body);
  });
}
