// A deadlock between two transactions (rows locked in opposite orders, which no single
// request of the framework does) is retried once inside the server: both complete, one of
// them on its second attempt, instead of one answering 503. PostgreSQL only: SQLite runs
// one transaction at a time and cannot deadlock.
import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createApp } from "../../mod.ts";
import { PG_URL } from "../_helpers/db_apps.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { dropSchema } from "./_race.ts";
import fixtureConfig from "../fixtures/concurrency_app/strata.config.ts";

Deno.test({
  name: "a deadlock is retried once inside the server [postgres]",
  ignore: !PG_URL,
  async fn() {
    const schema = `t_deadlock_${crypto.randomUUID().slice(0, 8)}`;
    const app = await createApp({
      root: fixturePath("concurrency_app"),
      // PostgreSQL looks for the deadlock after deadlock_timeout (1 s) while the other
      // transaction waits too; on a loaded machine the default 2 s lock timeout could end
      // that wait first (a 503, not the deadlock this test is about).
      config: { ...fixtureConfig, database: { busyTimeout: "30s" } },
      database: PG_URL!,
      databaseSchema: schema,
    });
    try {
      const table = app.data.collections.get("Owners")!.table;
      const ids: string[] = [];
      for (const name of ["a", "b"]) {
        const created = await app.query("Owners").create({ name });
        assert.ok(created.ok);
        ids.push(created.record.UUID);
      }
      const lock = (id: string) =>
        sql`select 1 from ${sql.table(table)} where ${
          sql.ref("UUID")
        } = ${id} for update`.execute(kyselyOf(app.data.executor()));
      // Both hold their first row before either asks for its second (first attempts only).
      let arrived = 0;
      let release!: () => void;
      const bothHold = new Promise<void>((resolve) => release = resolve);
      const attempts = [0, 0];
      const transfer = (who: number, first: string, second: string) =>
        app.data.transaction(async () => {
          attempts[who]++;
          await lock(first);
          if (attempts[who] === 1) {
            if (++arrived === 2) release();
            await bothHold;
          }
          await lock(second);
          return who;
        });
      const results = await Promise.allSettled([
        transfer(0, ids[0], ids[1]),
        transfer(1, ids[1], ids[0]),
      ]);
      assert.deepEqual(results.map((r) => r.status), [
        "fulfilled",
        "fulfilled",
      ]);
      assert.equal(attempts[0] + attempts[1], 3, `Attempts: ${attempts}`);
    } finally {
      await app.close();
      await dropSchema(schema);
    }
  },
});
