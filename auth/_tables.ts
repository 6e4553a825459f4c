// The auth layer's own tables, outside the collections (never exposed, never in the
// dashboard): short leases (one password check per IP, one install at a time) and the
// log of failed logins. Plain Kysely, so they behave the same on SQLite and PostgreSQL
// and hold across every app instance sharing the database.
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import { createIfMissing } from "../collections/db/create_if_missing.ts";

/** Leases: `key` is held by `holder` until `expiresAt` (epoch ms). */
export const LOCKS_TABLE = "_strata_auth_locks";
/** Failed logins: one row per failure, by client address. */
export const FAILURES_TABLE = "_strata_login_failures";
/** Failed logins: one row per failure, by the sha256 of the email tried (lowercased). */
export const ACCOUNT_FAILURES_TABLE = "_strata_login_account_failures";

/**
 * Single-use tokens of mailed links (verification, password reset, email change): the
 * SHA-256 of the token, what it is for, whose it is, the address it names, when it ends.
 */
export const ACCOUNT_TOKENS_TABLE = "_strata_account_tokens";
/** Requests for reset and verification mails, for their throttling: by address and by client. */
export const MAIL_REQUESTS_TABLE = "_strata_mail_requests";

/**
 * Two-factor sign-in: per user, the TOTP secret (base32), whether it is on (a secret set up
 * but not yet confirmed is off), and the last time step a code was accepted at.
 */
export const TOTP_TABLE = "_strata_totp";
/** Recovery codes: the SHA-256 of each unused code, by user. */
export const RECOVERY_CODES_TABLE = "_strata_recovery_codes";

/** Creates the tables when missing; safe when several instances boot at once. */
export async function ensureAuthTables(app: App): Promise<void> {
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(LOCKS_TABLE).ifNotExists()
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("holder", "text", (c) => c.notNull())
      .addColumn("expiresAt", "bigint", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(FAILURES_TABLE).ifNotExists()
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createIndex(`${FAILURES_TABLE}__ip_at__idx`)
      .ifNotExists()
      .on(FAILURES_TABLE).columns(["ip", "at"]).execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(ACCOUNT_FAILURES_TABLE).ifNotExists()
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createIndex(
      `${ACCOUNT_FAILURES_TABLE}__email_at__idx`,
    )
      .ifNotExists()
      .on(ACCOUNT_FAILURES_TABLE).columns(["email", "at"]).execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(ACCOUNT_TOKENS_TABLE).ifNotExists()
      .addColumn("tokenHash", "text", (c) => c.primaryKey())
      .addColumn("purpose", "text", (c) => c.notNull())
      .addColumn("user", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("expiresAt", "bigint", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createIndex(
      `${ACCOUNT_TOKENS_TABLE}__user_purpose__idx`,
    ).ifNotExists()
      .on(ACCOUNT_TOKENS_TABLE).columns(["user", "purpose"]).execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(MAIL_REQUESTS_TABLE).ifNotExists()
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("mailed", "integer", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute()
  );
  for (const column of ["email", "ip"]) {
    await createIfMissing(() =>
      kyselyOf(app.db).schema.createIndex(
        `${MAIL_REQUESTS_TABLE}__${column}_at__idx`,
      ).ifNotExists()
        .on(MAIL_REQUESTS_TABLE).columns([column, "at"]).execute()
    );
  }
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(TOTP_TABLE).ifNotExists()
      .addColumn("user", "text", (c) => c.primaryKey())
      .addColumn("secret", "text", (c) => c.notNull())
      .addColumn("enabled", "integer", (c) => c.notNull())
      .addColumn("lastStep", "bigint", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createTable(RECOVERY_CODES_TABLE).ifNotExists()
      .addColumn("codeHash", "text", (c) => c.primaryKey())
      .addColumn("user", "text", (c) => c.notNull())
      .execute()
  );
  await createIfMissing(() =>
    kyselyOf(app.db).schema.createIndex(`${RECOVERY_CODES_TABLE}__user__idx`)
      .ifNotExists().on(RECOVERY_CODES_TABLE).column("user").execute()
  );
}
