// Throttling of the mails a signed-out client can ask for (password reset, verification),
// kept in the database so it holds across instances: at most `maxPerEmail` mails to one
// address and `maxPerIp` requests from one client address per window. Over a limit the
// request is answered as usual and no mail is written; the work done is the same either way.
import { createHash } from "node:crypto";
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import type { ResetRateLimit } from "./settings.ts";
import { MAIL_REQUESTS_TABLE } from "./_tables.ts";

function count(row: { n?: unknown } | undefined): number {
  return Number(row?.n ?? 0);
}

/**
 * Records a mail request for `email` from `ip` and tells whether the mail may be written.
 * With `limit` false every request is admitted.
 */
export async function admitMailRequest(
  app: App,
  ip: string,
  email: string,
  limit: ResetRateLimit | false,
): Promise<boolean> {
  if (limit === false) return true;
  const db = kyselyOf(app.db);
  const now = app.now();
  const since = now - limit.window;
  // Any length and bytes a client sends are stored as a short, plain key.
  const key = createHash("sha256").update(email).digest("base64url");
  const byEmail = await db.selectFrom(MAIL_REQUESTS_TABLE)
    .select((eb) => eb.fn.countAll().as("n"))
    .where("email", "=", key).where("mailed", "=", 1).where("at", ">", since)
    .executeTakeFirst();
  const byIp = await db.selectFrom(MAIL_REQUESTS_TABLE)
    .select((eb) => eb.fn.countAll().as("n"))
    .where("ip", "=", ip).where("at", ">", since)
    .executeTakeFirst();
  const admitted = count(byEmail) < limit.maxPerEmail &&
    count(byIp) < limit.maxPerIp;
  await db.insertInto(MAIL_REQUESTS_TABLE).values({
    email: key,
    ip,
    mailed: admitted ? 1 : 0,
    at: now,
  }).execute();
  if (Math.random() < 0.02) {
    await db.deleteFrom(MAIL_REQUESTS_TABLE).where("at", "<=", since)
      .execute();
  }
  return admitted;
}
