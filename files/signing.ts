/**
 * Signed links to private files: `?exp=<unix seconds>&sig=<base64url of
 * HMAC-SHA256(secret, "<uuid>.<exp>")>`. The secret is `uploads.secret`, or (outside
 * production) a random one kept in the database so every instance agrees.
 *
 * @module
 */

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Buffer } from "node:buffer";
import type { Kysely } from "kysely";
import { createIfMissing } from "../collections/db/create_if_missing.ts";

/** The single-row table holding the generated signing secret. */
export const SECRET_TABLE = "_strata_files_secret";

/**
 * The signature of a link to `uuid` valid until `exp` (unix seconds).
 *
 * @example
 * ```ts
 * import { signFile } from "./signing.ts";
 * signFile("a-secret-of-some-length", "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a", 1700000000).length; // 43
 * ```
 */
export function signFile(secret: string, uuid: string, exp: number): string {
  return createHmac("sha256", secret).update(`${uuid}.${exp}`).digest(
    "base64url",
  );
}

/**
 * Whether `sig` signs `uuid` until `exp` and `exp` has not passed at `now` (epoch ms).
 *
 * @example
 * ```ts
 * import { signFile, verifyFileSignature } from "./signing.ts";
 * const uuid = "0b6f3c2e-6f1d-4c3b-9a4e-2f1e0d9c8b7a";
 * const sig = signFile("a-secret-of-some-length", uuid, 2000000000);
 * verifyFileSignature("a-secret-of-some-length", uuid, "2000000000", sig, Date.UTC(2030, 0)); // true
 * ```
 */
export function verifyFileSignature(
  secret: string,
  uuid: string,
  exp: string | null,
  sig: string | null,
  now: number,
): boolean {
  if (exp === null || sig === null || !/^\d{1,12}$/.test(exp)) return false;
  const seconds = Number(exp);
  if (seconds * 1000 <= now) return false;
  const expected = Buffer.from(signFile(secret, uuid, seconds));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The secret of this database: generated once (by whichever instance comes first) and read
 * by every instance.
 *
 * @example
 * ```ts ignore
 * const secret = await databaseSecret(app.data.db);
 * ```
 */
export async function databaseSecret(
  // deno-lint-ignore no-explicit-any
  db: Kysely<any>,
): Promise<string> {
  await createIfMissing(() =>
    db.schema.createTable(SECRET_TABLE).ifNotExists()
      .addColumn("id", "integer", (c) => c.primaryKey())
      .addColumn("secret", "text", (c) => c.notNull())
      .execute()
  );
  await db.insertInto(SECRET_TABLE)
    .values({ id: 1, secret: randomBytes(32).toString("base64url") })
    .onConflict((oc) => oc.column("id").doNothing()).execute();
  const row = await db.selectFrom(SECRET_TABLE).select("secret")
    .where("id", "=", 1).executeTakeFirstOrThrow();
  return row.secret as string;
}
