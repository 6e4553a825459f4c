import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseSync } from "node:sqlite";
import { Kysely, sql } from "kysely";
import {
  type ConnectionReader,
  NodeSqliteDialect,
} from "../../collections/db/sqlite_dialect.ts";

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

/** A Kysely instance on the dialect, and the dialect's direct reader. */
function open(
  holdsConnection?: () => boolean,
): { db: Db; dialect: NodeSqliteDialect; reader: ConnectionReader } {
  const dialect = new NodeSqliteDialect({
    database: new DatabaseSync(":memory:"),
    holdsConnection,
  });
  return { db: new Kysely({ dialect }), dialect, reader: dialect.reader! };
}

Deno.test("direct reader: rows come back as arrays in select order, booleans bound as 0/1", async () => {
  const { db, dialect, reader } = open();
  try {
    await sql`create table t (a integer, b text)`.execute(db);
    await sql`insert into t values (1, 'x'), (0, 'y')`.execute(db);
    assert.ok(reader);
    assert.equal(dialect.reader, reader, "found once, remembered");
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
  const { db, reader } = open(() => storage.getStore() === true);
  try {
    await sql`create table t (a integer)`.execute(db);
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

Deno.test("direct reader: no rows while a transaction outside any context holds the connection", async () => {
  const { db, reader } = open(() => false);
  try {
    await sql`create table t (a integer)`.execute(db);
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
    assert.equal(reader.readArrays("select a from t", []), undefined);
    release();
    await transaction;
    assert.deepEqual(reader.readArrays("select a from t", []), [[1]]);
  } finally {
    await db.destroy();
  }
});
