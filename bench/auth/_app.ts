// Boots the benchmark app on a database, seeds its user, and copies that user and a real
// session of theirs into many users with one session each.
import { createHash, randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { type App, createApp } from "../../mod.ts";
import { kyselyOf } from "../../collections/database.ts";
import { toUser } from "../../auth/mod.ts";
import { shape } from "./_shape.ts";

export const BENCH_USER = {
  email: "bench@example.com",
  password: "bench-password",
};

/** Where the app's data lives (a SQLite path or a PostgreSQL URL with a schema). */
export interface BenchTarget {
  readonly url: string;
  readonly schema?: string;
}

export async function bootBenchApp(
  database: string | BenchTarget,
): Promise<App> {
  const target = typeof database === "string" ? { url: database } : database;
  const app = await createApp({
    root: new URL("./app/", import.meta.url).pathname,
    database: target.url,
    databaseSchema: target.schema,
  });
  let record = await app.query("Users").where({ email: BENCH_USER.email })
    .findFirst();
  if (!record) {
    const created = await app.query("Users").create({
      ...BENCH_USER,
      roles: ["admin"],
    });
    if (!created.ok) throw new Error(JSON.stringify(created.errors));
    record = created.record;
  }
  shape.user = toUser(record);
  return app;
}

/** Copies the row `from` of `table` with the columns of `changes` set to new values. */
async function copyRow(
  // deno-lint-ignore no-explicit-any
  db: Kysely<any>,
  table: string,
  columns: readonly string[],
  from: string,
  changes: Record<string, unknown>,
): Promise<void> {
  await sql`insert into ${sql.table(table)} (${
    sql.join(columns.map((column) => sql.id(column)))
  }) select ${
    sql.join(columns.map((column) =>
      column in changes ? sql`${changes[column]}` : sql.ref(column)
    ))
  } from ${sql.table(table)} where ${sql.ref("UUID")} = ${from}`.execute(db);
}

/**
 * Signs the bench user in once (a real session), then makes `count - 1` more users, each a
 * copy of the bench user under another email, with one session each (a copy of the real
 * one under a fresh token). Returns the `Cookie` header value of every session.
 */
export async function seedSessions(app: App, count: number): Promise<string[]> {
  const response = await app.fetch(
    new Request("http://localhost/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...BENCH_USER, remember: true }),
    }),
  );
  await response.body?.cancel();
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (response.status !== 200 || !cookie) {
    throw new Error(`Sign-in gave ${response.status}`);
  }
  const db = kyselyOf(app.db);
  const users = app.data.collections.get("Users")!.table;
  const sessions = app.data.collections.get("Sessions")!.table;
  const columnsOf = async (table: string) => {
    const { rows } = await sql<Record<string, unknown>>`select * from ${
      sql.table(table)
    } limit 1`.execute(db);
    return Object.keys(rows[0]);
  };
  const userColumns = await columnsOf(users);
  const sessionColumns = await columnsOf(sessions);
  const userUUID = (shape.user as { UUID: string }).UUID;
  const { rows: [session] } = await sql<{ UUID: string }>`select ${
    sql.ref("UUID")
  } from ${sql.table(sessions)} where ${sql.ref("user")} = ${userUUID}`
    .execute(db);
  const cookies = [cookie];
  await db.transaction().execute(async (trx) => {
    for (let i = 1; i < count; i++) {
      const uuid = crypto.randomUUID();
      await copyRow(trx, users, userColumns, userUUID, {
        UUID: uuid,
        email: `user${i}@example.com`,
      });
      const token = randomBytes(32).toString("base64url");
      await copyRow(trx, sessions, sessionColumns, session.UUID, {
        UUID: crypto.randomUUID(),
        user: uuid,
        tokenHash: createHash("sha256").update(token).digest("base64url"),
      });
      cookies.push(`session=${token}`);
    }
  });
  return cookies;
}
