// Leases in the database: a key held by one holder until it is released or its time is up
// (so a crashed instance cannot hold it forever). Taking one is a single atomic upsert.
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import { randomToken } from "../utils/crypto.ts";
import { LOCKS_TABLE } from "./_tables.ts";

/** Takes the lease `key` for `ttl` ms; its holder id, or `null` when someone holds it. */
export async function tryLease(
  app: App,
  key: string,
  ttl: number,
): Promise<string | null> {
  const holder = randomToken(16);
  const now = app.now();
  const row = await kyselyOf(app.db).insertInto(LOCKS_TABLE)
    .values({ key, holder, expiresAt: now + ttl })
    .onConflict((conflict) =>
      conflict.column("key")
        .doUpdateSet({ holder, expiresAt: now + ttl })
        .where(`${LOCKS_TABLE}.expiresAt`, "<=", now)
    )
    .returning("holder")
    .executeTakeFirst();
  return row?.holder === holder ? holder : null;
}

/** Releases the lease `key` if `holder` still holds it. */
export async function releaseLease(
  app: App,
  key: string,
  holder: string,
): Promise<void> {
  await kyselyOf(app.db).deleteFrom(LOCKS_TABLE)
    .where("key", "=", key)
    .where("holder", "=", holder)
    .execute();
}

/**
 * Takes the lease `key`, waiting up to `wait` ms (real time) for its holder to release it;
 * `null` when it stayed taken.
 */
export async function waitForLease(
  app: App,
  key: string,
  ttl: number,
  wait: number,
): Promise<string | null> {
  const deadline = Date.now() + wait;
  while (true) {
    const holder = await tryLease(app, key, ttl);
    if (holder !== null || Date.now() >= deadline) return holder;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
