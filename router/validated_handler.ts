/**
 * Validated routes: the handler function `defineHandler({ params, query, body, headers,
 * response }, fn)` builds. Route middleware runs first (a refused caller learns nothing from a
 * malformed request); then params, query and headers are checked (400), then the body (422),
 * and only a valid request reaches `fn`, with the outputs on `event.valid`.
 *
 * @module
 */
import { badRequest, HTTPError, unprocessableContent } from "./errors.ts";
import type { StrataEvent } from "./event.ts";
import type { HandlerFunction, HandlerResult } from "./handler.ts";
import {
  type SchemaOutput,
  type StandardSchemaV1,
  validateWith,
} from "./standard_schema.ts";

/** The schemas a validated route may declare, each a Standard Schema value. */
export interface RouteSchemas {
  /** The route params (strings, URI-decoded). */
  readonly params?: StandardSchemaV1;
  /** The query string as an object: a repeated key is an array of its values. */
  readonly query?: StandardSchemaV1;
  /** The JSON body. */
  readonly body?: StandardSchemaV1;
  /** The request headers as an object keyed by lower-case name. */
  readonly headers?: StandardSchemaV1;
  /** The answer: documented in OpenAPI; checked when `api.validateResponses` is on. */
  readonly response?: StandardSchemaV1;
}

/** One request part a schema may check. */
export type RequestPart = "params" | "query" | "headers" | "body";

/** The request parts a schema may check, in the order they are checked. */
export const REQUEST_PARTS: readonly RequestPart[] = [
  "params",
  "query",
  "headers",
  "body",
];

/** The validated outputs of a route's schemas, as `event.valid` holds them. */
export type ValidOutputs<S extends RouteSchemas> = {
  readonly [K in RequestPart as S[K] extends StandardSchemaV1 ? K : never]:
    SchemaOutput<S[K]>;
};

/** The event of a validated route: `valid` holds the schemas' outputs. */
export interface ValidatedEvent<S extends RouteSchemas> extends StrataEvent {
  /** The validated params, query, headers and body, typed from the schemas. */
  readonly valid: ValidOutputs<S>;
}

/**
 * The query string as an object: one value per key, an array for a repeated key.
 *
 * @example
 * ```ts
 * import { queryObject } from "./validated_handler.ts";
 * queryObject(new URLSearchParams("a=1&b=2&b=3")); // { a: "1", b: ["2", "3"] }
 * ```
 */
export function queryObject(
  query: URLSearchParams,
): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [key, value] of query) {
    const seen = out.get(key);
    if (seen === undefined) out.set(key, value);
    else if (Array.isArray(seen)) seen.push(value);
    else out.set(key, [seen, value]);
  }
  return Object.fromEntries(out);
}

function requestPart(event: StrataEvent, part: RequestPart): unknown {
  switch (part) {
    case "params":
      return { ...event.params };
    case "query":
      return queryObject(event.query);
    case "headers":
      return Object.fromEntries(event.request.headers);
    case "body":
      return event.body();
  }
}

/** Route details a response check names in its log line. */
interface RouteRecord {
  readonly id?: string;
  readonly validateResponses?: boolean;
}

/** Results a response schema does not describe: raw responses, errors, streams and bytes. */
function isRawResult(result: unknown): boolean {
  return result instanceof Response || result instanceof HTTPError ||
    result instanceof ReadableStream || result instanceof Uint8Array ||
    result instanceof ArrayBuffer || result instanceof Blob;
}

async function checkResponse(
  schema: StandardSchemaV1,
  result: unknown,
  route: RouteRecord | undefined,
): Promise<void> {
  const checked = await validateWith(schema, result, "");
  if ("value" in checked) return;
  const issues = Object.entries(checked.errors).map(([path, message]) =>
    path ? `${path}: ${message}` : message
  ).join("; ");
  throw new Error(
    `The response of ${
      route?.id ?? "a route"
    } does not match its response schema: ${issues}`,
  );
}

/**
 * Builds the handler function of a validated route.
 *
 * @example
 * ```ts
 * import { validatedHandler } from "./validated_handler.ts";
 * const schema = { "~standard": { version: 1 as const, vendor: "x", validate: (v: unknown) => ({ value: v }) } };
 * const fn = validatedHandler({ query: schema }, (event) => event.valid);
 * ```
 */
export function validatedHandler<S extends RouteSchemas>(
  schemas: S,
  fn: (event: ValidatedEvent<S>) => HandlerResult | Promise<HandlerResult>,
): HandlerFunction {
  const parts = REQUEST_PARTS.filter((part) => schemas[part] !== undefined);
  return async (event) => {
    const valid: Record<string, unknown> = {};
    let errors: Record<string, string> = {};
    for (const part of parts) {
      if (part === "body" && Object.keys(errors).length > 0) break;
      const checked = await validateWith(
        schemas[part]!,
        await requestPart(event, part),
        part === "body" ? "" : part,
      );
      if ("value" in checked) valid[part] = checked.value;
      else if (part === "body") {
        throw unprocessableContent(undefined, {
          errors: checked.errors,
          codes: Object.fromEntries(
            Object.keys(checked.errors).map((path) => [path, "invalid"]),
          ),
        });
      } else errors = { ...errors, ...checked.errors };
    }
    if (Object.keys(errors).length > 0) {
      throw badRequest(
        "Some parameters of the request are invalid",
        { errors },
        {
          messageKey: "errors.invalidRequest",
        },
      );
    }
    (event as { valid?: unknown }).valid = Object.freeze(valid);
    const result = await fn(event as ValidatedEvent<S>);
    const route = (event as { route?: RouteRecord }).route;
    if (
      schemas.response && route?.validateResponses === true &&
      !isRawResult(result)
    ) {
      await checkResponse(schemas.response, result, route);
    }
    return result;
  };
}
