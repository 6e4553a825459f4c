import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseSync } from "node:sqlite";
import { Kysely, sql } from "kysely";
import {
  directReader,
  NodeSqliteDialect,
} from "../../collections/db/sqlite_dialect.ts";

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

function open(holdsConnection?: () => boolean): Db {
  return new Kysely({
    dialect: new NodeSqliteDialect({
      database: new DatabaseSync(":memory:"),
      holdsConnection,
    }),
  });
}

Deno.test("direct reader: rows come back as arrays in select order, booleans bound as 0/1", async () => {
  const db = open();
  try {
    await sql`create table t (a integer, b text)`.execute(db);
    await sql`insert into t values (1, 'x'), (0, 'y')`.execute(db);
    const reader = await directReader(db);
    assert.ok(reader);
    assert.equal(await directReader(db), reader, "found once, remembered");
    assert.deepEqual(
      reader.readArrays("select b, a from t where a = ? order by b", [true]),
      [["x", 1]],
    );
    assert.deepEqual(reader.readArrays("select a from t where a = ?", [7]), []);
    // The same SQL through Kysely still answers objects: the caches are separate.
    const rows = await db.executeQuery(
      sql`select b, a from t where a = ${1} order by b`.compile(db),
    );
    assert.deepEqual(rows.rows.map((row) => ({ ...row as object })), [{
      b: "x",
      a: 1,
    }]);
    assert.throws(() => reader.readArrays("select nope from t", []), /nope/);
  } finally {
    await db.destroy();
  }
});

Deno.test("direct reader: busy while another context's transaction holds the connection", async () => {
  const storage = new AsyncLocalStorage<true>();
  const db = open(() => storage.getStore() === true);
  try {
    await sql`create table t (a integer)`.execute(db);
    const reader = (await directReader(db))!;
    let inside: unknown;
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    let started!: () => void;
    const begun = new Promise<void>((resolve) => started = resolve);
    const transaction = db.transaction().execute((trx) =>
      storage.run(true, async () => {
        await trx.insertInto("t").values({ a: 1 }).execute();
        // The transaction's own context joins the connection it holds.
        inside = reader.readArrays("select a from t", []);
        started();
        await held;
      })
    );
    await begun;
    // Another context must not read the uncommitted row: it is told to wait its turn.
    const outside = reader.readArrays("select a from t", []);
    release();
    await transaction;
    assert.deepEqual(inside, [[1]]);
    assert.equal(outside, undefined);
    assert.deepEqual(reader.readArrays("select a from t", []), [[1]]);
  } finally {
    await db.destroy();
  }
});

Deno.test("direct reader: version changes with every write and commit, and only then", async () => {
  const file = await Deno.makeTempFile({ suffix: ".db" });
  const shared = (database: DatabaseSync): Db =>
    new Kysely({ dialect: new NodeSqliteDialect({ database }) });
  const db = shared(new DatabaseSync(file));
  const other = new DatabaseSync(file);
  try {
    await sql`pragma journal_mode = wal`.execute(db);
    await sql`create table t (a integer)`.execute(db);
    const reader = (await directReader(db))!;
    const first = reader.version();
    assert.equal(typeof first, "number");
    reader.readArrays("select a from t", []);
    await sql`select count(*) from t`.execute(db);
    assert.equal(reader.version(), first, "reads change nothing");

    await sql`insert into t values (1)`.execute(db);
    const afterOwn = reader.version();
    assert.notEqual(afterOwn, first, "a write on this connection");

    other.exec("begin; insert into t values (2)");
    assert.equal(
      reader.version(),
      afterOwn,
      "uncommitted elsewhere: unchanged",
    );
    other.exec("commit");
    const afterOther = reader.version();
    assert.notEqual(afterOther, afterOwn, "a commit by another connection");
    assert.equal(reader.version(), afterOther);

    // Transaction control counts too: a rolled-back write must not leave a stale result.
    await db.transaction().execute(async (trx) => {
      await trx.selectFrom("t").selectAll().execute();
    });
    assert.notEqual(reader.version(), afterOther, "begin and commit");
  } finally {
    other.close();
    await db.destroy();
    await Deno.remove(file);
  }
});

Deno.test("direct reader: no version while another context's transaction holds the connection", async () => {
  const db = open(() => false);
  try {
    await sql`create table t (a integer)`.execute(db);
    const reader = (await directReader(db))!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => release = resolve);
    let started!: () => void;
    const begun = new Promise<void>((resolve) => started = resolve);
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto("t").values({ a: 1 }).execute();
      started();
      await held;
    });
    await begun;
    assert.equal(reader.version(), undefined);
    release();
    await transaction;
    assert.equal(typeof reader.version(), "number");
  } finally {
    await db.destroy();
  }
});
