// The hot path of every authenticated request: one statement reads the session and its
// user together (a consistent snapshot, and one round trip instead of two). The SQL is
// built once per app from the resolved collections and sent precompiled, so no query
// building happens per request. On SQLite it runs as a cached prepared statement straight
// on the connection (rows as arrays), skipping Kysely's executor, and its result is kept
// while the version of the sign-in tables stays the same (see _session_version.ts and
// _session_cache.ts): each request still asks the database whether Users or Sessions
// changed, so a session ended by another instance or process is gone at once, while
// commits to other tables keep what is kept. PostgreSQL reads the row on every request. When the app
// registers `query:filter` hooks (which must see every read), or a User field is not a
// plain column, the query builder is used.
import { kyselyOf } from "../collections/database.ts";
import { CompiledQuery, type RawBuilder, sql } from "kysely";
import type { App } from "../app/create_app.ts";
import type { ResolvedField } from "../collections/resolve.ts";
import {
  findSessionByHash,
  findUser,
  SESSION_SELECTION,
  storedSession,
  storedUser,
  userSelection,
} from "./_store.ts";
import { SessionCache, type SessionWithUser } from "./_session_cache.ts";
import { SESSION_VERSION_SQL, sessionVersionOf } from "./_session_version.ts";
import { tokenHash } from "./_token.ts";
import type { DataRecord } from "../collections/results.ts";

interface Plan {
  readonly sql: string;
  /** The column aliases of the select list, in order. */
  readonly names: readonly string[];
  readonly sessionFields: readonly ResolvedField[];
  readonly userFields: readonly ResolvedField[];
}

/** What an app's lookups need, settled on its first one. */
interface Lookup {
  /** `null` when the query builder must be used. */
  readonly plan: Plan | null;
  readonly cache: SessionCache;
}

const lookups = new WeakMap<App, Lookup>();

function buildPlan(app: App): Plan | null {
  if (app.hooks("query:filter").length > 0) return null;
  const sessions = app.data.collections.get("Sessions");
  const users = app.data.collections.get("Users");
  if (!sessions || !users) return null;
  const pick = (
    fields: ReadonlyMap<string, ResolvedField>,
    names: readonly string[],
  ) => names.flatMap((name) => fields.get(name) ?? []);
  const sessionFields = pick(sessions.fields, SESSION_SELECTION);
  const userFields = pick(users.fields, userSelection(app));
  if (
    [...sessionFields, ...userFields].some((f) => f.storage !== "column")
  ) {
    return null;
  }
  const names = [
    "s.UUID",
    ...sessionFields.map((f) => `s.${f.name}`),
    "u.UUID",
    ...userFields.map((f) => `u.${f.name}`),
  ];
  // Each column under its own alias (`s.user`), so the two tables' names cannot clash.
  const columns: RawBuilder<unknown>[] = names.map((name) =>
    sql`${sql.ref(name)} as ${sql.id(name)}`
  );
  // On SQLite the sign-in tables' version first, read in the same snapshot as the row (see
  // lookupSession).
  if (app.data.dialect === "sqlite") {
    columns.unshift(sql.raw(`(${SESSION_VERSION_SQL})`));
  }
  const compiled = sql`select ${sql.join(columns)}
    from ${sql.table(sessions.table)} as s
    left join ${sql.table(users.table)} as u on ${sql.ref("u.UUID")} = ${
    sql.ref("s.user")
  }
    where ${sql.ref("s.tokenHash")} = ${""}`.compile(kyselyOf(app.data.db));
  return { sql: compiled.sql, names, sessionFields, userFields };
}

function lookupOf(app: App): Lookup {
  let lookup = lookups.get(app);
  if (!lookup) {
    lookup = { plan: buildPlan(app), cache: new SessionCache() };
    lookups.set(app, lookup);
  }
  return lookup;
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
    record[field.name] = field.fromDb ? field.fromDb(value) : value ?? null;
  }
  return record;
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

/** The lookup through Kysely (a busy connection, or not SQLite). */
async function lookupQueued(
  app: App,
  plan: Plan,
  token: string,
): Promise<SessionWithUser | null> {
  const result = await kyselyOf(app.data.executor()).executeQuery<
    Record<string, unknown>
  >(CompiledQuery.raw(plan.sql, [tokenHash(token)]));
  const row = result.rows[0];
  return row ? fromRow(plan, plan.names.map((name) => row[name])) : null;
}

/**
 * The session of `token` with its user, or `null`. Synchronous on SQLite while the connection
 * is free (a cache hit, or one prepared statement); a promise otherwise.
 */
export function lookupSession(
  app: App,
  token: string,
): SessionWithUser | null | Promise<SessionWithUser | null> {
  const { plan, cache } = lookupOf(app);
  if (!plan) return lookupWithBuilder(app, token);
  const reader = app.data.reader;
  if (!reader) return lookupQueued(app, plan, token);
  // Only an entry of the newest version seen can still be current: ask the database for
  // its version then. Otherwise (no entry, or one made before a change already seen) the
  // read is due anyway, and it carries its own version.
  if (cache.hasCurrent(token)) {
    const current = reader.readArrays(SESSION_VERSION_SQL, []);
    if (!current) return lookupQueued(app, plan, token);
    const version = sessionVersionOf(current[0]?.[0]);
    const hit = version === undefined ? undefined : cache.get(version, token);
    if (hit) return hit;
  }
  const rows = reader.readArrays(plan.sql, [tokenHash(token)]);
  if (!rows) return lookupQueued(app, plan, token);
  const row = rows[0];
  if (!row) return null;
  const found = fromRow(plan, row.slice(1));
  const version = sessionVersionOf(row[0]);
  if (version !== undefined) cache.set(version, token, found);
  return found;
}
