/**
 * The User shape every auth response carries, `toUser`, and the ambient helpers
 * `useUser`, `requireUser` and `userCan`.
 *
 * @module
 */
import { unauthorized } from "../router/errors.ts";
import { currentEvent } from "../router/event.ts";
import {
  capabilitiesCover,
  capabilitiesOf,
  type RoleDefinition,
} from "./capabilities.ts";
import { requireApp } from "./_state.ts";
import { resolveRequestSession } from "./_resolve.ts";
import type { User } from "./to_user.ts";
import { tokenCapabilities } from "./_api_token.ts";

export { toUser, type User } from "./to_user.ts";

/** The roles every layer of the current app defines. */
export function currentRoles(): ReadonlyMap<string, RoleDefinition> {
  return requireApp().layers.roles;
}

/**
 * The capabilities a user holds: the union over their roles (an unknown role grants
 * nothing).
 *
 * @example
 * ```ts ignore
 * import { capabilitiesOfUser } from "./user.ts";
 * capabilitiesOfUser({ roles: ["admin"] }); // ["*"]
 * ```
 */
export function capabilitiesOfUser(
  user: { readonly roles: readonly string[] },
): string[] {
  return capabilitiesOf(user.roles, currentRoles());
}

/**
 * Whether the user's capabilities cover `capability` (`*`, `collection.*` and
 * `collection.Posts.*` cover what starts with their prefix). For a request made with an
 * API token, the token's capabilities must cover it too. Synchronous: the roles come
 * from the app handling the current request.
 *
 * @example
 * ```ts
 * import { defineHandler, forbidden } from "@strata/strata";
 * import { requireUser, userCan } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   const user = await requireUser();
 *   if (!userCan(user, "reports.export")) throw forbidden();
 *   return { ok: true };
 * });
 * ```
 */
export function userCan(
  user: { readonly roles: readonly string[] } | null | undefined,
  capability: string,
): boolean {
  if (!user || !Array.isArray(user.roles)) return false;
  if (!capabilitiesCover(capabilitiesOfUser(user), capability)) return false;
  // An API token's user: also within the token's capabilities.
  const limit = tokenCapabilities(user);
  return limit === undefined || capabilitiesCover(limit, capability);
}

/**
 * The signed-in user of the current request, or `null` (also outside a request). The
 * session is found at most once per request, then remembered.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { useUser } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   const user = await useUser();
 *   return { greeting: user ? `Hello ${user.email}` : "Hello stranger" };
 * });
 * ```
 */
export async function useUser(): Promise<User | null> {
  const event = currentEvent();
  if (!event) return null;
  return (await resolveRequestSession(event)).user;
}

/**
 * The signed-in user of the current request; throws a 401 `HTTPError` when there is none.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { requireUser } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   const user = await requireUser();
 *   return { email: user.email };
 * });
 * ```
 */
export async function requireUser(): Promise<User> {
  const user = await useUser();
  if (!user) throw unauthorized();
  return user;
}
