// Resolves the session of a request, once: the result is cached per event, so however
// many helpers and middleware ask, the database is read once.
import type { App } from "../app/create_app.ts";
import type { StrataEvent } from "../router/event.ts";
import { createHash } from "node:crypto";
import { settingsOf } from "./_state.ts";
import {
  clearedCookie,
  isTokenShaped,
  type Presentation,
  presentedToken,
} from "./_token.ts";
import { deleteSessions, type Session } from "./_store.ts";
import { findSessionWithUser } from "./_session_lookup.ts";
import type { User } from "./to_user.ts";
import { csrfError, isCrossSiteWrite } from "./csrf.ts";

/** The session of one request. */
export interface ResolvedSession {
  /** The live session, or `null` when signed out. */
  readonly session: Session | null;
  /** Its user, or `null` when signed out. */
  readonly user: User | null;
  /** How the session was presented; `created` for one opened during this request. */
  readonly via: Presentation | "created" | null;
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

/** A request's session resolution, kept on its event. */
interface Slot {
  readonly resolution: Promise<ResolvedSession>;
  /** The same once settled, for readers that must not wait. */
  settled?: ResolvedSession;
}

// A symbol-keyed slot on the event rather than a WeakMap keyed by it: a WeakMap entry per
// request costs the garbage collector more than the rest of the lookup.
const SLOT = Symbol("strata.auth.session");

function slotOf(event: StrataEvent): Slot | undefined {
  return (event as unknown as Record<symbol, Slot | undefined>)[SLOT];
}

function setSlot(event: StrataEvent, slot: Slot): void {
  (event as unknown as Record<symbol, Slot>)[SLOT] = slot;
}

/**
 * The stored form of a token: its SHA-256 in base64url (as `sha256Base64Url` of
 * `utils/crypto.ts`), computed synchronously: on this path WebCrypto's asynchronous digest
 * costs more in scheduling than in hashing.
 */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

function appOf(event: StrataEvent): App {
  const app = (event as { owner?: unknown }).owner as App | undefined;
  if (!app?.data) {
    throw new Error("The auth helpers need a request served by createApp()");
  }
  return app;
}

async function load(event: StrataEvent): Promise<ResolvedSession> {
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
  if (!isTokenShaped(presented.token)) return signedOut();
  const found = await findSessionWithUser(app, tokenHash(presented.token));
  if (!found) return signedOut();
  const { stored, owner } = found;
  if (stored.session.expiresAt <= app.now()) {
    await deleteSessions(app, { UUID: stored.session.UUID });
    return signedOut();
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
}

/**
 * The session of the request `event`, read from the database on first use and remembered.
 * Throws the CSRF 403 when a cookie session is used by a cross-site write.
 */
export async function resolveRequestSession(
  event: StrataEvent,
): Promise<ResolvedSession> {
  let slot = slotOf(event);
  if (!slot) {
    const own: Slot = {
      resolution: load(event).then((resolved) => {
        if (slotOf(event) === own) own.settled = resolved;
        return resolved;
      }),
    };
    setSlot(event, slot = own);
  }
  const resolved = await slot.resolution;
  if (resolved.via === "cookie" && isCrossSiteWrite(event)) throw csrfError();
  return resolved;
}

/** Replaces what the rest of the request sees as its session. */
export function setRequestSession(
  event: StrataEvent,
  resolved: ResolvedSession,
): void {
  setSlot(event, { resolution: Promise.resolve(resolved), settled: resolved });
}

/** The session of `event` if it was already resolved, without waiting or reading. */
export function settledRequestSession(
  event: StrataEvent,
): ResolvedSession | undefined {
  return slotOf(event)?.settled;
}
