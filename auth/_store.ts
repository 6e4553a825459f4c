// Database access of sessions and users: every read and write of the Sessions and Users
// collections the auth layer makes goes through here.
import { kyselyOf } from "../collections/database.ts";
import type { App } from "../app/create_app.ts";
import type { DataRecord } from "../collections/results.ts";
import type { WhereFilter } from "../collections/where.ts";
import { toUser, type User, USER_FIELDS } from "./to_user.ts";

/** A session row as the helpers hand it out (the token hash never leaves the database). */
export interface Session {
  /** The session's identifier. */
  UUID: string;
  /** UUID of the user it signs in. */
  user: string;
  /** When it ends, in epoch ms. */
  expiresAt: number;
  /** Whether it was opened with `remember` (long-lived, persistent cookie). */
  remember: boolean;
  /** When it was opened, in epoch ms. */
  createdAt: number;
  /** The User-Agent it was opened from, or null. */
  userAgent: string | null;
}

/** Public fields of a Sessions row. */
export const SESSION_FIELDS = [
  "user",
  "expiresAt",
  "remember",
  "createdAt",
  "userAgent",
] as const;

/** What a session lookup reads of a Sessions row (beside its UUID). */
export const SESSION_SELECTION = [...SESSION_FIELDS, "passwordStamp"] as const;

/** A Sessions row with the password stamp it was issued under. */
export interface StoredSession {
  readonly session: Session;
  readonly stamp: string;
}

/** A Users record mapped to the User shape, with its password stamp. */
export interface StoredUser {
  readonly user: User;
  readonly stamp: string;
  /** The stored password hash (empty when the account has none). */
  readonly hash: string;
}

/**
 * The stamp of a password hash: its salt, which changes whenever the password is set.
 * A session records the stamp it was opened under, so a password change by any path
 * ends the sessions opened before it without the write having to know about sessions.
 */
export function passwordStamp(hash: unknown): string {
  if (typeof hash !== "string") return "";
  // The fifth `$`-separated part, without splitting the whole hash (once per request).
  let at = -1;
  for (let part = 0; part < 4; part++) {
    at = hash.indexOf("$", at + 1);
    if (at === -1) return "";
  }
  const end = hash.indexOf("$", at + 1);
  return end === -1 ? hash.slice(at + 1) : hash.slice(at + 1, end);
}

const userSelections = new WeakMap<App, string[]>();

/** The User-shape fields the app's Users collection has, plus `password`. */
export function userSelection(app: App): string[] {
  let selection = userSelections.get(app);
  if (!selection) {
    const fields = app.data.collections.get("Users")?.fields;
    selection = [...USER_FIELDS, "password"].filter((name) =>
      fields?.has(name)
    );
    userSelections.set(app, selection);
  }
  return selection;
}

function toSession(record: DataRecord): Session {
  return {
    UUID: record.UUID,
    user: record.user as string,
    expiresAt: record.expiresAt as number,
    remember: record.remember === true,
    createdAt: record.createdAt as number,
    userAgent: (record.userAgent as string | null) ?? null,
  };
}

/** The Sessions row holding `tokenHash`, or `null`. */
export async function findSessionByHash(
  app: App,
  tokenHash: string,
): Promise<StoredSession | null> {
  const record = await app.query("Sessions")
    .where({ tokenHash })
    .select(...SESSION_SELECTION)
    .findFirst();
  return record ? storedSession(record) : null;
}

/** Maps a Sessions record read with its password stamp to a {@link StoredSession}. */
export function storedSession(record: DataRecord): StoredSession {
  return {
    session: toSession(record),
    stamp: String(record.passwordStamp ?? ""),
  };
}

/** The user `uuid` with its password stamp, or `null`. */
export async function findUser(
  app: App,
  uuid: string,
): Promise<StoredUser | null> {
  const record = await app.query("Users")
    .where({ UUID: uuid })
    .select(...userSelection(app))
    .findFirst();
  if (!record) return null;
  return storedUser(record);
}

/**
 * The user `uuid` like {@link findUser}, its row first locked against password changes
 * until the caller's transaction ends (`FOR SHARE` on PostgreSQL; SQLite runs one
 * transaction at a time). Call inside `app.data.transaction`.
 */
export async function lockUser(
  app: App,
  uuid: string,
): Promise<StoredUser | null> {
  const users = app.data.collections.get("Users");
  if (users && app.data.dialect === "postgres") {
    const rows = await kyselyOf(app.data.executor()).selectFrom(users.table)
      .select("UUID").where("UUID", "=", uuid).forShare().execute();
    if (rows.length === 0) return null;
  }
  // Read after the lock: under READ COMMITTED this sees any change committed while waiting.
  return await findUser(app, uuid);
}

/** The user with `email` (lowercased) with its password hash, or `null`. */
export async function findUserByEmail(
  app: App,
  email: string,
): Promise<StoredUser | null> {
  // No stored email holds U+0000 (writes refuse it), and the filter would refuse it.
  if (email.includes("\u0000")) return null;
  const record = await app.query("Users")
    .where({ email })
    .select(...userSelection(app))
    .findFirst();
  return record ? storedUser(record) : null;
}

/** Maps a Users record read with the password to a {@link StoredUser}. */
export function storedUser(record: DataRecord): StoredUser {
  const hash = typeof record.password === "string" ? record.password : "";
  return {
    // toUser copies exactly the User fields: the password hash never reaches it.
    user: toUser(record),
    stamp: passwordStamp(hash),
    hash,
  };
}

/** Creates a Sessions row; throws when the data layer refuses it. */
export async function insertSession(
  app: App,
  values: {
    user: string;
    tokenHash: string;
    expiresAt: number;
    remember: boolean;
    createdAt: number;
    userAgent: string | null;
    passwordStamp: string;
  },
): Promise<Session> {
  const result = await app.query("Sessions").create(values);
  if (!result.ok) {
    throw new Error(
      `Could not open a session: ${JSON.stringify(result.errors)}`,
    );
  }
  return toSession(result.record);
}

/** Deletes the Sessions rows matching `where`. */
export async function deleteSessions(
  app: App,
  where: WhereFilter,
): Promise<void> {
  await app.query("Sessions").where(where).delete();
}
