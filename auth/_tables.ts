// The auth layer's own tables, outside the collections (never exposed, never in the
// dashboard): short leases (one password check per IP, one install at a time) and the
// log of failed logins. Plain Kysely, so they behave the same on SQLite and PostgreSQL
// and hold across every app instance sharing the database.
import type { App } from "../app/create_app.ts";

/** Leases: `key` is held by `holder` until `expiresAt` (epoch ms). */
export const LOCKS_TABLE = "_strata_auth_locks";
/** Failed logins: one row per failure, by client address. */
export const FAILURES_TABLE = "_strata_login_failures";

/** Creates the tables when missing; safe when several instances boot at once. */
export async function ensureAuthTables(app: App): Promise<void> {
  const tolerate = async (create: () => Promise<unknown>) => {
    try {
      await create();
    } catch (error) {
      // A concurrent boot may win the race to create it between "if not exists" and the
      // insert into PostgreSQL's catalog: duplicate_table / unique_violation.
      const code = (error as { code?: unknown }).code;
      if (code !== "42P07" && code !== "23505") throw error;
    }
  };
  await tolerate(() =>
    app.db.schema.createTable(LOCKS_TABLE).ifNotExists()
      .addColumn("key", "text", (c) => c.primaryKey())
      .addColumn("holder", "text", (c) => c.notNull())
      .addColumn("expiresAt", "bigint", (c) => c.notNull())
      .execute()
  );
  await tolerate(() =>
    app.db.schema.createTable(FAILURES_TABLE).ifNotExists()
      .addColumn("ip", "text", (c) => c.notNull())
      .addColumn("at", "bigint", (c) => c.notNull())
      .execute()
  );
  await tolerate(() =>
    app.db.schema.createIndex(`${FAILURES_TABLE}__ip_at__idx`).ifNotExists()
      .on(FAILURES_TABLE).columns(["ip", "at"]).execute()
  );
}
