/**
 * The caller as the collections API sees it: the auth layer registers this resolver on
 * the `collections:principal` hook, so guarded operations check the signed-in user's
 * capabilities.
 *
 * @module
 */
import { hook, type HookRegistration } from "../app/hooks.ts";
import {
  ANONYMOUS,
  type Principal,
  PRINCIPAL_HOOK,
} from "../collections/api/principal.ts";
import { userCan, useUser } from "./user.ts";

async function principal(): Promise<Principal> {
  const user = await useUser();
  if (!user) return ANONYMOUS;
  return Object.freeze({
    signedIn: true,
    can: (capability: string) => userCan(user, capability),
  });
}

/**
 * The registration of the resolver on `collections:principal`.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [principalHook] });
 * ```
 */
export const principalHook: HookRegistration = hook(PRINCIPAL_HOOK, principal);
