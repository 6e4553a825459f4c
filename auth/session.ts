/**
 * Sessions: `createSession`, `useSession` and `destroySession`. A session token is 32
 * random bytes (base64url); only its SHA-256 is stored, beside `expiresAt`.
 *
 * @module
 */
import type { App } from "../app/create_app.ts";
import { currentEvent, type StrataEvent, useEvent } from "../router/event.ts";
import { randomToken } from "../utils/crypto.ts";
import { settingsOf } from "./_state.ts";
import { clearedCookie, sessionCookie, tokenHash } from "./_token.ts";
import {
  deleteSessions,
  insertSession,
  lockUser,
  type Session,
} from "./_store.ts";
import {
  resolveRequestSession,
  setRequestSession,
  SIGNED_OUT,
} from "./_resolve.ts";

export type { Session } from "./_store.ts";

/** What {@link createSession} returns. */
export interface CreatedSession {
  /**
   * The raw token, also set as the cookie. Hand it to API clients that authenticate with
   * `Authorization: Bearer <token>`; it is not stored anywhere.
   */
  token: string;
  /** The new session. */
  session: Session;
}

const MAX_USER_AGENT = 512;

function appOf(event: StrataEvent): App {
  const app = (event as { owner?: unknown }).owner as App | undefined;
  if (!app?.data) {
    throw new Error("The auth helpers need a request served by createApp()");
  }
  return app;
}

/**
 * Opens a session for the user `userUuid` and sets the session cookie on the response.
 * `remember` (default `true`) gives the `auth.sessionMaxAge` lifetime and a persistent
 * cookie; `false` gives `auth.transientSessionMaxAge` and a cookie that ends with the
 * browser. A session the request presented by cookie is replaced. The rest of the request
 * sees the new user (`useUser()`).
 *
 * @example
 * ```ts
 * // api/signup.post.ts: account creation is the app's own route
 * import { defineHandler, query, unprocessableContent } from "@strata/strata";
 * import { createSession, toUser } from "@strata/strata/auth";
 * export default defineHandler(async (event) => {
 *   const { email, password } = await event.body<{ email: string; password: string }>();
 *   const result = await query("Users").create({ email, password });
 *   if (!result.ok) throw unprocessableContent(undefined, { errors: result.errors });
 *   await createSession(result.record.UUID, false);
 *   return toUser(result.record);
 * });
 * ```
 */
export async function createSession(
  userUuid: string,
  remember = true,
): Promise<CreatedSession> {
  if (typeof userUuid !== "string" || userUuid === "") {
    throw new TypeError("createSession() needs the UUID of a user");
  }
  const event = useEvent();
  const created = await openSession(appOf(event), event, userUuid, remember);
  if (!created) throw new Error(`createSession(): no user ${userUuid}`);
  return created;
}

/**
 * Opens a session as {@link createSession} does, in one transaction holding the user's row
 * (so no password change interleaves). With `verifiedStamp` (the password stamp a login
 * checked the password against), nothing is opened if the password changed since: the
 * session would belong to a password that no longer exists. Resolves to `null` when the
 * user is gone or its password changed.
 *
 * @example
 * ```ts ignore
 * const created = await openSession(app, event, stored.user.UUID, false, stored.stamp);
 * if (!created) throw unauthorized();
 * ```
 */
export async function openSession(
  app: App,
  event: StrataEvent,
  userUuid: string,
  remember: boolean,
  verifiedStamp?: string,
): Promise<CreatedSession | null> {
  const settings = settingsOf(app);
  const previous = await resolveRequestSession(event);
  const token = randomToken(32);
  const lifetime = remember
    ? settings.sessionMaxAge
    : settings.transientSessionMaxAge;
  const userAgent = event.request.headers.get("user-agent");
  const opened = await app.data.transaction(async () => {
    const owner = await lockUser(app, userUuid);
    if (!owner) return null;
    if (verifiedStamp !== undefined && owner.stamp !== verifiedStamp) {
      return null;
    }
    if (previous.session && previous.via === "cookie") {
      await deleteSessions(app, { UUID: previous.session.UUID });
    }
    const now = app.now();
    const session = await insertSession(app, {
      user: userUuid,
      tokenHash: tokenHash(token),
      expiresAt: now + lifetime,
      remember: remember === true,
      createdAt: now,
      userAgent: userAgent ? userAgent.slice(0, MAX_USER_AGENT) : null,
      passwordStamp: owner.stamp,
    });
    // Sweep the account's dead sessions: expired ones, and those a password change ended
    // (the stamp is current: the user's row is held, so no change is half-way through).
    await deleteSessions(app, {
      user: userUuid,
      or: [{ expiresAt: { atMost: now } }, {
        not: { passwordStamp: owner.stamp },
      }],
    });
    return { owner, session };
  });
  if (!opened) return null;
  const { owner, session } = opened;
  event.headers.append(
    "set-cookie",
    sessionCookie(settings.cookieName, token, remember ? lifetime : undefined),
  );
  setRequestSession(event, {
    session,
    user: owner.user,
    via: "created",
    stamp: owner.stamp,
  });
  return { token, session };
}

/**
 * The session of the current request, or `null` (also outside a request). Found at most
 * once per request, then remembered.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { useSession } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   const session = await useSession();
 *   return { expiresAt: session?.expiresAt ?? null };
 * });
 * ```
 */
export async function useSession(): Promise<Session | null> {
  const event = currentEvent();
  if (!event) return null;
  return (await resolveRequestSession(event)).session;
}

/**
 * Ends the current request's session (its row is deleted) and clears the cookie. Without
 * a session it only clears the cookie.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { destroySession } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   await destroySession();
 *   return { ok: true };
 * });
 * ```
 */
export async function destroySession(): Promise<void> {
  const event = useEvent();
  const app = appOf(event);
  const { session } = await resolveRequestSession(event);
  if (session) await deleteSessions(app, { UUID: session.UUID });
  event.headers.append("set-cookie", clearedCookie(settingsOf(app).cookieName));
  setRequestSession(event, SIGNED_OUT);
}
