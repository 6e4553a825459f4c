/**
 * The wire error shape in the OpenAPI document: one schema, and one shared response per
 * error status an operation can give.
 *
 * @module
 */
import { HTTPError } from "../../router/errors.ts";
import type { JsonSchema } from "./field_schema.ts";

/** The error statuses operations list. */
export type ErrorStatus =
  | 400
  | 401
  | 403
  | 404
  | 409
  | 413
  | 415
  | 422
  | 429
  | 503;

/** `{ statusCode, message, data? }`, with `data.errors`, `data.code` and `data.path` described. */
export const ERROR_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    statusCode: { type: "integer" },
    message: { type: "string" },
    data: {
      type: "object",
      properties: {
        errors: {
          type: "object",
          additionalProperties: { type: "string" },
          description:
            "Field path → message (422 on writes; 400 on a validated route's params, query or headers)",
        },
        codes: {
          type: "object",
          additionalProperties: { type: "string" },
          description:
            "Field path → stable camelCase code of each refusal in errors (422)",
        },
        code: {
          type: "string",
          description: "Stable camelCase code of a malformed query (400)",
        },
        path: {
          type: "string",
          description: "Where in the query the problem is (400)",
        },
      },
    },
  },
  required: ["statusCode", "message"],
};

const WHEN: Record<ErrorStatus, string> = {
  400: "Malformed parameters, query or body",
  401: "No session where one is required",
  403: "Signed in without the required capability",
  404: "Not found, not exposed, or outside the caller's scope",
  409: "Blocked by a restrict reference",
  413: "The request body is too large",
  415:
    "The request body is not of an accepted type (JSON, or multipart/form-data where files are uploaded)",
  422: "Some values are invalid",
  429: "Too many attempts; see Retry-After",
  503: "The service is busy or the request took too long",
};

/** The name of the shared response of `status` under `components.responses`. */
export function errorResponseName(status: ErrorStatus): string {
  return HTTPError.defaultMessage(status).replace(/\s+/g, "");
}

/**
 * The shared error responses, keyed as {@link errorResponseName} names them.
 *
 * @example
 * ```ts
 * import { errorResponses } from "./errors.ts";
 * Object.keys(errorResponses()).includes("NotFound"); // true
 * ```
 */
export function errorResponses(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of Object.keys(WHEN).map(Number) as ErrorStatus[]) {
    out[errorResponseName(status)] = {
      description: WHEN[status],
      content: {
        "application/json": { schema: { $ref: "#/components/schemas/Error" } },
      },
    };
  }
  return out;
}

/**
 * The `responses` entries of the given error statuses, in ascending order.
 *
 * @example
 * ```ts
 * import { errorRefs } from "./errors.ts";
 * errorRefs([404, 400]); // { "400": { $ref: "#/components/responses/BadRequest" }, "404": … }
 * ```
 */
export function errorRefs(
  statuses: Iterable<ErrorStatus>,
): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    out[String(status)] = {
      $ref: `#/components/responses/${errorResponseName(status)}`,
    };
  }
  return out;
}

/**
 * Security of a guarded operation: the session cookie or a bearer token.
 *
 * @example
 * ```ts
 * import { GUARDED_SECURITY } from "./errors.ts";
 * GUARDED_SECURITY.length; // 2
 * ```
 */
export const GUARDED_SECURITY: readonly JsonSchema[] = [
  { sessionCookie: [] },
  { bearerToken: [] },
];
