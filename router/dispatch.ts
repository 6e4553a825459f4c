/**
 * The request pipeline: canonical path → basePath → route match → global middleware → route
 * middleware → body limit → handler → result mapping, with timeouts and error mapping.
 *
 * @module
 */
import { HTTPError, serviceUnavailable } from "./errors.ts";
import { runWithEvent } from "./event.ts";
import type { HandlerFunction } from "./handler.ts";
import { RequestEvent } from "./request_event.ts";
import { errorResponse, resultToResponse } from "./result.ts";
import { canonicalizePath } from "./canonical_path.ts";
import type { RouteTrie } from "./trie.ts";

/** A route ready to serve: handler, resolved middleware and numeric limits. */
export interface CompiledRoute {
  /** `METHOD /pattern` (`*` for a suffixless file). */
  readonly id: string;
  /** Upper-case method or `*`. */
  readonly method: string;
  /** The route pattern, e.g. `/posts/[id]`. */
  readonly pattern: string;
  /** The file (or manifest key) the route came from. */
  readonly file: string;
  /** The name of the layer the route came from. */
  readonly layer: string;
  /** The handler. */
  readonly handler: HandlerFunction;
  /** The route's named middleware, resolved, in order. */
  readonly middleware: readonly HandlerFunction[];
  /** Body limit in bytes (`Infinity` when lifted). */
  readonly maxBodySize: number;
  /** Middleware + handler time limit in ms (`Infinity` when lifted). */
  readonly handlerTimeout: number;
  /** `waitUntil` time limit in ms (`Infinity` when lifted). */
  readonly waitUntilTimeout: number;
}

/** Connection details `Deno.serve` passes beside the request. */
export interface ServeInfo {
  /** The client address. */
  readonly remoteAddr?: { readonly hostname?: string };
}

/** What the dispatcher needs. */
export interface DispatcherOptions {
  /** The route trie, built once at boot. */
  readonly trie: RouteTrie<CompiledRoute>;
  /** Prefix every route is mounted under (`''` for none). */
  readonly basePath: string;
  /** Global middleware, in run order. */
  readonly globalMiddleware: readonly HandlerFunction[];
  /** What owns the requests (the app), reachable from the event. */
  readonly owner?: unknown;
  /** Rewrites an error before it is sent (e.g. to translate its message). */
  readonly localizeError?: (
    error: HTTPError,
    request: Request,
    event: RequestEvent | undefined,
  ) => HTTPError;
  /** Called with every unhandled error; defaults to `console.error`. */
  readonly logError?: (error: unknown, event: RequestEvent | undefined) => void;
}

/** The request entry point and its shutdown. */
export interface Dispatcher {
  /** Answers one request. */
  fetch(request: Request, info?: ServeInfo): Promise<Response>;
  /** Waits for pending `waitUntil` work. */
  close(): Promise<void>;
}

const EMPTY_STATE = { headers: undefined, status: undefined };

/** Splits a request URL into its pathname and its query string without a URL parse. */
function splitUrl(url: string): [path: string, search: string] {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return ["/", ""];
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = hash === -1 ? url.length : hash;
  if (query === -1 || query > end) return [url.slice(start, end), ""];
  return [url.slice(start, query), url.slice(query + 1, end)];
}

function allowHeader(allowed: readonly string[]): HeadersInit {
  return { allow: allowed.join(", ") };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (ms === Infinity) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          serviceUnavailable("The request took too long", undefined, {
            messageKey: "errors.handlerTimeout",
          }),
        ),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Builds the request entry point of an app.
 *
 * @example
 * ```ts
 * import { createDispatcher } from "./dispatch.ts";
 * import { RouteTrie } from "./trie.ts";
 * const dispatcher = createDispatcher({ trie: new RouteTrie(), basePath: "", globalMiddleware: [] });
 * const response = await dispatcher.fetch(new Request("http://localhost/")); // 404
 * ```
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { trie, basePath, globalMiddleware, owner } = options;
  const localize = options.localizeError ?? ((error) => error);
  const logError = options.logError ??
    ((error) => console.error("Unhandled error in request:", error));
  const pending = new Set<Promise<unknown>>();

  const trackWaitUntil = (promise: Promise<unknown>, timeout: number) => {
    const bounded = withTimeout(promise, timeout).catch((error) =>
      logError(error, undefined)
    );
    pending.add(bounded);
    bounded.finally(() => pending.delete(bounded));
  };

  function fail(
    error: unknown,
    request: Request,
    event: RequestEvent | undefined,
  ): Response {
    if (!(error instanceof HTTPError)) {
      logError(error, event);
      error = new HTTPError(500);
    }
    const state = event
      ? {
        headers: event.hasHeaders ? event.headers : undefined,
        status: undefined,
      }
      : EMPTY_STATE;
    return errorResponse(localize(error as HTTPError, request, event), state);
  }

  async function runMiddleware(
    list: readonly HandlerFunction[],
    event: RequestEvent,
  ): Promise<unknown> {
    for (const middleware of list) {
      const result = await middleware(event);
      if (result !== undefined) return result;
    }
    return undefined;
  }

  function respond(result: unknown, event: RequestEvent): Response {
    if (result instanceof HTTPError) return fail(result, event.request, event);
    return resultToResponse(result, {
      headers: event.hasHeaders ? event.headers : undefined,
      status: event.status,
    });
  }

  async function serveRoute(
    route: CompiledRoute,
    event: RequestEvent,
  ): Promise<Response> {
    let answer = await runMiddleware(globalMiddleware, event);
    if (answer === undefined && route.middleware.length > 0) {
      answer = await runMiddleware(route.middleware, event);
    }
    if (answer !== undefined) return respond(answer, event);
    if (event.request.body !== null && route.maxBodySize !== Infinity) {
      await event.bufferBody();
    }
    return respond(await route.handler(event), event);
  }

  async function serveOptions(
    allowed: readonly string[],
    event: RequestEvent,
  ): Promise<Response> {
    const answer = await runMiddleware(globalMiddleware, event);
    if (answer !== undefined) return respond(answer, event);
    event.headers.set("allow", allowed.join(", "));
    return respond(null, event);
  }

  async function fetch(request: Request, info?: ServeInfo): Promise<Response> {
    const [rawPath, search] = splitUrl(request.url);
    const canonical = canonicalizePath(rawPath);
    let path = canonical;
    if (path !== null && basePath !== "") {
      if (path === basePath || path === basePath + "/") path = "/";
      else if (path.startsWith(basePath + "/")) {
        path = path.slice(basePath.length);
      } else path = null;
    }
    if (path === null) return fail(new HTTPError(404), request, undefined);
    const method = request.method;
    const match = trie.match(method, path);
    if (match === null) return fail(new HTTPError(404), request, undefined);
    const ip = info?.remoteAddr?.hostname ?? "";
    if (!("value" in match)) {
      if (method !== "OPTIONS") {
        return fail(
          new HTTPError(405, undefined, {
            headers: allowHeader(match.allowed),
          }),
          request,
          undefined,
        );
      }
      const event = new RequestEvent(
        request,
        path,
        search,
        {},
        ip,
        owner,
        trackWaitUntil,
      );
      return await runWithEvent(
        event,
        () =>
          serveOptions(match.allowed, event).catch((error) =>
            fail(error, request, event)
          ),
      );
    }
    const route = match.value;
    const event = new RequestEvent(
      request,
      path,
      search,
      match.params,
      ip,
      owner,
      trackWaitUntil,
    );
    event.maxBodySize = route.maxBodySize;
    event.waitUntilTimeout = route.waitUntilTimeout;
    const response = await runWithEvent(
      event,
      () =>
        withTimeout(serveRoute(route, event), route.handlerTimeout)
          .catch((error) => fail(error, request, event)),
    );
    if (method === "HEAD" && response.body !== null) {
      await response.body.cancel();
      return new Response(null, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    return response;
  }

  return {
    fetch,
    async close() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
