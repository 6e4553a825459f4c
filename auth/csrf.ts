/**
 * CSRF protection: a request authenticated by the session cookie whose method is unsafe
 * and whose `Origin` is foreign is refused with 403 before anything runs.
 *
 * @module
 */
import { forbidden, type HTTPError } from "../router/errors.ts";
import type { StrataEvent } from "../router/event.ts";
import { isCorsCredentialed } from "../router/cors.ts";

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether the request's `Origin` names the request's own site: its URL's origin, or the
 * host it was addressed to (`Host`, or `X-Forwarded-Host` behind a proxy, which a
 * cross-site page cannot set without a CORS preflight). Comparing hosts keeps a
 * TLS-terminating proxy (browser on `https:`, app on `http:`) working.
 */
function isOwnOrigin(event: StrataEvent, origin: string): boolean {
  if (origin === event.url.origin) return true;
  const host = hostOf(origin);
  if (host === undefined) return false;
  const headers = event.request.headers;
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0].trim();
  return host === event.url.host || host === headers.get("host") ||
    host === forwarded;
}

/**
 * Whether a request with an unsafe method comes from a foreign origin that no CORS
 * middleware admitted with credentials; such a request must not use the session cookie.
 *
 * @example
 * ```ts ignore
 * import { isCrossSiteWrite } from "./csrf.ts";
 * if (isCrossSiteWrite(event)) throw forbidden();
 * ```
 */
export function isCrossSiteWrite(event: StrataEvent): boolean {
  if (SAFE_METHODS.has(event.method)) return false;
  const origin = event.request.headers.get("origin");
  if (origin === null || isOwnOrigin(event, origin)) return false;
  return !isCorsCredentialed(event);
}

/**
 * The 403 answered to a cross-site write authenticated by the session cookie.
 *
 * @example
 * ```ts ignore
 * import { csrfError } from "./csrf.ts";
 * throw csrfError();
 * ```
 */
export function csrfError(): HTTPError {
  return forbidden("Cross-site request refused");
}
