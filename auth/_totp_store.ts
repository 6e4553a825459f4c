// Two-factor state of the accounts: the TOTP secret and the last accepted step, and the
// hashed recovery codes. Every acceptance is a conditional write, so a code (or a recovery
// code) is accepted once even when two requests present it at the same moment.
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import { encodeBase32 } from "./totp.ts";
import { RECOVERY_CODES_TABLE, TOTP_TABLE } from "./_tables.ts";
import { tokenHash } from "./_token.ts";

/** A user's TOTP row. */
export interface TotpState {
  /** The secret, base32. */
  readonly secret: string;
  /** Whether sign-in asks for a code (false while set up but not confirmed). */
  readonly enabled: boolean;
  /** The last step a code was accepted at (-1: none yet). */
  readonly lastStep: number;
}

/** How many recovery codes enabling TOTP hands out. */
export const RECOVERY_CODES = 10;

function db(app: App) {
  return kyselyOf(app.data.executor());
}

/** The TOTP row of `user`, or null. */
export async function totpState(
  app: App,
  user: string,
): Promise<TotpState | null> {
  const row = await db(app).selectFrom(TOTP_TABLE)
    .select(["secret", "enabled", "lastStep"]).where("user", "=", user)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: String(row.secret),
    enabled: Number(row.enabled) === 1,
    lastStep: Number(row.lastStep),
  };
}

/** Stores a new secret, off until confirmed; replaces an unconfirmed one. Whether it was stored. */
export async function storePendingSecret(
  app: App,
  user: string,
  secret: string,
): Promise<boolean> {
  return await app.data.transaction(async () => {
    const current = await totpState(app, user);
    if (current?.enabled) return false;
    await db(app).deleteFrom(TOTP_TABLE).where("user", "=", user).execute();
    await db(app).insertInto(TOTP_TABLE).values({
      user,
      secret,
      enabled: 0,
      lastStep: -1,
    }).execute();
    return true;
  });
}

/**
 * Accepts step `step` for `user` if it is later than the last accepted one (and, with
 * `enable`, turns TOTP on). Whether it was accepted.
 */
export async function acceptStep(
  app: App,
  user: string,
  step: number,
  enable = false,
): Promise<boolean> {
  const result = await db(app).updateTable(TOTP_TABLE)
    .set(enable ? { lastStep: step, enabled: 1 } : { lastStep: step })
    .where("user", "=", user)
    .where("lastStep", "<", step)
    .where("enabled", "=", enable ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns TOTP off for `user`: its secret and recovery codes are deleted. */
export async function removeTotp(app: App, user: string): Promise<void> {
  await db(app).deleteFrom(TOTP_TABLE).where("user", "=", user).execute();
  await db(app).deleteFrom(RECOVERY_CODES_TABLE).where("user", "=", user)
    .execute();
}

/** `xxxx-xxxx-xxxx-xxxx` in lowercase base32 (80 random bits). */
function recoveryCode(): string {
  const text = encodeBase32(crypto.getRandomValues(new Uint8Array(10)))
    .toLowerCase();
  return text.match(/.{4}/g)!.join("-");
}

/** A recovery code as typed, reduced to what is hashed (case, spaces and dashes dropped). */
function normalized(code: string): string {
  return code.replace(/[\s-]/g, "").toLowerCase();
}

/** Replaces the recovery codes of `user` with new ones; answers them (only their hashes are stored). */
export async function newRecoveryCodes(
  app: App,
  user: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  await db(app).deleteFrom(RECOVERY_CODES_TABLE).where("user", "=", user)
    .execute();
  await db(app).insertInto(RECOVERY_CODES_TABLE).values(
    codes.map((code) => ({ codeHash: tokenHash(normalized(code)), user })),
  ).execute();
  return codes;
}

/** Uses up a recovery code of `user`; whether it was one. */
export async function consumeRecoveryCode(
  app: App,
  user: string,
  code: string,
): Promise<boolean> {
  if (code.length > 64) return false;
  const result = await db(app).deleteFrom(RECOVERY_CODES_TABLE)
    .where("codeHash", "=", tokenHash(normalized(code)))
    .where("user", "=", user)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
