/**
 * Login throttling, kept in the database so it holds across every instance: at most
 * `maxFailures` failed logins per client address in a sliding `window` (then 429 with
 * `Retry-After` in whole seconds), and one password check in flight per address (a
 * concurrent one answers 503 with `Retry-After: 1`).
 *
 * @module
 */
import type { App } from "../app/create_app.ts";
import { serviceUnavailable, tooManyRequests } from "../router/errors.ts";
import type { LoginRateLimit } from "./settings.ts";
import { releaseLease, tryLease } from "./_lease.ts";
import { FAILURES_TABLE } from "./_tables.ts";

/** How long a password-check lease may be held before another instance may take it. */
const CHECK_LEASE_MS = 30_000;

/** A password check in flight; release it when the check is done. */
export interface LoginPermit {
  /** Records a failed login of this address. */
  fail(): Promise<void>;
  /** Ends the check, letting the address's next login through. */
  release(): Promise<void>;
}

const NO_THROTTLE: LoginPermit = Object.freeze({
  fail: () => Promise.resolve(),
  release: () => Promise.resolve(),
});

/**
 * Seconds until `ip` may try again (0: now), from its failures inside the window.
 *
 * @example
 * ```ts ignore
 * const seconds = await retryAfter(app, "203.0.113.7", { maxFailures: 10, window: 60_000 });
 * ```
 */
export async function retryAfter(
  app: App,
  ip: string,
  limit: LoginRateLimit,
): Promise<number> {
  const now = app.now();
  const rows = await app.db.selectFrom(FAILURES_TABLE)
    .select("at")
    .where("ip", "=", ip)
    .where("at", ">", now - limit.window)
    .orderBy("at", "desc")
    .limit(limit.maxFailures)
    .execute();
  if (rows.length < limit.maxFailures) return 0;
  // A slot frees when the oldest of the last maxFailures failures leaves the window.
  const oldest = Number(rows[rows.length - 1].at);
  return Math.max(1, Math.ceil((oldest + limit.window - now) / 1000));
}

async function recordFailure(
  app: App,
  ip: string,
  limit: LoginRateLimit,
): Promise<void> {
  const now = app.now();
  await app.db.insertInto(FAILURES_TABLE).values({ ip, at: now }).execute();
  await app.db.deleteFrom(FAILURES_TABLE)
    .where("ip", "=", ip)
    .where("at", "<=", now - limit.window)
    .execute();
  // Addresses that never come back are swept now and then.
  if (Math.random() < 0.01) {
    await app.db.deleteFrom(FAILURES_TABLE)
      .where("at", "<=", now - limit.window)
      .execute();
  }
}

/**
 * Admits one password check for `ip`, or throws: 429 with `Retry-After` after too many
 * failures, 503 with `Retry-After: 1` while another check of the same address runs.
 * With `limit` false every check is admitted.
 *
 * @example
 * ```ts ignore
 * const permit = await admitLogin(app, event.ip, settings.loginRateLimit);
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
  limit: LoginRateLimit | false,
): Promise<LoginPermit> {
  if (limit === false) return NO_THROTTLE;
  const seconds = await retryAfter(app, ip, limit);
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
  return {
    fail: () => recordFailure(app, ip, limit),
    release: () => releaseLease(app, key, holder),
  };
}
