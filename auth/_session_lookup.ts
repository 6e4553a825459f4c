// The hot path of every authenticated request: one statement reads the session and its
// user together (a consistent snapshot, and one round trip instead of two). The SQL is
// built once per app from the resolved collections and sent precompiled, so no query
// building happens per request. When the app registers `query:filter` hooks (which
// must see every read), or a User field is not a plain column, the query builder is used.
import { CompiledQuery } from "kysely";
import type { App } from "../app/create_app.ts";
import type { ResolvedField } from "../collections/resolve.ts";
import {
  findSessionByHash,
  findUser,
  SESSION_FIELDS,
  type StoredSession,
  type StoredUser,
  storedUser,
} from "./_store.ts";
import { USER_FIELDS } from "./to_user.ts";
import type { DataRecord } from "../collections/results.ts";

/** A session with its user (`null` when the user is gone). */
export interface SessionWithUser {
  readonly stored: StoredSession;
  readonly owner: StoredUser | null;
}

interface Plan {
  readonly sql: string;
  readonly sessionFields: readonly ResolvedField[];
  readonly userFields: readonly ResolvedField[];
}

const plans = new WeakMap<App, Plan | null>();

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function buildPlan(app: App): Plan | null {
  if (app.hooks("query:filter").length > 0) return null;
  const sessions = app.data.collections.get("Sessions");
  const users = app.data.collections.get("Users");
  if (!sessions || !users) return null;
  const pick = (
    fields: ReadonlyMap<string, ResolvedField>,
    names: readonly string[],
  ) => names.flatMap((name) => fields.get(name) ?? []);
  const sessionFields = pick(sessions.fields, [
    ...SESSION_FIELDS,
    "passwordStamp",
  ]);
  const userFields = pick(users.fields, [...USER_FIELDS, "password"]);
  if (
    [...sessionFields, ...userFields].some((f) => f.storage !== "column")
  ) {
    return null;
  }
  const columns = [
    `s."UUID" as "s.UUID"`,
    ...sessionFields.map((f) =>
      `s.${quote(f.name)} as ${quote(`s.${f.name}`)}`
    ),
    `u."UUID" as "u.UUID"`,
    ...userFields.map((f) => `u.${quote(f.name)} as ${quote(`u.${f.name}`)}`),
  ];
  const placeholder = app.data.dialect === "postgres" ? "$1" : "?";
  return {
    sql: `select ${columns.join(", ")} from ${quote(sessions.table)} as s ` +
      `left join ${quote(users.table)} as u on u."UUID" = s."user" ` +
      `where s."tokenHash" = ${placeholder}`,
    sessionFields,
    userFields,
  };
}

function planOf(app: App): Plan | null {
  let plan = plans.get(app);
  if (plan === undefined) {
    plan = buildPlan(app);
    plans.set(app, plan);
  }
  return plan;
}

function pickRecord(
  row: Record<string, unknown>,
  prefix: string,
  fields: readonly ResolvedField[],
): DataRecord {
  const record: DataRecord = { UUID: row[`${prefix}.UUID`] as string };
  for (const field of fields) {
    const value = row[`${prefix}.${field.name}`];
    record[field.name] = value === null || value === undefined
      ? null
      : field.fromDb
      ? field.fromDb(value)
      : value;
  }
  return record;
}

/** The session holding `tokenHash` with its user, or `null`. */
export async function findSessionWithUser(
  app: App,
  tokenHash: string,
): Promise<SessionWithUser | null> {
  const plan = planOf(app);
  if (!plan) {
    const stored = await findSessionByHash(app, tokenHash);
    if (!stored) return null;
    return { stored, owner: await findUser(app, stored.session.user) };
  }
  const result = await app.data.executor().executeQuery<
    Record<string, unknown>
  >(CompiledQuery.raw(plan.sql, [tokenHash]));
  const row = result.rows[0];
  if (!row) return null;
  const session = pickRecord(row, "s", plan.sessionFields);
  const stored: StoredSession = {
    session: {
      UUID: session.UUID,
      user: session.user as string,
      expiresAt: session.expiresAt as number,
      remember: session.remember === true,
      createdAt: session.createdAt as number,
      userAgent: (session.userAgent as string | null) ?? null,
    },
    stamp: String(session.passwordStamp ?? ""),
  };
  if (row["u.UUID"] === null || row["u.UUID"] === undefined) {
    return { stored, owner: null };
  }
  return { stored, owner: storedUser(pickRecord(row, "u", plan.userFields)) };
}
