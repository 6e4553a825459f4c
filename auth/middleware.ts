/**
 * The auth layer's middleware: `auth` (loads the user when signed in, never rejects),
 * `require-auth` (401 when signed out) and the global CSRF check.
 *
 * @module
 */
import {
  defineMiddleware,
  type MiddlewareDefinition,
} from "../router/handler.ts";
import { unauthorized } from "../router/errors.ts";
import { settingsOf } from "./_state.ts";
import { readCookie } from "./_token.ts";
import { withRequestSession } from "./_resolve.ts";
import { isCrossSiteWrite } from "./csrf.ts";
import type { App } from "../app/create_app.ts";

/**
 * `auth`: sets `event.context.user` to the signed-in user when there is a session and
 * leaves it unset otherwise.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * export default defineHandler(
 *   (event) => ({ signedIn: event.context.user !== undefined }),
 *   { middleware: ["auth"] },
 * );
 * ```
 */
export const authMiddleware: MiddlewareDefinition = defineMiddleware(
  (event) =>
    withRequestSession(event, ({ user }) => {
      if (user) event.context.user = user;
    }),
);

/**
 * `require-auth`: answers 401 without a session, otherwise sets `event.context.user`.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * export default defineHandler(
 *   (event) => ({ user: event.context.user }),
 *   { middleware: ["require-auth"] },
 * );
 * ```
 */
export const requireAuthMiddleware: MiddlewareDefinition = defineMiddleware(
  (event) =>
    withRequestSession(event, ({ user }) => {
      if (!user) return unauthorized();
      event.context.user = user;
    }),
);

/**
 * The global CSRF check: a cross-site write (unsafe method, foreign `Origin` not admitted
 * by a credentialed CORS middleware) that carries the session cookie of a live session is
 * refused with 403 before route middleware and handlers run. Other requests cost nothing:
 * the session is only read when all three conditions hold.
 *
 * @example
 * ```ts ignore
 * import { csrfMiddleware } from "./middleware.ts";
 * defineLayer({ name: "auth", globalMiddleware: { "~auth-csrf": csrfMiddleware } });
 * ```
 */
export const csrfMiddleware: MiddlewareDefinition = defineMiddleware(
  // Synchronous for every request that is not a cross-site write: the dispatcher then stays
  // on its promise-free path.
  (event) => {
    if (!isCrossSiteWrite(event)) return;
    const app = (event as { owner?: unknown }).owner as App;
    const cookie = readCookie(
      event.request.headers.get("cookie"),
      settingsOf(app).cookieName,
    );
    // Resolving throws the 403 for a live cookie session.
    if (cookie) return withRequestSession(event, () => undefined);
  },
);
