// API tokens at use: a Bearer token `strata_<base64url>` resolves to its owner, limited to
// the token's capabilities (see user.ts `userCan`), while the token lives and the owner
// exists. `lastUsedAt` is written at most once a minute per token, by a conditional update,
// so a busy token costs no write per request.
import type { App } from "../app/create_app.ts";
import { findUser } from "./_store.ts";
import { isTokenShaped, tokenHash } from "./_token.ts";
import type { User } from "./to_user.ts";

/** What every API token starts with (tells it apart from a session token). */
export const API_TOKEN_PREFIX = "strata_";

/** How often `lastUsedAt` may be written for one token. */
const LAST_USED_EVERY = 60_000;

const TOKEN_CAPABILITIES = Symbol("strata.auth.tokenCapabilities");

/** The user of an API token request: the owner, limited to the token's capabilities. */
export function limitedUser(user: User, capabilities: readonly string[]): User {
  return Object.freeze(
    Object.defineProperty({ ...user }, TOKEN_CAPABILITIES, {
      value: Object.freeze([...capabilities]),
      enumerable: false,
    }),
  );
}

/** The capabilities an API token limits `user` to; `undefined` for a session's user. */
export function tokenCapabilities(
  user: object,
): readonly string[] | undefined {
  return (user as Record<symbol, readonly string[] | undefined>)[
    TOKEN_CAPABILITIES
  ];
}

/** Whether `token` has the shape of an API token. */
export function isApiTokenShaped(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX) &&
    isTokenShaped(token.slice(API_TOKEN_PREFIX.length));
}

/** A live API token's owner (limited) and the owner's password stamp. */
export interface TokenOwner {
  readonly user: User;
  readonly stamp: string;
}

/** The owner of the live API token `token`, or null (unknown, expired, owner gone). */
export async function lookupApiToken(
  app: App,
  token: string,
): Promise<TokenOwner | null> {
  if (!app.data.collections.has("ApiTokens")) return null;
  const record = await app.query("ApiTokens")
    .where({ tokenHash: tokenHash(token) })
    .select("user", "capabilities", "expiresAt", "lastUsedAt")
    .findFirst();
  if (!record || typeof record.user !== "string") return null;
  const now = app.now();
  const expiresAt = record.expiresAt as number | null;
  if (expiresAt !== null && expiresAt <= now) return null;
  const owner = await findUser(app, record.user);
  if (!owner) return null;
  const lastUsedAt = record.lastUsedAt as number | null;
  if (lastUsedAt === null || now - lastUsedAt >= LAST_USED_EVERY) {
    await app.query("ApiTokens").where({
      UUID: record.UUID,
      or: [{ lastUsedAt: { isNull: true } }, {
        lastUsedAt: { atMost: now - LAST_USED_EVERY },
      }],
    }).update({ lastUsedAt: now }, { allowProtected: true });
  }
  return {
    user: limitedUser(owner.user, record.capabilities as string[]),
    stamp: owner.stamp,
  };
}
