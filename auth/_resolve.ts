// Resolves the session of a request, once: the result is kept on the event, so however
// many helpers and middleware ask, the database is read at most once. Synchronous whenever
// the lookup is (see _session_lookup.ts), so an authenticated route whose own steps are
// synchronous stays on the dispatcher's promise-free path.
import type { App } from "../app/create_app.ts";
import type { StrataEvent } from "../router/event.ts";
import { settingsOf } from "./_state.ts";
import {
  clearedCookie,
  isTokenShaped,
  type Presentation,
  presentedToken,
} from "./_token.ts";
import { deleteSessions, type Session } from "./_store.ts";
import { lookupSession } from "./_session_lookup.ts";
import type { SessionWithUser } from "./_session_cache.ts";
import type { User } from "./to_user.ts";
import { csrfError, isCrossSiteWrite } from "./csrf.ts";
import { isApiTokenShaped, lookupApiToken } from "./_api_token.ts";

/** The session of one request. */
export interface ResolvedSession {
  /** The live session, or `null` when signed out. */
  readonly session: Session | null;
  /** Its user, or `null` when signed out. */
  readonly user: User | null;
  /**
   * How the session was presented; `created` for one opened during this request, `token`
   * for an API token (then `session` is null and `user` is limited to its capabilities).
   */
  readonly via: Presentation | "created" | "token" | null;
  /** The password stamp the session was issued under. */
  readonly stamp: string;
}

/** The resolution of a signed-out request. */
export const SIGNED_OUT: ResolvedSession = Object.freeze({
  session: null,
  user: null,
  via: null,
  stamp: "",
});

/** A request's session resolution, kept on its event: the promise while it is read. */
type Slot = ResolvedSession | Promise<ResolvedSession>;

// A symbol-keyed slot on the event rather than a WeakMap keyed by it: a WeakMap entry per
// request costs the garbage collector more than the rest of the lookup.
const SLOT = Symbol("strata.auth.session");

function slotOf(event: StrataEvent): Slot | undefined {
  return (event as unknown as Record<symbol, Slot | undefined>)[SLOT];
}

function setSlot(event: StrataEvent, slot: Slot): void {
  (event as unknown as Record<symbol, Slot>)[SLOT] = slot;
}

function appOf(event: StrataEvent): App {
  const app = (event as { owner?: unknown }).owner as App | undefined;
  if (!app?.data) {
    throw new Error("The auth helpers need a request served by createApp()");
  }
  return app;
}

function load(event: StrataEvent): ResolvedSession | Promise<ResolvedSession> {
  const app = appOf(event);
  // An app that does not stack the auth layer has no sessions: everyone is signed out.
  if (!app.data.collections.has("Sessions")) return SIGNED_OUT;
  const { cookieName } = settingsOf(app);
  const presented = presentedToken(event.request.headers, cookieName);
  if (!presented) return SIGNED_OUT;
  const signedOut = () => {
    if (presented.via === "cookie") {
      event.headers.append("set-cookie", clearedCookie(cookieName));
    }
    return SIGNED_OUT;
  };
  if (presented.via === "bearer" && isApiTokenShaped(presented.token)) {
    return lookupApiToken(app, presented.token).then((owner) =>
      owner
        ? { session: null, user: owner.user, via: "token", stamp: owner.stamp }
        : SIGNED_OUT
    );
  }
  if (!isTokenShaped(presented.token)) return signedOut();
  const settle = (
    found: SessionWithUser | null,
  ): ResolvedSession | Promise<ResolvedSession> => {
    if (!found) return signedOut();
    const { stored, owner } = found;
    if (stored.session.expiresAt <= app.now()) {
      return deleteSessions(app, { UUID: stored.session.UUID }).then(signedOut);
    }
    // A stamp that no longer matches means the password changed after the session opened.
    // The row is left for the user's next sign-in to sweep: deleting it here could race
    // with the request that changed the password and is re-stamping its own session.
    if (!owner || owner.stamp !== stored.stamp) return SIGNED_OUT;
    return {
      session: stored.session,
      user: owner.user,
      via: presented.via,
      stamp: stored.stamp,
    };
  };
  const found = lookupSession(app, presented.token);
  return found instanceof Promise ? found.then(settle) : settle(found);
}

/** `resolved`, unless a cookie session is used by a cross-site write: then the CSRF 403. */
function refuseCrossSite(
  event: StrataEvent,
  resolved: ResolvedSession,
): ResolvedSession {
  if (resolved.via === "cookie" && isCrossSiteWrite(event)) throw csrfError();
  return resolved;
}

/**
 * The session of the request `event`: the resolution itself when it is known or can be
 * read without waiting, else a promise of it. Read from the database on first use and
 * remembered. Throws the CSRF 403 when a cookie session is used by a cross-site write.
 */
function requestSession(
  event: StrataEvent,
): ResolvedSession | Promise<ResolvedSession> {
  let slot = slotOf(event);
  if (!slot) {
    const loaded = load(event);
    slot = loaded instanceof Promise
      ? loaded.then((resolved) => {
        // Kept unless the request replaced its session meanwhile.
        if (slotOf(event) === slot) setSlot(event, resolved);
        return resolved;
      })
      : loaded;
    setSlot(event, slot);
  }
  return slot instanceof Promise
    ? slot.then((resolved) => refuseCrossSite(event, resolved))
    : refuseCrossSite(event, slot);
}

/** `then(session)` on the request's session, synchronously when it is known at once. */
export function withRequestSession<T>(
  event: StrataEvent,
  then: (resolved: ResolvedSession) => T,
): T | Promise<T> {
  const resolved = requestSession(event);
  return resolved instanceof Promise ? resolved.then(then) : then(resolved);
}

/** The session of the request `event`, as a promise (see {@link requestSession}). */
export async function resolveRequestSession(
  event: StrataEvent,
): Promise<ResolvedSession> {
  return await requestSession(event);
}

/** Replaces what the rest of the request sees as its session. */
export function setRequestSession(
  event: StrataEvent,
  resolved: ResolvedSession,
): void {
  setSlot(event, resolved);
}

/** The session of `event` if it was already resolved, without waiting or reading. */
export function settledRequestSession(
  event: StrataEvent,
): ResolvedSession | undefined {
  const slot = slotOf(event);
  return slot instanceof Promise ? undefined : slot;
}

/**
 * Whether the session the request `event` was served under is still live now: it still
 * exists (no logout on any instance), has not expired, and its password stamp still holds.
 * A request served signed out stays allowed (it had nothing to end). Reads the database;
 * while live, the request's user is replaced by the one just read (its roles may have
 * changed), so what the request decides next uses it.
 */
export async function sessionStillLive(event: StrataEvent): Promise<boolean> {
  const served = settledRequestSession(event);
  const app = appOf(event);
  const presented = presentedToken(
    event.request.headers,
    settingsOf(app).cookieName,
  );
  if (served?.via === "token") {
    // An API token: live while it is not revoked or expired and its owner exists.
    if (!presented) return false;
    const owner = await lookupApiToken(app, presented.token);
    if (owner === null || owner.user.UUID !== served.user?.UUID) return false;
    setRequestSession(event, { ...served, user: owner.user });
    return true;
  }
  if (!served?.session) return true;
  if (!presented) return false;
  const found = await lookupSession(app, presented.token);
  if (!found || found.stored.session.UUID !== served.session.UUID) return false;
  if (found.stored.session.expiresAt <= app.now()) return false;
  if (found.owner === null || found.owner.stamp !== found.stored.stamp) {
    return false;
  }
  setRequestSession(event, { ...served, user: found.owner.user });
  return true;
}
