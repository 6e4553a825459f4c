import assert from "node:assert/strict";
import { CompiledQuery, sql } from "kysely";
import type pg from "pg";
import { openDatabase } from "./_imports.ts";
import { PG_URL, pgCalls } from "./_helpers.ts";
import { pgLiteral, withCommit } from "../../collections/db/with_commit.ts";

Deno.test("withCommit: values become literals PostgreSQL reads back", () => {
  assert.equal(pgLiteral(null), "null");
  assert.equal(pgLiteral(-12.5), "-12.5");
  assert.equal(pgLiteral(true), "true");
  assert.equal(pgLiteral(false), "false");
  assert.equal(pgLiteral("it's"), "'it''s'");
  assert.equal(pgLiteral("a\\'b"), " E'a\\\\''b'");
  assert.throws(() => pgLiteral(Number.NaN), /NaN as a PostgreSQL literal/);
  assert.throws(() => pgLiteral({}), /object as a PostgreSQL literal/);
  const query = withCommit(
    CompiledQuery.raw("insert into t values ($1, $2, $10)", [
      "x",
      null,
      ...Array(7).fill(0),
      7,
    ]),
  );
  assert.equal(
    query.sql,
    "/* strata: with commit */ insert into t values ('x', null, 7)",
  );
  assert.deepEqual(query.parameters, []);
  assert.throws(
    () => withCommit(CompiledQuery.raw("select $2", [1])),
    /no parameter \$2/,
  );
});

Deno.test({
  name:
    "withCommit: the statement runs with the commit, first when another follows, never after a rollback",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_wc_${crypto.randomUUID().slice(0, 8)}`;
    const { db } = await openDatabase({ url: PG_URL!, pgSchema: schema });
    const insert = (label: string) =>
      withCommit(
        CompiledQuery.raw(`insert into "t" ("id", "label") values ($1, $2)`, [
          label.length,
          label,
        ]),
      );
    const labels = async () =>
      (await sql<{ label: string }>`select label from "t" order by id`
        .execute(db)).rows.map((row) => row.label);
    try {
      await sql`create table "t" ("id" integer primary key, "label" text)`
        .execute(db);
      // Committed with the commit; the quote and the backslash survive.
      await db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert("it's"));
        await trx.executeQuery(insert("a\\b"));
      });
      assert.deepEqual(await labels(), ["a\\b", "it's"]);
      // A statement after it: it runs first, so the transaction sees its row.
      const seen = await db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert("seven"));
        return (await sql<{ n: number }>`select count(*)::int as n from "t"`
          .execute(trx)).rows[0].n;
      });
      assert.equal(seen, 3);
      // Rolled back: never run.
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await trx.executeQuery(insert("twelve chars"));
          throw new Error("Changed my mind");
        }),
        /Changed my mind/,
      );
      assert.deepEqual(await labels(), ["a\\b", "it's", "seven"]);
      // It fails at the commit (a duplicate id): nothing of the transaction commits.
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await sql`insert into "t" values (100, 'before')`.execute(trx);
          await trx.executeQuery(insert("eight")); // id 5, like "seven"
        }),
        /duplicate key/,
      );
      assert.deepEqual(await labels(), ["a\\b", "it's", "seven"]);
      // The connection is clean for the next transaction.
      await db.transaction().execute(async (trx) => {
        await trx.executeQuery(insert("nine chars"));
      });
      assert.deepEqual(await labels(), ["a\\b", "it's", "seven", "nine chars"]);
      // The begin waits for the transaction's first statement: a transaction of held
      // statements is one query, and one rolled back before anything was sent sends none.
      const textOf = ([sent]: unknown[]) =>
        typeof sent === "string" ? sent : (sent as pg.Query).text;
      const one = await pgCalls(() =>
        db.transaction().execute(async (trx) => {
          await trx.executeQuery(insert("eleven char"));
        })
      );
      assert.equal(one.length, 1);
      assert.match(textOf(one[0]), /^begin;\n.*eleven char.*;\ncommit$/s);
      const none = await pgCalls(() =>
        assert.rejects(
          db.transaction().execute(async (trx) => {
            await trx.executeQuery(insert("fourteen chars"));
            throw new Error("Changed my mind");
          }),
          /Changed my mind/,
        )
      );
      assert.deepEqual(none, []);
      assert.deepEqual(await labels(), [
        "a\\b",
        "it's",
        "seven",
        "nine chars",
        "eleven char",
      ]);
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  },
});
