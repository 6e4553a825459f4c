/**
 * Route handlers and middleware: what a route file or a middleware file default-exports.
 *
 * @module
 */
import type { StrataEvent } from "./event.ts";
import type { Duration, Size } from "./limits.ts";
import {
  type RouteSchemas,
  type ValidatedEvent,
  validatedHandler,
} from "./validated_handler.ts";
import {
  isStandardSchema,
  type SchemaInput,
  type StandardSchemaV1,
} from "./standard_schema.ts";

/** What a handler or middleware may return; see SPEC.md "Handler result mapping". */
export type HandlerResult = unknown;

/** A function answering a request, sync or async. */
export type HandlerFunction = (
  event: StrataEvent,
) => HandlerResult | Promise<HandlerResult>;

/** Per-route options, the second argument of {@link defineHandler}. */
export interface RouteOptions {
  /** Overrides `api.maxBodySize` for this route; `false` lifts the limit. */
  maxBodySize?: Size | false;
  /** Overrides `api.handlerTimeout` for this route; `false` lifts the limit. */
  handlerTimeout?: Duration | false;
  /** Overrides `api.waitUntilTimeout` for this route; `false` lifts the limit. */
  waitUntilTimeout?: Duration | false;
  /** Named middleware run after the global ones, in this order. */
  middleware?: readonly string[];
  /**
   * The route in the app's OpenAPI document: fields of an OpenAPI operation object
   * (`summary`, `description`, `tags`, `requestBody`, `responses`, …) laid over the generated
   * ones, or `false` to leave the route out.
   */
  openapi?: false | OperationDoc;
}

/** Fields of an OpenAPI 3.1 operation object, as JSON. */
export type OperationDoc = Readonly<Record<string, unknown>>;

/** A route handler with its options, as {@link defineHandler} returns it. */
export interface HandlerDefinition {
  /** Brand telling a handler apart from other default exports. */
  readonly kind: "handler";
  /** The function answering the request. */
  readonly fn: HandlerFunction;
  /** The route's options. */
  readonly options: Readonly<RouteOptions>;
  /** The schemas of a validated route (documented in OpenAPI). */
  readonly schemas?: Readonly<RouteSchemas>;
}

/** The first argument of a validated {@link defineHandler}: schemas and route options. */
export type ValidatedRouteConfig = RouteSchemas & RouteOptions;

/** What a validated handler may return: the response schema's input, or any raw result. */
export type ValidatedResult<S extends RouteSchemas> = S["response"] extends
  StandardSchemaV1 ?
    | SchemaInput<S["response"]>
    | Response
    | ReadableStream
    | Uint8Array
    | ArrayBuffer
    | Blob
    | Error
    | null
    | undefined
  : HandlerResult;

/** The handler of a validated route. */
export type ValidatedHandlerFunction<S extends RouteSchemas> = (
  event: ValidatedEvent<S>,
) => ValidatedResult<S> | Promise<ValidatedResult<S>>;

const SCHEMA_KEYS = ["params", "query", "body", "headers", "response"] as const;

/** A middleware, as {@link defineMiddleware} returns it. */
export interface MiddlewareDefinition {
  /** Brand telling a middleware apart from other default exports. */
  readonly kind: "middleware";
  /** Returns nothing to pass the request on, or a handler result to answer it. */
  readonly fn: HandlerFunction;
}

/**
 * Defines a route handler; a route file default-exports it. Either `defineHandler(fn,
 * options?)`, or `defineHandler({ params, query, body, headers, response, ...options }, fn)`
 * with Standard Schema values (zod, valibot, arktype, …): the request is checked before `fn`
 * runs (params, query or headers refused: 400; body: 422; both with `data.errors` keyed by
 * dotted path) and `fn` reads the typed outputs on `event.valid`.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * export default defineHandler(
 *   ({ params, query }) => ({ id: params.id, q: query.get("q") }),
 *   { maxBodySize: "100kb", middleware: ["require-auth"] },
 * );
 * ```
 */
export function defineHandler(
  fn: HandlerFunction,
  options?: RouteOptions,
): HandlerDefinition;
/**
 * Defines a validated route: each of `params`, `query`, `headers` and `body` is a Standard
 * Schema value (zod, valibot, arktype, …) checked before `fn` runs, after the route's
 * middleware; the other keys are {@link RouteOptions}. Params, query or headers refused: 400;
 * body refused: 422; both with `data.errors` keyed by dotted path (`query.page`, `items.0.qty`).
 * `fn` reads the typed outputs on `event.valid`. `response` is documented in OpenAPI and
 * checked under `api.validateResponses`.
 *
 * @example
 * ```ts ignore
 * import { defineHandler } from "@strata/strata";
 * import { z } from "zod";
 * export default defineHandler(
 *   { body: z.object({ title: z.string().min(1) }), maxBodySize: "100kb" },
 *   ({ valid }) => ({ title: valid.body.title }),
 * );
 * ```
 */
export function defineHandler<const S extends ValidatedRouteConfig>(
  config: S & Record<Exclude<keyof S, keyof ValidatedRouteConfig>, never>,
  fn: ValidatedHandlerFunction<S>,
): HandlerDefinition;
export function defineHandler(
  first: HandlerFunction | ValidatedRouteConfig,
  second?: RouteOptions | ValidatedHandlerFunction<RouteSchemas>,
): HandlerDefinition {
  if (typeof first === "function") {
    return handlerDefinition(first, (second ?? {}) as RouteOptions);
  }
  if (typeof first !== "object" || first === null) {
    throw new TypeError("defineHandler expects a function");
  }
  if (typeof second !== "function") {
    throw new TypeError(
      "defineHandler with schemas expects the handler function as its second argument",
    );
  }
  const schemas: { -readonly [K in keyof RouteSchemas]: StandardSchemaV1 } = {};
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(first)) {
    if ((SCHEMA_KEYS as readonly string[]).includes(key)) {
      if (value === undefined) continue;
      if (!isStandardSchema(value)) {
        throw new TypeError(
          `defineHandler: "${key}" must be a Standard Schema value (zod, valibot, arktype, …)`,
        );
      }
      schemas[key as keyof RouteSchemas] = value;
    } else options[key] = value;
  }
  return handlerDefinition(
    validatedHandler(schemas, second as ValidatedHandlerFunction<RouteSchemas>),
    options as RouteOptions,
    Object.freeze(schemas),
  );
}

function handlerDefinition(
  fn: HandlerFunction,
  options: RouteOptions,
  schemas?: Readonly<RouteSchemas>,
): HandlerDefinition {
  if (typeof fn !== "function") {
    throw new TypeError("defineHandler expects a function");
  }
  return Object.freeze({
    kind: "handler",
    fn,
    options: Object.freeze({
      ...options,
      middleware: options.middleware && Object.freeze([...options.middleware]),
    }),
    ...(schemas ? { schemas } : {}),
  });
}

/**
 * Defines a middleware: return nothing to pass the request on, or a value (any handler
 * result, an `HTTPError`) to answer it.
 *
 * @example
 * ```ts
 * import { defineMiddleware, unauthorized } from "@strata/strata";
 * export default defineMiddleware((event) => {
 *   if (!event.request.headers.has("x-api-key")) return unauthorized();
 * });
 * ```
 */
export function defineMiddleware(fn: HandlerFunction): MiddlewareDefinition {
  if (typeof fn !== "function") {
    throw new TypeError("defineMiddleware expects a function");
  }
  return Object.freeze({ kind: "middleware", fn });
}

/**
 * Whether `value` was made by {@link defineHandler}.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { isHandlerDefinition } from "./handler.ts";
 * isHandlerDefinition(defineHandler(() => "ok")); // true
 * ```
 */
export function isHandlerDefinition(
  value: unknown,
): value is HandlerDefinition {
  return typeof value === "object" && value !== null &&
    (value as { kind?: unknown }).kind === "handler";
}

/**
 * Whether `value` was made by {@link defineMiddleware}.
 *
 * @example
 * ```ts
 * import { defineMiddleware } from "@strata/strata";
 * import { isMiddlewareDefinition } from "./handler.ts";
 * isMiddlewareDefinition(defineMiddleware(() => {})); // true
 * ```
 */
export function isMiddlewareDefinition(
  value: unknown,
): value is MiddlewareDefinition {
  return typeof value === "object" && value !== null &&
    (value as { kind?: unknown }).kind === "middleware";
}
