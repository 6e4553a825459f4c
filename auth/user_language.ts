/**
 * The signed-in user's `dashboardLanguage` as a language preference of the request, after
 * `Accept-Language`, for translated messages (the `messages:user-language` hook). It never
 * reads the database: a request whose session was not resolved yet has no user language.
 *
 * @module
 */
import { hook, type HookRegistration } from "../app/hooks.ts";
import { USER_LANGUAGE_HOOK } from "../app/messages.ts";
import type { StrataEvent } from "../router/event.ts";
import { settledRequestSession } from "./_resolve.ts";

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
