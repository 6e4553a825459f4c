// The hot path of every authenticated request: one statement reads the session and its
// user together (a consistent snapshot, and one round trip instead of two). The SQL is
// built once per app from the resolved collections and sent precompiled, so no query
// building happens per request. On SQLite it runs as a cached prepared statement straight
// on the connection (rows as arrays), skipping Kysely's executor, and its result is kept
// while the database's version stays the same (see _session_cache.ts): each request still
// asks the database whether anything changed, so a session ended by another instance or
// process is gone at once. PostgreSQL reads the row on every request. When the app
// registers `query:filter` hooks (which must see every read), or a User field is not a
// plain column, the query builder is used.
import { CompiledQuery } from "kysely";
import {
  type DirectReader,
  directReader,
} from "../collections/db/sqlite_dialect.ts";
import type { App } from "../app/create_app.ts";
import type { ResolvedField } from "../collections/resolve.ts";
import {
  findSessionByHash,
  findUser,
  SESSION_FIELDS,
  storedSession,
  storedUser,
} from "./_store.ts";
import { USER_FIELDS } from "./to_user.ts";
import { SessionCache, type SessionWithUser } from "./_session_cache.ts";
import { tokenHash } from "./_token.ts";
import type { DataRecord } from "../collections/results.ts";

interface Plan {
  readonly sql: string;
  /** The column names of the select list, in order. */
  readonly names: readonly string[];
  readonly sessionFields: readonly ResolvedField[];
  readonly userFields: readonly ResolvedField[];
}

const plans = new WeakMap<App, Plan | null>();
const readers = new WeakMap<App, DirectReader | null>();
const caches = new WeakMap<App, SessionCache>();

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
  const names = [
    "s.UUID",
    ...sessionFields.map((f) => `s.${f.name}`),
    "u.UUID",
    ...userFields.map((f) => `u.${f.name}`),
  ];
  return {
    names,
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

/** The record whose UUID is at `values[at]` and whose fields follow it, in plan order. */
function pickRecord(
  values: readonly unknown[],
  at: number,
  fields: readonly ResolvedField[],
): DataRecord {
  const record: DataRecord = { UUID: values[at] as string };
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    const value = values[at + 1 + i];
    record[field.name] = value === null || value === undefined
      ? null
      : field.fromDb
      ? field.fromDb(value)
      : value;
  }
  return record;
}

async function readerOf(app: App): Promise<DirectReader | null> {
  let reader = readers.get(app);
  if (reader === undefined) {
    reader = app.data.dialect === "sqlite"
      ? await directReader(app.data.db)
      : null;
    readers.set(app, reader);
  }
  return reader;
}

/** The row of `tokenHash` read through Kysely (busy connection, or not SQLite). */
async function readRowQueued(
  app: App,
  plan: Plan,
  tokenHash: string,
): Promise<readonly unknown[] | undefined> {
  const result = await app.data.executor().executeQuery<
    Record<string, unknown>
  >(CompiledQuery.raw(plan.sql, [tokenHash]));
  const row = result.rows[0];
  return row && plan.names.map((name) => row[name]);
}

/** The session and user of row `row` of the plan's statement. */
function fromRow(plan: Plan, row: readonly unknown[]): SessionWithUser {
  const stored = storedSession(pickRecord(row, 0, plan.sessionFields));
  const userAt = plan.sessionFields.length + 1;
  if (row[userAt] === null || row[userAt] === undefined) {
    return { stored, owner: null };
  }
  return {
    stored,
    owner: storedUser(pickRecord(row, userAt, plan.userFields)),
  };
}

async function lookupWithBuilder(
  app: App,
  token: string,
): Promise<SessionWithUser | null> {
  const stored = await findSessionByHash(app, tokenHash(token));
  if (!stored) return null;
  return { stored, owner: await findUser(app, stored.session.user) };
}

async function lookupQueued(
  app: App,
  plan: Plan,
  token: string,
): Promise<SessionWithUser | null> {
  const row = await readRowQueued(app, plan, tokenHash(token));
  return row ? fromRow(plan, row) : null;
}

/**
 * The session of `token` with its user, or `null`. Synchronous on SQLite while the connection
 * is free (a cache hit, or one prepared statement); a promise otherwise.
 */
export function lookupSession(
  app: App,
  token: string,
): SessionWithUser | null | Promise<SessionWithUser | null> {
  const plan = planOf(app);
  if (!plan) return lookupWithBuilder(app, token);
  const reader = readers.get(app);
  if (reader === undefined) {
    return readerOf(app).then(() => lookupSession(app, token));
  }
  const version = reader?.version();
  if (reader === null || version === undefined) {
    return lookupQueued(app, plan, token);
  }
  let cache = caches.get(app);
  if (!cache) caches.set(app, cache = new SessionCache());
  const hit = cache.get(version, token);
  if (hit) return hit;
  // The version was just taken, so the connection is free: this read cannot be refused.
  const row = reader.readArrays(plan.sql, [tokenHash(token)])![0];
  if (!row) return null;
  const found = fromRow(plan, row);
  cache.set(version, token, found);
  return found;
}
