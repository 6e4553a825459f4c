// PostgresSetup.autocommit (collections/db/postgres.ts): one statement on a pooled
// connection without Kysely, under the statement limit of the code that called it, even
// when the pool hands it a connection from within another caller's release.
import assert from "node:assert/strict";
import pg from "pg";
import { Kysely, sql } from "kysely";
import { createPostgresDialect } from "../../collections/db/postgres.ts";
import { withQueryTimeout } from "../../collections/db/deadline.ts";
import { PG_URL } from "./_helpers.ts";

const SLEEP = "select pg_sleep($1::float8)";

function isQueryTimeout(error: { status?: number; data?: unknown }): boolean {
  return error.status === 503 &&
    JSON.stringify(error.data) === '{"code":"queryTimeout"}';
}

Deno.test({
  name:
    "autocommit: each statement runs under its caller's limit on a connection handed over by another caller",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_ac_${crypto.randomUUID().slice(0, 8)}`;
    const { dialect, autocommit } = await createPostgresDialect({
      url: PG_URL!,
      schema,
      max: 1,
    });
    const db = new Kysely({ dialect });
    try {
      await sql`select 1`.execute(db); // Kysely ends only a pool it has used
      // One connection: the second statement waits for the first one's release, and the
      // pool hands it over from there.
      const first = withQueryTimeout(false, () => autocommit(SLEEP, [0.2]));
      const second = withQueryTimeout(50, () => autocommit(SLEEP, [2]));
      const third = withQueryTimeout(false, () => autocommit(SLEEP, [0.1]));
      await first;
      await assert.rejects(second, isQueryTimeout);
      await third;
      // Errors come back as the busy mapping gives them; the connection stays usable.
      await assert.rejects(
        autocommit("select 1 / $1::int", [0]),
        /division by zero/,
      );
      await autocommit("select $1::int", [1]);
    } finally {
      await db.destroy();
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop schema if exists "${schema}" cascade`);
      await admin.end();
    }
  },
});
