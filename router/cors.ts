/**
 * A CORS middleware factory; place its result in `middleware/global/`.
 *
 * @module
 */
import type { StrataEvent } from "./event.ts";
import { defineMiddleware, type MiddlewareDefinition } from "./handler.ts";

/** Options of {@link cors}. */
export interface CorsOptions {
  /** Allowed origins: `"*"`, one origin, a list, or a predicate. Default `"*"`. */
  origin?: string | readonly string[] | ((origin: string) => boolean);
  /**
   * Send `Access-Control-Allow-Credentials: true` to the admitted origins. Refused with the
   * `"*"` origin (the default): any site could then act as the signed-in user.
   */
  credentials?: boolean;
  /** Methods a preflight allows. Default: GET, HEAD, PUT, PATCH, POST, DELETE. */
  methods?: readonly string[];
  /** Request headers a preflight allows. Default: those the preflight asks for. */
  allowHeaders?: readonly string[];
  /** Response headers exposed to the page. */
  exposeHeaders?: readonly string[];
  /** How long a preflight may be cached, in seconds. */
  maxAge?: number;
}

const CREDENTIALED = Symbol.for("strata.cors.credentialed");

/**
 * Whether a CORS middleware admitted the request's `Origin` with credentials; the auth
 * layer's CSRF check trusts such origins.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { isCorsCredentialed } from "./cors.ts";
 * export default defineHandler((event) => ({ trusted: isCorsCredentialed(event) }));
 * ```
 */
export function isCorsCredentialed(event: StrataEvent): boolean {
  return (event.context as Record<symbol, unknown>)[CREDENTIALED] === true;
}

function originMatcher(
  origin: CorsOptions["origin"],
): (origin: string) => boolean {
  if (origin === undefined || origin === "*") return () => true;
  if (typeof origin === "function") return origin;
  const allowed = new Set(typeof origin === "string" ? [origin] : origin);
  return (value) => allowed.has(value);
}

/**
 * Builds a global CORS middleware: it answers preflight requests (`OPTIONS` with
 * `Access-Control-Request-Method`) with 204 and adds the CORS headers to every other answer,
 * errors included. `credentials: true` needs named origins (or a predicate): with `"*"` it
 * throws, so the mistake fails the boot.
 *
 * @example
 * ```ts
 * // middleware/global/cors.ts
 * import { cors } from "@strata/strata";
 * export default cors({ origin: ["https://app.example"], credentials: true });
 * ```
 */
export function cors(options: CorsOptions = {}): MiddlewareDefinition {
  const wildcard = options.origin === undefined || options.origin === "*";
  if (wildcard && options.credentials === true) {
    throw new TypeError(
      'cors(): credentials: true cannot be combined with origin "*" (every site could act as the signed-in user); name the allowed origins, e.g. cors({ origin: ["https://app.example"], credentials: true })',
    );
  }
  const allows = originMatcher(options.origin);
  const methods = (options.methods ??
    ["GET", "HEAD", "PUT", "PATCH", "POST", "DELETE"]).join(", ");
  const credentials = options.credentials === true;
  return defineMiddleware((event) => {
    const origin = event.request.headers.get("origin");
    if (origin === null || !allows(origin)) return;
    const headers = event.headers;
    if (wildcard) {
      headers.set("access-control-allow-origin", "*");
    } else {
      headers.set("access-control-allow-origin", origin);
      headers.append("vary", "Origin");
    }
    if (credentials) {
      headers.set("access-control-allow-credentials", "true");
      (event.context as Record<symbol, unknown>)[CREDENTIALED] = true;
    }
    if (options.exposeHeaders?.length) {
      headers.set(
        "access-control-expose-headers",
        options.exposeHeaders.join(", "),
      );
    }
    const requested = event.request.headers.get(
      "access-control-request-method",
    );
    if (event.method !== "OPTIONS" || requested === null) return;
    headers.set("access-control-allow-methods", methods);
    const allowHeaders = options.allowHeaders?.join(", ") ??
      event.request.headers.get("access-control-request-headers");
    if (allowHeaders) headers.set("access-control-allow-headers", allowHeaders);
    if (options.maxAge !== undefined) {
      headers.set("access-control-max-age", String(options.maxAge));
    }
    return new Response(null, { status: 204 });
  });
}
