// Session lookups kept while the database provably stays the same. Every entry belongs to one
// database version (DirectReader.version: any write through the app's connection, any commit
// by another connection or process); the first lookup at a new version drops them all. A
// session ended anywhere is therefore never served from here, which is what lets the hot
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

/** Lookups by token of one database, valid for one version of it at a time. */
export class SessionCache {
  #version: number | undefined;
  readonly #entries = new Map<string, SessionWithUser>();

  /** A copy of the lookup of `token`, if it was made at `version`. */
  get(version: number, token: string): SessionWithUser | undefined {
    if (version !== this.#version) {
      this.#entries.clear();
      this.#version = version;
      return undefined;
    }
    const found = this.#entries.get(token);
    return found && copyOf(found);
  }

  /** Keeps a copy of the lookup of `token`, made at `version`. */
  set(version: number, token: string, found: SessionWithUser): void {
    if (version !== this.#version) return;
    if (this.#entries.size >= LIMIT) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(token, copyOf(found));
  }
}
