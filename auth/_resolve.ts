// Resolves the session of a request, once: the result is cached per event, so however
// many helpers and middleware ask, the database is read once.
import type { App } from "../app/create_app.ts";
import type { StrataEvent } from "../router/event.ts";
import { sha256Base64Url } from "../utils/crypto.ts";
import { settingsOf } from "./_state.ts";
import {
  clearedCookie,
  isTokenShaped,
  type Presentation,
  presentedToken,
} from "./_token.ts";
import {
  deleteSessions,
  findSessionByHash,
  findUser,
  type Session,
} from "./_store.ts";
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

const resolutions = new WeakMap<StrataEvent, Promise<ResolvedSession>>();

function appOf(event: StrataEvent): App {
  const app = (event as { owner?: unknown }).owner as App | undefined;
  if (!app?.data) {
    throw new Error("The auth helpers need a request served by createApp()");
  }
  return app;
}

async function load(event: StrataEvent): Promise<ResolvedSession> {
  const app = appOf(event);
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
  const stored = await findSessionByHash(
    app,
    await sha256Base64Url(presented.token),
  );
  if (!stored) return signedOut();
  if (stored.session.expiresAt <= app.now()) {
    await deleteSessions(app, { UUID: stored.session.UUID });
    return signedOut();
  }
  const owner = await findUser(app, stored.session.user);
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
  let resolution = resolutions.get(event);
  if (!resolution) {
    resolution = load(event);
    resolutions.set(event, resolution);
  }
  const resolved = await resolution;
  if (resolved.via === "cookie" && isCrossSiteWrite(event)) throw csrfError();
  return resolved;
}

/** Replaces what the rest of the request sees as its session. */
export function setRequestSession(
  event: StrataEvent,
  resolved: ResolvedSession,
): void {
  resolutions.set(event, Promise.resolve(resolved));
}
