/**
 * Route handlers and middleware: what a route file or a middleware file default-exports.
 *
 * @module
 */
import type { StrataEvent } from "./event.ts";
import type { Duration, Size } from "./limits.ts";

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
}

/** A route handler with its options, as {@link defineHandler} returns it. */
export interface HandlerDefinition {
  /** Brand telling a handler apart from other default exports. */
  readonly kind: "handler";
  /** The function answering the request. */
  readonly fn: HandlerFunction;
  /** The route's options. */
  readonly options: Readonly<RouteOptions>;
}

/** A middleware, as {@link defineMiddleware} returns it. */
export interface MiddlewareDefinition {
  /** Brand telling a middleware apart from other default exports. */
  readonly kind: "middleware";
  /** Returns nothing to pass the request on, or a handler result to answer it. */
  readonly fn: HandlerFunction;
}

/**
 * Defines a route handler; a route file default-exports it.
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
  options: RouteOptions = {},
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
