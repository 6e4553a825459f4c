// Single-use tokens of mailed links: 32 random bytes (base64url) in the link, only their
// SHA-256 in the database. Consuming deletes the row in the same statement that reads it, so
// of two concurrent uses exactly one succeeds.
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import { randomToken } from "../utils/crypto.ts";
import { ACCOUNT_TOKENS_TABLE } from "./_tables.ts";
import { isTokenShaped, tokenHash } from "./_token.ts";

/** What a mailed token is for. */
export type TokenPurpose = "verify" | "reset" | "email";

/** A consumed token: whose it was and the address it named. */
export interface ConsumedToken {
  readonly user: string;
  readonly email: string;
}

/**
 * Issues a token for `purpose`; with `replace`, every earlier token of the user for the same
 * purpose stops working. Resolves to the raw token (for the link).
 */
export async function issueAccountToken(
  app: App,
  purpose: TokenPurpose,
  user: string,
  email: string,
  maxAge: number,
  replace: boolean,
): Promise<string> {
  const token = randomToken(32);
  const now = app.now();
  const db = kyselyOf(app.data.executor());
  if (replace) {
    await db.deleteFrom(ACCOUNT_TOKENS_TABLE).where("user", "=", user)
      .where("purpose", "=", purpose).execute();
  }
  // Expired tokens of anyone are swept now and then.
  if (Math.random() < 0.05) {
    await db.deleteFrom(ACCOUNT_TOKENS_TABLE).where("expiresAt", "<=", now)
      .execute();
  }
  await db.insertInto(ACCOUNT_TOKENS_TABLE).values({
    tokenHash: tokenHash(token),
    purpose,
    user,
    email,
    expiresAt: now + maxAge,
  }).execute();
  return token;
}

/**
 * Consumes `token` if it is a live token for `purpose`: the row is deleted and its user and
 * address returned; `null` for an unknown, used, expired or malformed token (all alike).
 * Inside a transaction, a rollback leaves the token usable.
 */
export async function consumeAccountToken(
  app: App,
  purpose: TokenPurpose,
  token: unknown,
): Promise<ConsumedToken | null> {
  if (typeof token !== "string" || !isTokenShaped(token)) return null;
  const row = await kyselyOf(app.data.executor())
    .deleteFrom(ACCOUNT_TOKENS_TABLE)
    .where("tokenHash", "=", tokenHash(token))
    .where("purpose", "=", purpose)
    .returning(["user", "email", "expiresAt"])
    .executeTakeFirst();
  if (!row || Number(row.expiresAt) <= app.now()) return null;
  return { user: String(row.user), email: String(row.email) };
}
