/**
 * The raw database handle an app exposes as `app.db`. At run time it is the Kysely instance
 * (https://kysely.dev, `npm:kysely`) the data layer runs on; Strata keeps Kysely's types out
 * of its own public API, so the handle is typed by what Strata promises about it, and an app
 * that writes raw SQL narrows it with its own `kysely` import.
 *
 * @module
 */
import type { Kysely } from "kysely";

/**
 * Raw access to the app's database, for what the query builder does not do: the Kysely
 * instance Strata runs on (tables are named after the collections). Narrow it with your own
 * `kysely` import (`deno add npm:kysely`) to use Kysely's API.
 *
 * @example
 * ```ts ignore
 * import type { Kysely } from "kysely";
 * import { sql } from "kysely";
 * import { createApp } from "@strata/strata";
 *
 * const app = await createApp({ root: import.meta.dirname });
 * const db = app.db as Kysely<Record<string, Record<string, unknown>>>;
 * const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table("Posts")}`
 *   .execute(db);
 * ```
 */
export interface Database {
  /** Whether this handle is bound to a transaction (`false` for `app.db`). */
  readonly isTransaction: boolean;
}

/**
 * The Kysely instance behind a {@link Database} handle, for the framework's own raw SQL.
 *
 * @example
 * ```ts ignore
 * await kyselyOf(app.db).selectFrom("Posts").selectAll().execute();
 * ```
 */
// deno-lint-ignore no-explicit-any
export function kyselyOf(db: Database): Kysely<any> {
  // deno-lint-ignore no-explicit-any
  return db as Kysely<any>;
}
