// What schema sync left in the database, read the same way on SQLite and PostgreSQL.
import { sql } from "kysely";
import { kyselyOf } from "../../collections/database.ts";
import type { DataLayer } from "./_imports.ts";

/** The columns of `table`, in their order. */
export async function columns(
  data: DataLayer,
  table: string,
): Promise<string[]> {
  const rows = data.dialect === "postgres"
    ? await sql<
      { name: string }
    >`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}
        order by ordinal_position`.execute(kyselyOf(data.db))
    : await sql<{ name: string }>`select name from pragma_table_info(${table})`
      .execute(kyselyOf(data.db));
  return rows.rows.map((r) => r.name);
}

/** The names of every index of the database (the test's schema), sorted. */
export async function indexes(data: DataLayer): Promise<string[]> {
  const rows = data.dialect === "postgres"
    ? await sql<{ name: string }>`select indexname as name from pg_indexes
        where schemaname = current_schema()`.execute(kyselyOf(data.db))
    : await sql<
      { name: string }
    >`select name from sqlite_master where type = 'index'`
      .execute(kyselyOf(data.db));
  return rows.rows.map((r) => r.name).sort();
}
