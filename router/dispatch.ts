/**
 * The request pipeline: canonical path → basePath → route match → global middleware → route
 * middleware → body limit → handler → result mapping, with timeouts and error mapping.
 *
 * The pipeline stays synchronous for as long as the middleware and the handler answer
 * synchronously: no promise, async frame or timer is created for a request that never awaits.
 *
 * @module
 */
import { HTTPError, serviceUnavailable } from "./errors.ts";
import { runWithEventArg } from "./event.ts";
import type { HandlerFunction } from "./handler.ts";
import { RequestEvent } from "./request_event.ts";
import type { ClientResolver } from "./forwarded.ts";
import { errorResponse, JSON_HEADERS, resultToResponse } from "./result.ts";
import { canonicalizePath } from "./canonical_path.ts";
import type { RouteTrie } from "./trie.ts";
import { isThenable } from "../utils/_maybe_promise.ts";

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
  /** Whether a validated route checks its answers against its response schema. */
  readonly validateResponses?: boolean;
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
  /**
   * Rewrites an error before it is sent (e.g. to translate its message). For a router miss it
   * is called without an event, and its answer is reused for later misses with the same
   * `Accept-Language` header: then it must depend on nothing else of the request.
   */
  readonly localizeError?: (
    error: HTTPError,
    request: Request,
    event: RequestEvent | undefined,
  ) => HTTPError;
  /** Reads the client behind trusted proxies (`api.trustProxy`); default: the socket. */
  readonly resolveClient?: ClientResolver;
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

/** Distinct `Accept-Language` values whose 404 answer is kept. */
const MAX_CACHED_LANGUAGES = 64;

/** A translated error and, when it carries no headers of its own, its rendered body. */
interface LocalizedError {
  readonly error: HTTPError;
  readonly body: string | null;
}

function localizedError(error: HTTPError): LocalizedError {
  const bare = error.headers.keys().next().done === true;
  return { error, body: bare ? JSON.stringify(error.toJSON()) : null };
}

function timeoutError(): HTTPError {
  return serviceUnavailable("The request took too long", undefined, {
    messageKey: "errors.handlerTimeout",
  });
}

/**
 * Limits at or above this many ms are watched by the shared coarse clock instead of a timer of
 * their own: a 30 s limit may fire a fraction of a second late, and a request costs no timer.
 */
const COARSE_FROM_MS = 1000;
/** How often the coarse clock looks for requests past their deadline. */
const COARSE_TICK_MS = 250;

/** A promise racing its deadline on the coarse clock. */
interface Deadline {
  readonly at: number;
  readonly expire: () => void;
  /** Where it is in the clock's list; -1 once it left. */
  slot: number;
}

/**
 * One timer for every long limit, ticking only while some bounded work is pending. It keeps
 * the process alive exactly while such work is pending (as a timer per request would): it
 * is unref'd the moment the last pending work settles, and ref'd again when more arrives.
 *
 * The pending deadlines are an array each knows its place in, not a `Set`: a long-lived
 * `Set` churned by one entry per request made V8 keep every request's objects alive past
 * their first young-generation collection (its rehashed-away tables stay chained to the
 * new ones), so under load a list request's rows, response and promises were promoted and
 * collected in the old generation — a fifth of the server's CPU on `GET /collections/posts`.
 */
class CoarseClock {
  #pending: Deadline[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #referenced = false;

  add(deadline: Deadline): void {
    deadline.slot = this.#pending.length;
    this.#pending.push(deadline);
    if (this.#timer === undefined) {
      this.#timer = setTimeout(this.#tick, COARSE_TICK_MS);
      this.#referenced = true;
    } else if (!this.#referenced) {
      Deno.refTimer(this.#timer as unknown as number);
      this.#referenced = true;
    }
  }

  delete(deadline: Deadline): void {
    this.#remove(deadline);
    if (
      this.#pending.length === 0 && this.#timer !== undefined &&
      this.#referenced
    ) {
      Deno.unrefTimer(this.#timer as unknown as number);
      this.#referenced = false;
    }
  }

  /** Takes `deadline` out in O(1): the last one moves into its slot. */
  #remove(deadline: Deadline): void {
    const slot = deadline.slot;
    if (slot < 0) return;
    deadline.slot = -1;
    const last = this.#pending.pop()!;
    if (last !== deadline) {
      this.#pending[slot] = last;
      last.slot = slot;
    }
  }

  #tick = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    // Backwards, so the deadline moved into a freed slot was looked at already.
    for (let i = this.#pending.length - 1; i >= 0; i--) {
      const deadline = this.#pending[i];
      if (deadline !== undefined && deadline.at <= now) {
        this.#remove(deadline);
        deadline.expire();
      }
    }
    if (this.#pending.length > 0) {
      this.#timer = setTimeout(this.#tick, COARSE_TICK_MS);
      this.#referenced = true;
    }
  };
}

const coarseClock = new CoarseClock();

/** `promise`, or the timeout 503 once `ms` have passed, whichever comes first. */
function withTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  if (ms === Infinity) return Promise.resolve(promise);
  return new Promise<T>((resolve, reject) => {
    let settle: () => void;
    if (ms >= COARSE_FROM_MS) {
      const deadline: Deadline = {
        at: performance.now() + ms,
        expire: () => reject(timeoutError()),
        slot: -1,
      };
      coarseClock.add(deadline);
      settle = () => coarseClock.delete(deadline);
    } else {
      const timer = setTimeout(() => reject(timeoutError()), ms);
      settle = () => clearTimeout(timer);
    }
    promise.then((value) => {
      settle();
      resolve(value);
    }, (reason) => {
      settle();
      reject(reason);
    });
  });
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
  const { trie, basePath, globalMiddleware, owner, resolveClient } = options;
  const localize = options.localizeError ?? ((error) => error);
  const logError = options.logError ??
    ((error) => console.error("Unhandled error in request:", error));
  const pending = new Set<Promise<unknown>>();
  // One 404 for every miss: building an Error (and its stack), translating it and rendering
  // its body are most of the cost of answering one, so each language's answer is kept. Made
  // at the first miss: made here it loaded Deno's Headers class inside createApp (~0.3 of
  // the empty app's ~9 ms), which the first request loads anyway.
  let notFound: HTTPError | undefined;
  const misses = new Map<string, LocalizedError>();

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

  function miss(request: Request): Response {
    const language = options.localizeError === undefined
      ? ""
      : request.headers.get("accept-language") ?? "";
    let answer = misses.get(language);
    if (answer === undefined) {
      notFound ??= new HTTPError(404);
      answer = localizedError(localize(notFound, request, undefined));
      if (misses.size < MAX_CACHED_LANGUAGES) misses.set(language, answer);
    }
    if (answer.body === null) return errorResponse(answer.error, EMPTY_STATE);
    return new Response(answer.body, {
      status: answer.error.status,
      headers: JSON_HEADERS,
    });
  }

  function respond(result: unknown, event: RequestEvent): Response {
    if (result instanceof HTTPError) return fail(result, event.request, event);
    return resultToResponse(result, {
      headers: event.hasHeaders ? event.headers : undefined,
      status: event.status,
    });
  }

  /**
   * Runs the route from stage `stage` (0 global middleware, 1 route middleware, 2 body,
   * 3 handler), middleware from index `index`. Returns the first answer (a middleware's value
   * or the handler's result), synchronously while every step is synchronous, else a promise.
   */
  function proceed(
    route: CompiledRoute,
    event: RequestEvent,
    stage: number,
    index: number,
  ): unknown {
    while (stage < 2) {
      const list = stage === 0 ? globalMiddleware : route.middleware;
      while (index < list.length) {
        const answer = list[index++](event);
        if (isThenable(answer)) {
          const at = index;
          const from = stage;
          return Promise.resolve(answer).then((value) =>
            value !== undefined ? value : proceed(route, event, from, at)
          );
        }
        if (answer !== undefined) return answer;
      }
      stage++;
      index = 0;
    }
    if (
      stage === 2 && route.maxBodySize !== Infinity && hasBody(event.request)
    ) {
      return event.bufferBody().then(() => proceed(route, event, 3, 0));
    }
    return route.handler(event);
  }

  function serveRoute(event: RequestEvent): Response | Promise<Response> {
    const route = event.route as CompiledRoute;
    const request = event.request;
    let answer: unknown;
    try {
      answer = proceed(route, event, 0, 0);
      if (!isThenable(answer)) return respond(answer, event);
    } catch (error) {
      return fail(error, request, event);
    }
    return withTimeout(
      Promise.resolve(answer).then((value) => respond(value, event)),
      route.handlerTimeout,
    ).catch((error) => fail(error, request, event));
  }

  function serveOptions(
    allowed: readonly string[],
    event: RequestEvent,
  ): Response | Promise<Response> {
    const request = event.request;
    const answerWith = (answer: unknown): Response => {
      if (answer !== undefined) return respond(answer, event);
      event.headers.set("allow", allowed.join(", "));
      return respond(null, event);
    };
    let answer: unknown;
    try {
      answer = runGlobals(event, 0);
      if (!isThenable(answer)) return answerWith(answer);
    } catch (error) {
      return fail(error, request, event);
    }
    return Promise.resolve(answer).then(answerWith).catch((error) =>
      fail(error, request, event)
    );
  }

  /** The global middleware from `index` on, for OPTIONS: the first answer or `undefined`. */
  function runGlobals(event: RequestEvent, index: number): unknown {
    while (index < globalMiddleware.length) {
      const answer = globalMiddleware[index++](event);
      if (isThenable(answer)) {
        const at = index;
        return Promise.resolve(answer).then((value) =>
          value !== undefined ? value : runGlobals(event, at)
        );
      }
      if (answer !== undefined) return answer;
    }
    return undefined;
  }

  async function withoutBody(
    response: Response | Promise<Response>,
  ): Promise<Response> {
    const full = await response;
    if (full.body === null) return full;
    await full.body.cancel();
    return new Response(null, {
      status: full.status,
      statusText: full.statusText,
      headers: full.headers,
    });
  }

  function dispatch(
    request: Request,
    info: ServeInfo | undefined,
  ): Response | Promise<Response> {
    const [rawPath, search] = splitUrl(request.url);
    let path = canonicalizePath(rawPath);
    if (path !== null && basePath !== "") {
      if (path === basePath || path === basePath + "/") path = "/";
      else if (path.startsWith(basePath + "/")) {
        path = path.slice(basePath.length);
      } else path = null;
    }
    if (path === null) return miss(request);
    const method = request.method;
    const match = trie.match(method, path);
    if (match === null) return miss(request);
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
        info,
        owner,
        trackWaitUntil,
      );
      if (resolveClient) event.resolveClient = resolveClient;
      return runWithEventArg(
        event,
        (allowed) => serveOptions(allowed, event),
        match.allowed,
      );
    }
    const route = match.value;
    const event = new RequestEvent(
      request,
      path,
      search,
      match.params,
      info,
      owner,
      trackWaitUntil,
    );
    event.route = route;
    if (resolveClient) event.resolveClient = resolveClient;
    event.maxBodySize = route.maxBodySize;
    event.waitUntilTimeout = route.waitUntilTimeout;
    const response = runWithEventArg(event, serveRoute, event);
    return method === "HEAD" ? withoutBody(response) : response;
  }

  function fetch(request: Request, info?: ServeInfo): Promise<Response> {
    let response: Response | Promise<Response>;
    try {
      response = dispatch(request, info);
    } catch (error) {
      return Promise.reject(error);
    }
    return response as Promise<Response>;
  }

  return {
    fetch,
    async close() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/**
 * Whether `request` carries a body. A declared length says so without making the body's
 * stream (see body.ts). A GET or HEAD is asked its body alone: reading a served request's
 * headers costs it a copy of them all, which a GET route that never reads one would pay.
 */
function hasBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD") {
    return request.body !== null;
  }
  return request.headers.has("content-length") || request.body !== null;
}
