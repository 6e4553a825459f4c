// The version of the sign-in tables on SQLite: a one-row counter that triggers on the Users
// and Sessions tables raise with every insert, update and delete, whichever connection or
// process makes it. Session lookups kept in memory (_session_cache.ts) stay valid while it
// holds. Unlike SQLite's `data_version`, which moves with every commit to any table, it
// does not drop every kept lookup whenever another process writes its own data.
import { sql } from "kysely";
import { quoteIdentifier as id } from "../collections/db/quote_identifier.ts";
import type { App } from "../app/create_app.ts";
import { kyselyOf } from "../collections/database.ts";

/** The counter's table: one row (`id` 1) holding `version`. */
export const SESSION_VERSION_TABLE = "_strata_session_version";

/** Reads the version: one row of one column. */
export const SESSION_VERSION_SQL =
  `select "version" from "${SESSION_VERSION_TABLE}" where "id" = 1`;

const TRACKED = ["Users", "Sessions"] as const;
const EVENTS = ["insert", "update", "delete"] as const;

/**
 * Creates the counter and its triggers when missing (SQLite only; PostgreSQL reads the
 * session on every request). Idempotent, so instances booting together may both run it.
 *
 * @example
 * ```ts ignore
 * await ensureSessionVersion(app);
 * ```
 */
export async function ensureSessionVersion(app: App): Promise<void> {
  if (app.data.dialect !== "sqlite") return;
  const statements = [
    `create table if not exists ${
      id(SESSION_VERSION_TABLE)
    } ("id" integer primary key, "version" integer not null)`,
    `insert or ignore into ${
      id(SESSION_VERSION_TABLE)
    } ("id", "version") values (1, 0)`,
  ];
  for (const name of TRACKED) {
    const table = app.data.collections.get(name)!.table;
    for (const event of EVENTS) {
      statements.push(
        `create trigger if not exists ${
          id(`${SESSION_VERSION_TABLE}__${table}__${event}`)
        } after ${event} on ${id(table)} begin update ${
          id(SESSION_VERSION_TABLE)
        } set "version" = "version" + 1 where "id" = 1; end`,
      );
    }
  }
  await kyselyOf(app.db).transaction().execute(async (trx) => {
    for (const statement of statements) await sql.raw(statement).execute(trx);
  });
}

/** The version a read selected, or `undefined` when the counter is missing. */
export function sessionVersionOf(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
