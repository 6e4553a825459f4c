// PostgreSQL's named prepared statements (collections/db/postgres.ts, _statement_names.ts):
// a parameterised text run a second time is prepared on the connection and reused; the cap
// and the setting off hold; a text whose result type another process changed, and a
// connection that was reset, still answer.
import assert from "node:assert/strict";
import { Kysely, sql } from "kysely";
import pg from "pg";
import { createPostgresDialect } from "../../collections/db/postgres.ts";
import { StatementNames } from "../../collections/db/_statement_names.ts";
import { PG_URL, pgCalls } from "./_helpers.ts";
import { resolveConfig } from "../../app/config.ts";

/** A Kysely over one pooled connection in a fresh schema, dropped after `fn`. */
function pgTest(
  name: string,
  fn: (
    // deno-lint-ignore no-explicit-any
    db: Kysely<any>,
    admin: pg.Client,
  ) => Promise<void>,
  preparedStatements?: number,
): void {
  Deno.test({
    name: `prepared statements: ${name}`,
    ignore: !PG_URL,
    async fn() {
      const schema = `strata_prep_${crypto.randomUUID().slice(0, 8)}`;
      const { dialect } = await createPostgresDialect({
        url: PG_URL!,
        schema,
        max: 1,
        preparedStatements,
      });
      const db = new Kysely({ dialect });
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        await fn(db, admin);
      } finally {
        await db.destroy();
        await admin.query(`drop schema if exists "${schema}" cascade`);
        await admin.end();
      }
    },
  });
}

// deno-lint-ignore no-explicit-any
async function prepared(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`
    select statement from pg_prepared_statements order by name`.execute(db);
  return rows.map((row) => row.statement);
}

// deno-lint-ignore no-explicit-any
async function twice(db: Kysely<any>, n: number): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { rows } = await sql<{ n: number }>`select ${n}::int + ${i}::int as n`
      .execute(db);
    answers.push(rows[0].n);
  }
  return answers;
}

const TEXT = "select $1::int + $2::int as n";

Deno.test("statement names: the second sighting names a text, within the cap", () => {
  const names = new StatementNames(2);
  assert.equal(names.nameOf("a $1"), undefined);
  assert.equal(names.nameOf("a $1"), "strata_0");
  assert.equal(names.nameOf("a $1"), "strata_0");
  assert.equal(names.nameOf("b $1"), undefined);
  assert.equal(names.nameOf("b $1"), "strata_1");
  assert.equal(names.nameOf("c $1"), undefined);
  assert.equal(names.nameOf("c $1"), undefined);
  // A refused text is never named again, and its name is never given to another.
  names.refuse("a $1");
  assert.equal(names.nameOf("a $1"), undefined);
  assert.equal(names.nameOf("a $1"), undefined);
  assert.equal(names.nameOf("b $1"), "strata_1");
  assert.equal(new StatementNames(0).nameOf("a $1"), undefined);
});

Deno.test("config: database.preparedStatements is a positive integer or false", () => {
  const of = (preparedStatements?: number | false) =>
    resolveConfig({ database: { preparedStatements } }, "c.ts").database
      .preparedStatements;
  assert.equal(of(), 200);
  assert.equal(of(20), 20);
  assert.equal(of(false), 0);
  for (const bad of [0, -1, 1.5, true as never]) {
    assert.throws(
      () => of(bad),
      /c\.ts: database\.preparedStatements must be a positive integer or false/,
    );
  }
});

pgTest("a text run again is prepared once on the connection", async (db) => {
  assert.deepEqual(await twice(db, 1), [1, 2, 3]);
  assert.deepEqual(await prepared(db), [TEXT]);
  // Statements without parameters go as simple queries, never named.
  for (let i = 0; i < 3; i++) await sql`select 1`.execute(db);
  assert.deepEqual(await prepared(db), [TEXT]);
});

pgTest("the cap holds", async (db) => {
  assert.deepEqual(await twice(db, 1), [1, 2, 3]);
  for (let i = 0; i < 3; i++) {
    const { rows } = await sql<{ t: string }>`select ${"x"}::text as t`
      .execute(db);
    assert.equal(rows[0].t, "x");
  }
  assert.deepEqual(await prepared(db), [TEXT]);
}, 1);

pgTest("off, every statement goes unnamed", async (db) => {
  assert.deepEqual(await twice(db, 1), [1, 2, 3]);
  assert.deepEqual(await prepared(db), []);
}, 0);

pgTest(
  "a named statement answers on a new connection after its own was ended",
  async (db, admin) => {
    assert.deepEqual(await twice(db, 1), [1, 2, 3]);
    const { rows: [{ pid }] } = await sql<{ pid: number }>`
      select pg_backend_pid() as pid`.execute(db);
    await admin.query("select pg_terminate_backend($1)", [pid]);
    // The pool notices the ended connection on its own or at the next statement (a 503,
    // retried as a client would); either way the text is prepared anew.
    let answers: number[] | undefined;
    for (let attempt = 0; attempt < 3 && !answers; attempt++) {
      answers = await twice(db, 10).catch((error) => {
        assert.equal((error as { status?: number }).status, 503);
        return undefined;
      });
    }
    assert.deepEqual(answers, [10, 11, 12]);
    const { rows: [{ pid: next }] } = await sql<{ pid: number }>`
      select pg_backend_pid() as pid`.execute(db);
    assert.notEqual(next, pid);
    assert.deepEqual(await prepared(db), [TEXT]);
  },
);

pgTest(
  "a statement whose columns another process changed is sent unnamed again",
  async (db, admin) => {
    await sql`create table "T" ("id" int primary key, "a" text)`.execute(db);
    await sql`insert into "T" values (1, 'one')`.execute(db);
    const read = () =>
      sql<Record<string, unknown>>`select * from "T" where "id" = ${1}`
        .execute(db);
    await read();
    assert.deepEqual((await read()).rows, [{ id: 1, a: "one" }]);
    const { rows: [{ schema }] } = await sql<{ schema: string }>`
      select current_schema() as schema`.execute(db);
    await admin.query(`alter table "${schema}"."T" add column "b" text`);
    assert.deepEqual((await read()).rows, [{ id: 1, a: "one", b: null }]);
    assert.deepEqual((await read()).rows, [{ id: 1, a: "one", b: null }]);
  },
);

pgTest(
  "a statement reaches pg as a Query built from its text, the name set on it, so pg copies no config",
  async (db) => {
    const sent = await pgCalls(async () => {
      assert.deepEqual(await twice(db, 1), [1, 2, 3]);
    });
    assert.deepEqual(
      sent.map((args) => {
        const [built] = args as [pg.Query & { name?: string }];
        assert.ok(built instanceof pg.Query);
        return [args.length, built.text, built.name, built.values];
      }),
      [
        [1, TEXT, undefined, [1, 0]],
        [1, TEXT, "strata_0", [1, 1]],
        [1, TEXT, "strata_0", [1, 2]],
      ],
    );
  },
);
