/**
 * The auth layer of Strata (`@strata/strata/auth`): email + password sign-in with
 * server-side sessions, the `Users` and `Sessions` collections, the `/auth` endpoints and
 * the helpers route handlers use.
 *
 * Stack {@link authLayer} in `strata.config.ts`; then `useUser()`, `requireUser()` and
 * `userCan()` tell handlers who is calling. A session token travels in the session cookie
 * (`HttpOnly; Secure; SameSite=Lax`) or as `Authorization: Bearer <token>`; only its
 * SHA-256 is stored. `queryScoped` gives trusted code the collections API policy.
 *
 * @example
 * ```ts
 * // api/reports.get.ts
 * import { defineHandler, forbidden, query } from "@strata/strata";
 * import { requireUser, userCan } from "@strata/strata/auth";
 *
 * export default defineHandler(async () => {
 *   const user = await requireUser(); // 401 when signed out
 *   if (!userCan(user, "collection.Reports.read")) throw forbidden();
 *   return query("Reports").order("-createdAt").limit(10).findMany();
 * });
 * ```
 *
 * @module
 */
import {
  dummyVerify as verifyNothing,
  type PasswordOptions,
} from "../utils/crypto.ts";
import { currentApp, settingsOf } from "./_state.ts";

export { authLayer, CSRF_MIDDLEWARE_NAME } from "./layer.ts";
export { requireUser, toUser, type User, userCan, useUser } from "./user.ts";
export {
  type CreatedSession,
  createSession,
  destroySession,
  type Session,
  useSession,
} from "./session.ts";
export { usersDefinition, type UsersFields } from "./users.ts";
export { sessionsDefinition, type SessionsFields } from "./sessions.ts";
export { apiTokensDefinition, type ApiTokensFields } from "./api_tokens.ts";
export { queryScoped } from "./query_scoped.ts";
export {
  ACCOUNT_FIELDS_HOOK,
  type AccountFieldsHook,
  DEFAULT_ACCOUNT_FIELDS,
} from "./account_fields.ts";
export type {
  AuthSettings,
  LoginRateLimit,
  ResetRateLimit,
  SignupSettings,
} from "./settings.ts";
export type { PasswordOptions } from "../utils/crypto.ts";

/**
 * Spends the time of one real password check without checking anything, for the
 * no-such-user path of a sign-in route, so timing does not reveal which accounts exist.
 * Uses the app's `auth.password` options unless `options` are given.
 *
 * @example
 * ```ts
 * import { defineHandler, query, unauthorized } from "@strata/strata";
 * import { dummyVerify } from "@strata/strata/auth";
 * export default defineHandler(async (event) => {
 *   const { email } = await event.body<{ email: string }>();
 *   const user = await query("Users").where({ email }).findFirst();
 *   if (!user) {
 *     await dummyVerify();
 *     throw unauthorized("Invalid email or password");
 *   }
 *   return { ok: true };
 * });
 * ```
 */
export function dummyVerify(options?: PasswordOptions): Promise<void> {
  const app = currentApp();
  return verifyNothing(options ?? (app ? settingsOf(app).password : {}));
}
