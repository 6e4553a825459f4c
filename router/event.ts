/**
 * The request event every handler and middleware receives, and `useEvent()` to reach it
 * from anywhere inside the request.
 *
 * @module
 */
import { asyncCarrier } from "../utils/_async_carrier.ts";

/** What a handler or middleware receives for one request. */
export interface StrataEvent {
  /** The incoming request. */
  readonly request: Request;
  /** The parsed request URL (its pathname as sent, including any basePath). */
  readonly url: URL;
  /** The request method, upper-case. */
  readonly method: string;
  /** The canonical path without `api.basePath`. */
  readonly path: string;
  /** Route params: strings, URI-decoded. */
  params: Record<string, string>;
  /** The query string. */
  readonly query: URLSearchParams;
  /** Request-scoped values written by middleware, such as `context.user`. */
  readonly context: Record<string, unknown>;
  /** Response headers being built; they merge beneath the handler's result. */
  readonly headers: Headers;
  /** The response status; set it to answer with another status than the default. */
  status: number | undefined;
  /** The client address (empty when unknown). */
  readonly ip: string;
  /** The outputs of a validated route's schemas (see `defineHandler`); `undefined` elsewhere. */
  readonly valid?: Readonly<Record<string, unknown>>;
  /** The JSON body: `application/json` or `*+json`, size-limited, parsed once and cached. */
  body<T = unknown>(): Promise<T>;
  /** Keeps `promise` running after the response, bounded by `waitUntilTimeout`. */
  waitUntil(promise: Promise<unknown>): void;
}

const carrier = asyncCarrier<StrataEvent>();

/**
 * Runs `fn` with `event` as the current event.
 *
 * @example
 * ```ts
 * import { runWithEvent, useEvent, type StrataEvent } from "./event.ts";
 * declare const event: StrataEvent;
 * runWithEvent(event, () => useEvent());
 * ```
 */
export function runWithEvent<T>(event: StrataEvent, fn: () => T): T {
  return carrier.run(event, fn, undefined);
}

/**
 * Runs `fn(arg)` with `event` as the current event: {@link runWithEvent} without a closure
 * per call, for the dispatcher.
 *
 * @example
 * ```ts
 * import { runWithEventArg, useEvent, type StrataEvent } from "./event.ts";
 * declare const event: StrataEvent;
 * runWithEventArg(event, (n: number) => useEvent().path + n, 1);
 * ```
 */
export function runWithEventArg<A, T>(
  event: StrataEvent,
  fn: (arg: A) => T,
  arg: A,
): T {
  return carrier.run(event, fn, arg);
}

/**
 * Returns the event of the request being handled; throws outside a request.
 *
 * @example
 * ```ts
 * import { defineHandler, useEvent } from "@strata/strata";
 * function clientIp(): string {
 *   return useEvent().ip;
 * }
 * export default defineHandler(() => ({ ip: clientIp() }));
 * ```
 */
export function useEvent(): StrataEvent {
  const event = carrier.get();
  if (!event) throw new Error("useEvent() was called outside a request");
  return event;
}

/**
 * Returns the event of the request being handled, or `undefined` outside a request.
 *
 * @example
 * ```ts
 * import { currentEvent } from "./event.ts";
 * const event = currentEvent(); // undefined here: no request is running
 * ```
 */
export function currentEvent(): StrataEvent | undefined {
  return carrier.get();
}
