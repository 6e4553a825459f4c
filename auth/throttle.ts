/**
 * Login throttling, kept in the database so it holds across every instance: at most
 * `maxFailures` failed logins per client address in a sliding `window` and
 * `maxAccountFailures` per account (the email tried) in `accountWindow` (past either, 429
 * with `Retry-After` in whole seconds), and one password check in flight per address (a
 * concurrent one answers 503 with `Retry-After: 1`). The client address is the one
 * `api.trustProxy` resolves, so behind a reverse proxy users do not share one limit.
 *
 * @module
 */
import { kyselyOf } from "../collections/database.ts";
import { createHash } from "node:crypto";
import type { App } from "../app/create_app.ts";
import { serviceUnavailable, tooManyRequests } from "../router/errors.ts";
import type { LoginRateLimit } from "./settings.ts";
import { releaseLease, tryLease } from "./_lease.ts";
import { ACCOUNT_FAILURES_TABLE, FAILURES_TABLE } from "./_tables.ts";

/** How long a password-check lease may be held before another instance may take it. */
const CHECK_LEASE_MS = 30_000;

/** A password check in flight; release it when the check is done. */
export interface LoginPermit {
  /** Records a failed login of this address and account. */
  fail(): Promise<void>;
  /** Ends the check, letting the address's next login through. */
  release(): Promise<void>;
}

const NO_THROTTLE: LoginPermit = Object.freeze({
  fail: () => Promise.resolve(),
  release: () => Promise.resolve(),
});

/** One failure log: its table, the column it is keyed by, and its limit. */
interface FailureLog {
  readonly table: string;
  readonly column: string;
  readonly maxFailures: number;
  readonly window: number;
}

function logsOf(limit: LoginRateLimit): [FailureLog, FailureLog] {
  return [
    {
      table: FAILURES_TABLE,
      column: "ip",
      maxFailures: limit.maxFailures,
      window: limit.window,
    },
    {
      table: ACCOUNT_FAILURES_TABLE,
      column: "email",
      maxFailures: limit.maxAccountFailures,
      window: limit.accountWindow,
    },
  ];
}

/**
 * The account's key in the failure log: a hash of the email, so whatever a client sends (any
 * length, any bytes) is stored as a short, plain token.
 */
function accountKey(email: string): string {
  return createHash("sha256").update(email).digest("base64url");
}

/** Seconds until `key` may try again under `log` (0: now). */
async function secondsLeft(
  app: App,
  log: FailureLog,
  key: string,
): Promise<number> {
  const now = app.now();
  const rows = await kyselyOf(app.db).selectFrom(log.table)
    .select("at")
    .where(log.column, "=", key)
    .where("at", ">", now - log.window)
    .orderBy("at", "desc")
    .limit(log.maxFailures)
    .execute();
  if (rows.length < log.maxFailures) return 0;
  // A slot frees when the oldest of the last maxFailures failures leaves the window.
  const oldest = Number(rows[rows.length - 1].at);
  return Math.max(1, Math.ceil((oldest + log.window - now) / 1000));
}

/**
 * Seconds until a login of `email` from `ip` may be tried again (0: now), from the
 * failures of the address and of the account inside their windows.
 *
 * @example
 * ```ts ignore
 * const seconds = await retryAfter(app, "203.0.113.7", "ada@example.com", settings.loginRateLimit);
 * ```
 */
export async function retryAfter(
  app: App,
  ip: string,
  email: string,
  limit: LoginRateLimit,
): Promise<number> {
  const [byIp, byAccount] = logsOf(limit);
  return Math.max(
    await secondsLeft(app, byIp, ip),
    await secondsLeft(app, byAccount, accountKey(email)),
  );
}

async function recordFailure(
  app: App,
  log: FailureLog,
  key: string,
): Promise<void> {
  const now = app.now();
  await kyselyOf(app.db).insertInto(log.table).values({
    [log.column]: key,
    at: now,
  })
    .execute();
  await kyselyOf(app.db).deleteFrom(log.table)
    .where(log.column, "=", key)
    .where("at", "<=", now - log.window)
    .execute();
  // Keys that never come back are swept now and then.
  if (Math.random() < 0.01) {
    await kyselyOf(app.db).deleteFrom(log.table)
      .where("at", "<=", now - log.window)
      .execute();
  }
}

/**
 * Admits one password check of `email` from `ip`, or throws: 429 with `Retry-After` after
 * too many failures of the address or of the account, 503 with `Retry-After: 1` while
 * another check of the same address runs. With `limit` false every check is admitted.
 *
 * @example
 * ```ts ignore
 * const permit = await admitLogin(app, event.ip, email, settings.loginRateLimit);
 * try {
 *   if (!ok) await permit.fail();
 * } finally {
 *   await permit.release();
 * }
 * ```
 */
export async function admitLogin(
  app: App,
  ip: string,
  email: string,
  limit: LoginRateLimit | false,
): Promise<LoginPermit> {
  if (limit === false) return NO_THROTTLE;
  const seconds = await retryAfter(app, ip, email, limit);
  if (seconds > 0) {
    throw tooManyRequests(undefined, undefined, {
      headers: { "Retry-After": String(seconds) },
    });
  }
  const key = `login:${ip}`;
  const holder = await tryLease(app, key, CHECK_LEASE_MS);
  if (holder === null) {
    throw serviceUnavailable(undefined, undefined, {
      headers: { "Retry-After": "1" },
    });
  }
  const [byIp, byAccount] = logsOf(limit);
  return {
    fail: async () => {
      await recordFailure(app, byIp, ip);
      await recordFailure(app, byAccount, accountKey(email));
    },
    release: () => releaseLease(app, key, holder),
  };
}
