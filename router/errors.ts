/**
 * HTTP errors: one class, {@link HTTPError}, and a builder per status.
 *
 * @module
 */

/** The JSON body every error answers with. */
export interface WireError {
  /** The HTTP status code. */
  statusCode: number;
  /** A human-readable message. */
  message: string;
  /** Structured detail, e.g. `{ errors: { email: "…" } }` on a 422. */
  data?: Record<string, unknown>;
}

/** Options accepted by every error builder. */
export interface HTTPErrorOptions {
  /** Structured detail sent as `data`. */
  data?: Record<string, unknown>;
  /** Extra response headers, e.g. `Retry-After`. */
  headers?: HeadersInit;
  /** The underlying error, kept for logs and never sent. */
  cause?: unknown;
  /** A message catalog key the message is translated from (e.g. `errors.invalidCredentials`). */
  messageKey?: string;
  /** Parameters of the message key. */
  messageParams?: Record<string, unknown>;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/**
 * An error that answers with its status and the wire error shape
 * `{ statusCode, message, data? }`. Return it or throw it from a handler or middleware.
 *
 * @example
 * ```ts
 * import { HTTPError } from "@strata/strata";
 * throw new HTTPError(418, "I am a teapot", { data: { brewing: false } });
 * ```
 */
export class HTTPError extends Error {
  /** The HTTP status code. */
  readonly status: number;
  /** Structured detail sent as `data`. */
  readonly data?: Record<string, unknown>;
  /** Headers sent with the error response. */
  readonly headers: Headers;
  /** The message catalog key of the message, if any. */
  readonly messageKey?: string;
  /** Parameters of the message key. */
  readonly messageParams?: Record<string, unknown>;

  /** Creates an error answering `status`; `message` defaults to the status text. */
  constructor(
    status: number,
    message?: string,
    options: HTTPErrorOptions = {},
  ) {
    super(message ?? HTTPError.defaultMessage(status), {
      cause: options.cause,
    });
    this.name = "HTTPError";
    this.status = status;
    this.data = options.data;
    this.headers = new Headers(options.headers);
    this.messageKey = options.messageKey;
    this.messageParams = options.messageParams;
  }

  /**
   * The message an error of `status` carries when none is given.
   *
   * @example
   * ```ts
   * import { HTTPError } from "@strata/strata";
   * HTTPError.defaultMessage(404); // "Not Found"
   * ```
   */
  static defaultMessage(status: number): string {
    return STATUS_TEXT[status] ?? "Error";
  }

  /**
   * A copy of this error with another message (e.g. translated).
   *
   * @example
   * ```ts
   * import { notFound } from "@strata/strata";
   * notFound().withMessage("Nicht gefunden").message; // "Nicht gefunden"
   * ```
   */
  withMessage(message: string): HTTPError {
    return new HTTPError(this.status, message, {
      data: this.data,
      headers: this.headers,
      cause: this.cause,
      messageKey: this.messageKey,
      messageParams: this.messageParams,
    });
  }

  /** The wire error shape of this error. */
  toJSON(): WireError {
    const body: WireError = { statusCode: this.status, message: this.message };
    if (this.data !== undefined) body.data = this.data;
    return body;
  }
}

function builder(status: number) {
  return (
    message?: string,
    data?: Record<string, unknown>,
    options: Omit<HTTPErrorOptions, "data"> = {},
  ): HTTPError => new HTTPError(status, message, { ...options, data });
}

/** Signature shared by every error builder. */
export type ErrorBuilder = (
  message?: string,
  data?: Record<string, unknown>,
  options?: Omit<HTTPErrorOptions, "data">,
) => HTTPError;

/**
 * 400 Bad Request.
 *
 * @example
 * ```ts
 * import { badRequest } from "@strata/strata";
 * throw badRequest("Missing name", { field: "name" });
 * ```
 */
export const badRequest: ErrorBuilder = builder(400);
/**
 * 401 Unauthorized.
 *
 * @example
 * ```ts
 * import { unauthorized } from "@strata/strata";
 * throw unauthorized();
 * ```
 */
export const unauthorized: ErrorBuilder = builder(401);
/**
 * 403 Forbidden.
 *
 * @example
 * ```ts
 * import { forbidden } from "@strata/strata";
 * throw forbidden();
 * ```
 */
export const forbidden: ErrorBuilder = builder(403);
/**
 * 404 Not Found.
 *
 * @example
 * ```ts
 * import { notFound } from "@strata/strata";
 * throw notFound();
 * ```
 */
export const notFound: ErrorBuilder = builder(404);
/**
 * 405 Method Not Allowed. Pass `{ headers: { Allow: "GET, HEAD" } }` to name the methods.
 *
 * @example
 * ```ts
 * import { methodNotAllowed } from "@strata/strata";
 * throw methodNotAllowed(undefined, undefined, { headers: { Allow: "GET, HEAD" } });
 * ```
 */
export const methodNotAllowed: ErrorBuilder = builder(405);
/**
 * 409 Conflict.
 *
 * @example
 * ```ts
 * import { conflict } from "@strata/strata";
 * throw conflict("Still referenced");
 * ```
 */
export const conflict: ErrorBuilder = builder(409);
/**
 * 413 Payload Too Large.
 *
 * @example
 * ```ts
 * import { payloadTooLarge } from "@strata/strata";
 * throw payloadTooLarge();
 * ```
 */
export const payloadTooLarge: ErrorBuilder = builder(413);
/**
 * 415 Unsupported Media Type.
 *
 * @example
 * ```ts
 * import { unsupportedMediaType } from "@strata/strata";
 * throw unsupportedMediaType();
 * ```
 */
export const unsupportedMediaType: ErrorBuilder = builder(415);
/**
 * 422 Unprocessable Content; put per-field messages in `data.errors`.
 *
 * @example
 * ```ts
 * import { unprocessableContent } from "@strata/strata";
 * throw unprocessableContent(undefined, { errors: { email: "Invalid email" } });
 * ```
 */
export const unprocessableContent: ErrorBuilder = builder(422);
/**
 * 429 Too Many Requests.
 *
 * @example
 * ```ts
 * import { tooManyRequests } from "@strata/strata";
 * throw tooManyRequests(undefined, undefined, { headers: { "Retry-After": "30" } });
 * ```
 */
export const tooManyRequests: ErrorBuilder = builder(429);
/**
 * 503 Service Unavailable.
 *
 * @example
 * ```ts
 * import { serviceUnavailable } from "@strata/strata";
 * throw serviceUnavailable(undefined, undefined, { headers: { "Retry-After": "1" } });
 * ```
 */
export const serviceUnavailable: ErrorBuilder = builder(503);
/**
 * 501 Not Implemented.
 *
 * @example
 * ```ts
 * import { notImplemented } from "@strata/strata";
 * throw notImplemented();
 * ```
 */
export const notImplemented: ErrorBuilder = builder(501);
