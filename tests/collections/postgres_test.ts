import assert from "node:assert/strict";
import { sql } from "kysely";
import { defineCollection, field, openDatabase } from "./_imports.ts";
import { created, dbTest, PG_URL } from "./_helpers.ts";

Deno.test({
  name:
    "postgres: int8 and numeric parse safely; the schema is created and used",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_pg_${crypto.randomUUID().slice(0, 8)}`;
    const { db, dialect } = await openDatabase({
      url: PG_URL!,
      pgSchema: schema,
    });
    try {
      assert.equal(dialect, "postgres");
      const { rows } = await sql<Record<string, unknown>>`select
          ${sql.lit(42)}::int8 as small,
          ${sql.lit("9007199254740993")}::int8 as big,
          ${sql.lit("1.25")}::numeric as decimal,
          ${sql.lit("123456789012345678901234567890")}::numeric as huge,
          count(*) as n,
          current_schema() as schema`.execute(db);
      assert.deepEqual(rows[0], {
        small: 42,
        big: 9007199254740993n,
        decimal: 1.25,
        huge: "123456789012345678901234567890",
        n: 1,
        schema,
      });
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  },
});

dbTest(
  "integers beyond 2^53 stored by raw SQL are refused on read",
  async (db) => {
    const data = await db.open({
      collections: {
        Counters: defineCollection({ fields: { n: field("integer") } }),
      },
    });
    const counter = created(await data.query("Counters").create({ n: 1 }));
    await sql`update ${sql.table("Counters")} set ${
      sql.id("n")
    } = 9007199254740993`
      .execute(data.db);
    await assert.rejects(
      () => data.query("Counters").findByUUID(counter.UUID),
      (error: Error) => {
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /MAX_SAFE_INTEGER/);
        return true;
      },
    );
  },
);
