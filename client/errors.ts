/**
 * {@link StrataError}: what the client throws for an answer that is not a success.
 *
 * @module
 */

/** The wire error shape a Strata app answers with. */
export interface WireErrorBody {
  /** The HTTP status code. */
  readonly statusCode: number;
  /** A human-readable (translated) message. */
  readonly message: string;
  /** Structured detail. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * An answer that was not a success: its `status`, the server's `message`, and for a
 * malformed query its `code` and `path`, for refused values the `errors` by field path.
 *
 * @example
 * ```ts
 * import { StrataError } from "@strata/strata/client";
 * const error = new StrataError(422, "Some values are invalid", {
 *   data: { errors: { title: "Required" } },
 * });
 * error.errors; // { title: "Required" }
 * ```
 */
export class StrataError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The stable code of a malformed query (`invalidField`, …), if any. */
  readonly code: string | undefined;
  /** Where in the query the problem is (`where.views.atLeast`), if any. */
  readonly path: string | undefined;
  /** Messages by field path (422, or 400 from a validated route), if any. */
  readonly errors: Readonly<Record<string, string>> | undefined;
  /** The error's whole `data`. */
  readonly data: Readonly<Record<string, unknown>> | undefined;

  /** Creates an error for an answer of `status`. */
  constructor(
    status: number,
    message: string,
    options: { data?: Readonly<Record<string, unknown>> } = {},
  ) {
    super(message);
    this.name = "StrataError";
    this.status = status;
    this.data = options.data;
    const data = options.data ?? {};
    this.code = typeof data.code === "string" ? data.code : undefined;
    this.path = typeof data.path === "string" ? data.path : undefined;
    this.errors = typeof data.errors === "object" && data.errors !== null
      ? data.errors as Record<string, string>
      : undefined;
  }

  /**
   * The error of an answer: its wire error body when it has one, else its status text.
   *
   * @example
   * ```ts
   * import { StrataError } from "@strata/strata/client";
   * const error = await StrataError.fromResponse(new Response("{}", { status: 404 }));
   * error.status; // 404
   * ```
   */
  static async fromResponse(response: Response): Promise<StrataError> {
    const text = await response.text().catch(() => "");
    let body: Partial<WireErrorBody> | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const message = typeof body?.message === "string" && body.message !== ""
      ? body.message
      : response.statusText || `HTTP ${response.status}`;
    const data = typeof body?.data === "object" && body.data !== null
      ? body.data
      : undefined;
    return new StrataError(response.status, message, { data });
  }
}
