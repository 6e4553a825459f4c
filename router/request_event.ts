/**
 * The concrete event the dispatcher creates per request.
 *
 * @module
 */
import type { StrataEvent } from "./event.ts";
import { parseJsonBody, readBodyWithLimit } from "./body.ts";
import type { ClientResolver, ForwardedClient } from "./forwarded.ts";

/** Where the client address comes from: `Deno.serve`'s info, read only when asked for. */
export interface RemoteInfo {
  /** The client address. */
  readonly remoteAddr?: { readonly hostname?: string };
}

/** A promise handed to `waitUntil`, tracked until it settles or its time is up. */
export type WaitUntilSink = (
  promise: Promise<unknown>,
  timeout: number,
) => void;

/** The event of one request; {@link StrataEvent} is its public face. */
export class RequestEvent implements StrataEvent {
  readonly request: Request;
  readonly method: string;
  readonly path: string;
  params: Record<string, string>;
  status: number | undefined = undefined;
  /** What owns this request (the app), for ambient helpers. */
  readonly owner: unknown;
  /** The route being served (the dispatcher's own record), `undefined` for OPTIONS. */
  route: unknown = undefined;
  /** The outputs of a validated route's schemas. */
  valid: Readonly<Record<string, unknown>> | undefined = undefined;
  /** Body size limit in bytes (`Infinity` when lifted). */
  maxBodySize = Infinity;
  /** `waitUntil` time limit in ms (`Infinity` when lifted). */
  waitUntilTimeout = Infinity;
  #url: URL | undefined;
  #search: string;
  #query: URLSearchParams | undefined;
  #headers: Headers | undefined;
  #bytes: Promise<Uint8Array | null> | undefined;
  #json: Promise<unknown> | undefined;
  #waitUntil: WaitUntilSink;
  #info: RemoteInfo | undefined;
  #client: ForwardedClient | undefined;
  /** Reads the client behind trusted proxies (`api.trustProxy`); unset: the socket. */
  resolveClient: ClientResolver | undefined = undefined;
  #context: Record<string, unknown> | undefined;

  constructor(
    request: Request,
    path: string,
    search: string,
    params: Record<string, string>,
    info: RemoteInfo | undefined,
    owner: unknown,
    waitUntil: WaitUntilSink,
  ) {
    this.request = request;
    this.method = request.method;
    this.path = path;
    this.#search = search;
    this.params = params;
    this.#info = info;
    this.owner = owner;
    this.#waitUntil = waitUntil;
  }

  /** Request-scoped values written by middleware, such as `context.user`. */
  get context(): Record<string, unknown> {
    return this.#context ??= {};
  }

  /**
   * The client address (empty when unknown): the socket's, or behind trusted proxies the one
   * they forward. `Deno.serve` computes the socket address on demand.
   */
  get ip(): string {
    return this.client.ip;
  }

  /** The client address and whether it spoke HTTPS (to the app or the trusted proxy). */
  get client(): ForwardedClient {
    if (this.#client) return this.#client;
    const socket = this.#info?.remoteAddr?.hostname ?? "";
    const secure = this.request.url.startsWith("https:");
    return this.#client = this.resolveClient
      ? this.resolveClient(this.request.headers, socket, secure)
      : { ip: socket, secure };
  }

  get url(): URL {
    return this.#url ??= new URL(this.request.url);
  }

  get query(): URLSearchParams {
    return this.#query ??= new URLSearchParams(this.#search);
  }

  /** The raw query string (without the `?`; empty when none), as the request sent it. */
  get search(): string {
    return this.#search;
  }

  get headers(): Headers {
    return this.#headers ??= new Headers();
  }

  /** Whether any response header was set, without creating the Headers object. */
  get hasHeaders(): boolean {
    return this.#headers !== undefined;
  }

  /** Buffers the body under the size limit (413 past it); called before the handler runs. */
  bufferBody(): Promise<Uint8Array | null> {
    return this.#bytes ??= readBodyWithLimit(this.request, this.maxBodySize);
  }

  body<T = unknown>(): Promise<T> {
    this.#json ??= this.bufferBody().then((bytes) =>
      parseJsonBody(bytes, this.request.headers.get("content-type"))
    );
    return this.#json as Promise<T>;
  }

  waitUntil(promise: Promise<unknown>): void {
    this.#waitUntil(promise, this.waitUntilTimeout);
  }
}
