// Session lookups kept while the sign-in tables provably stay the same. Every entry belongs to
// one version of them (_session_version.ts: any insert, update or delete of Users or
// Sessions, by any connection or process); the first lookup at a new version drops them all.
// A session ended anywhere is therefore never served from here, which is what lets the hot
// path skip the read (and the token's SHA-256) without weakening "ended at once".
import type { Session } from "./_store.ts";
import type { User } from "./to_user.ts";

/** What a lookup found: the session, its password stamp and its user (or `null`). */
export interface SessionWithUser {
  readonly stored: { readonly session: Session; readonly stamp: string };
  readonly owner: { readonly user: User; readonly stamp: string } | null;
}

/** Entries kept at most; the oldest goes first. Bounds memory against token floods. */
const LIMIT = 10_000;

/** A fresh copy, so a handler that mutates its user or session cannot touch the cache. */
function copyOf(found: SessionWithUser): SessionWithUser {
  const { stored, owner } = found;
  return {
    stored: { session: { ...stored.session }, stamp: stored.stamp },
    owner: owner && {
      user: { ...owner.user, roles: [...owner.user.roles] },
      stamp: owner.stamp,
    },
  };
}

interface Entry {
  readonly found: SessionWithUser;
  /** The version of the sign-in tables the lookup was made at. */
  readonly version: number;
}

/**
 * Lookups by token of one database, each valid for the version it was made at. The newest
 * version seen tells, without asking the database, that an entry made earlier is stale:
 * after a session or user changes anywhere, every session is read again in one statement
 * (which also reads the version), with no separate version check first.
 */
export class SessionCache {
  #newest = -1;
  readonly #entries = new Map<string, Entry>();

  /** Whether a lookup of `token` may be served here once the version is confirmed. */
  hasCurrent(token: string): boolean {
    return this.#entries.get(token)?.version === this.#newest;
  }

  /** A copy of the lookup of `token`, if it was made at `version` (the version now). */
  get(version: number, token: string): SessionWithUser | undefined {
    this.#see(version);
    const entry = this.#entries.get(token);
    return entry?.version === version ? copyOf(entry.found) : undefined;
  }

  /** Keeps a copy of the lookup of `token`, made at `version`. */
  set(version: number, token: string, found: SessionWithUser): void {
    this.#see(version);
    if (version !== this.#newest) return;
    this.#entries.delete(token);
    if (this.#entries.size >= LIMIT) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(token, { found: copyOf(found), version });
  }

  #see(version: number): void {
    if (version > this.#newest) this.#newest = version;
  }
}
