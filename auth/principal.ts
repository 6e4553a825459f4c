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
import { capabilitiesOfUser, type User, userCan, useUser } from "./user.ts";
import { tokenCapabilities } from "./_api_token.ts";
import { ACTOR_HOOK } from "../collections/changes/log.ts";
import { currentEvent, type StrataEvent } from "../router/event.ts";
import { sessionStillLive, settledRequestSession } from "./_resolve.ts";
import {
  STREAM_ALIVE_HOOK,
  STREAM_SUBJECT_HOOK,
} from "../collections/api/events_route.ts";

async function principal(): Promise<Principal> {
  const user = await useUser();
  if (!user) return ANONYMOUS;
  return Object.freeze({
    signedIn: true,
    can: (capability: string) => userCan(user, capability),
    // Computed only when asked (event streams): requests never need it.
    get key() {
      const names = (list: readonly string[]) => [...new Set(list)].sort();
      return JSON.stringify([
        names(capabilitiesOfUser(user)),
        names(tokenCapabilities(user) ?? ["*"]),
      ]);
    },
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

/**
 * The acting user of a write, for the change log: the signed-in user of the current request
 * once its session is known (every guarded collections API write resolves it first), else
 * `null`.
 */
function actor(): User | null {
  const event = currentEvent();
  if (!event) return null;
  return settledRequestSession(event)?.user ?? null;
}

/**
 * The registration of the acting user on `record:actor`.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [actorHook] });
 * ```
 */
export const actorHook: HookRegistration = hook(ACTOR_HOOK, actor);

/**
 * The registration of the session re-check of open event streams: a stream closes once the
 * session it was opened under ends (logout on any instance, expiry, password change).
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [streamAliveHook] });
 * ```
 */
export const streamAliveHook: HookRegistration = hook(
  STREAM_ALIVE_HOOK,
  sessionStillLive,
);

/**
 * The registration of an event stream's subject: the signed-in user's record, whose change
 * (roles, fields a scope reads, password) makes the stream re-check its session and grant
 * before the next event.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [streamSubjectHook] });
 * ```
 */
export const streamSubjectHook: HookRegistration = hook(
  STREAM_SUBJECT_HOOK,
  (event: StrataEvent) => {
    const user = settledRequestSession(event)?.user;
    return user ? { collection: "Users", uuid: user.UUID } : null;
  },
);
