/**
 * The signed-in user's `dashboardLanguage` as a language preference of the request, after
 * `Accept-Language`, for translated messages (the `messages:user-language` hook), and the
 * global middleware that makes it hold on every route: messages render synchronously, so a
 * request whose `Accept-Language` names no catalog's language and that presents a session
 * has its session resolved before any handler runs.
 *
 * @module
 */
import { hook, type HookRegistration } from "../app/hooks.ts";
import { USER_LANGUAGE_HOOK } from "../app/messages.ts";
import type { App } from "../app/create_app.ts";
import type { StrataEvent } from "../router/event.ts";
import {
  defineMiddleware,
  type MiddlewareDefinition,
} from "../router/handler.ts";
import { settingsOf } from "./_state.ts";
import { presentedToken } from "./_token.ts";
import { settledRequestSession, withRequestSession } from "./_resolve.ts";

/**
 * The registration on `messages:user-language`.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [userLanguageHook] });
 * ```
 */
export const userLanguageHook: HookRegistration = hook(
  USER_LANGUAGE_HOOK,
  (event: StrataEvent) =>
    settledRequestSession(event)?.user?.dashboardLanguage ?? null,
);

/** Name of the global middleware; sorts after the CSRF check (`~auth-csrf`). */
export const USER_LANGUAGE_MIDDLEWARE_NAME = "~auth-language";

/**
 * Resolves the session of a request that presents one and whose `Accept-Language` names no
 * language the catalogs hold, so the user's `dashboardLanguage` can pick the messages.
 * Synchronous (and free) for every other request.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", globalMiddleware: { "~auth-language": userLanguageMiddleware } });
 * ```
 */
export const userLanguageMiddleware: MiddlewareDefinition = defineMiddleware(
  (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    if (app.messages.acceptsServedLanguage(event.request)) return;
    if (settledRequestSession(event) !== undefined) return;
    const presented = presentedToken(
      event.request.headers,
      settingsOf(app).cookieName,
    );
    if (presented) return withRequestSession(event, () => undefined);
  },
);
