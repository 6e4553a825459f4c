import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { DatabaseSync } from "node:sqlite";
import { CompiledQuery, Kysely, sql } from "kysely";
import {
  arrayRows,
  NodeSqliteDialect,
} from "../../collections/db/sqlite_dialect.ts";
import { withQueryTimeout } from "../../collections/db/deadline.ts";
import { isPostgresUrl, openDatabase } from "./_imports.ts";

// deno-lint-ignore no-explicit-any
type Db = Kysely<any>;

function counting(database: DatabaseSync): { count: () => number } {
  let prepared = 0;
  const prepare = database.prepare.bind(database);
  database.prepare = ((text: string) => {
    prepared++;
    return prepare(text);
  }) as typeof database.prepare;
  return { count: () => prepared };
}

Deno.test("sqlite dialect: a repeated query is prepared once; the cache is a bounded LRU", async () => {
  const database = new DatabaseSync(":memory:");
  const spy = counting(database);
  const db: Db = new Kysely({
    dialect: new NodeSqliteDialect({ database, statementCacheSize: 2 }),
  });
  try {
    await sql`create table t (a integer)`.execute(db);
    const base = spy.count();
    for (let i = 0; i < 5; i++) {
      await db.selectFrom("t").select("a").where("a", "=", i).execute();
    }
    assert.equal(spy.count() - base, 1, "same SQL, different parameters");
    await db.selectFrom("t").select("a").execute(); // 2nd statement
    await db.selectFrom("t").select("a").where("a", "=", 1).execute(); // hit, now newest
    await db.selectFrom("t").select(["a as b"]).execute(); // evicts the 2nd
    assert.equal(spy.count() - base, 3);
    await db.selectFrom("t").select("a").where("a", "=", 2).execute();
    assert.equal(spy.count() - base, 3, "the recently used one stayed");
    await db.selectFrom("t").select("a").execute();
    assert.equal(
      spy.count() - base,
      4,
      "the least recently used one was dropped",
    );
  } finally {
    await db.destroy();
  }
  assert.equal(database.isOpen, false, "destroy closes the database");
});

Deno.test("sqlite dialect: readers, writers, RETURNING, booleans and big integers", async () => {
  const database = new DatabaseSync(":memory:");
  const db: Db = new Kysely({ dialect: new NodeSqliteDialect({ database }) });
  try {
    await sql`create table t (id integer primary key, flag integer, n integer)`
      .execute(db);
    const inserted = await db.insertInto("t").values({ flag: true, n: 1 })
      .executeTakeFirst();
    assert.equal(inserted.insertId, 1n);
    const returned = await db.insertInto("t").values({ flag: false, n: 2 })
      .returning(["id", "flag"]).execute();
    assert.deepEqual(returned.map((r) => ({ ...r })), [{ id: 2, flag: 0 }]);
    const updated = await db.updateTable("t").set({ n: 5 }).executeTakeFirst();
    assert.equal(updated.numUpdatedRows, 2n);
    const flags = await db.selectFrom("t").select("flag").where(
      "flag",
      "=",
      true,
    )
      .execute();
    assert.equal(flags.length, 1, "booleans bind as 1/0");
    await db.insertInto("t").values({ flag: 0, n: 9007199254740993n })
      .execute();
    await assert.rejects(
      () => db.selectFrom("t").select("n").execute(),
      (error: Error) => {
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /beyond Number\.MAX_SAFE_INTEGER/);
        return true;
      },
    );
  } finally {
    await db.destroy();
  }
});

Deno.test("sqlite dialect: transactions are serialised; a holder's context joins", async () => {
  const database = new DatabaseSync(":memory:");
  const store = new AsyncLocalStorage<boolean>();
  const db: Db = new Kysely({
    dialect: new NodeSqliteDialect({
      database,
      holdsConnection: () => store.getStore() === true,
    }),
  });
  try {
    await sql`create table log (entry text)`.execute(db);
    const log = (entry: string) =>
      db.insertInto("log").values({ entry }).execute();
    const tx = (name: string) =>
      db.transaction().execute(async (trx) => {
        await trx.insertInto("log").values({ entry: `${name}1` }).execute();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await trx.insertInto("log").values({ entry: `${name}2` }).execute();
      });
    await Promise.all([tx("a"), tx("b"), log("c")]);
    const entries = (await db.selectFrom("log").select("entry").execute()).map((
      r,
    ) => r.entry);
    assert.deepEqual(entries, ["a1", "a2", "b1", "b2", "c"], "no interleaving");
    // Inside a transaction, the raw db joins when the context says it holds the connection.
    await db.transaction().execute((trx) =>
      store.run(true, async () => {
        await trx.insertInto("log").values({ entry: "t" }).execute();
        const seen = await db.selectFrom("log").select("entry").where(
          "entry",
          "=",
          "t",
        ).execute();
        assert.equal(seen.length, 1, "sees the transaction's own write");
      })
    );
  } finally {
    await db.destroy();
  }
});

Deno.test("openDatabase: a file path gets its folder, WAL and foreign keys; lock waits are the dialect's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/a/b/app.db`;
    const { db, dialect, sqlite } = await openDatabase({
      url: path,
      busyTimeout: 1234,
    });
    try {
      assert.equal(dialect, "sqlite");
      const pragma = (name: string) =>
        Object.values(sqlite!.prepare(`pragma ${name}`).get()!)[0];
      assert.equal(pragma("journal_mode"), "wal");
      // The dialect waits for locks itself, asynchronously (see busy_test.ts over HTTP).
      assert.equal(pragma("busy_timeout"), 0);
      assert.equal(pragma("foreign_keys"), 1);
      const lowered = await sql<{ v: string }>`select lower(${"ÄÖÜ ÉTÉ"}) as v`
        .execute(db);
      assert.equal(
        lowered.rows[0].v,
        "äöü été",
        "lower() folds Unicode like PostgreSQL",
      );
    } finally {
      await db.destroy();
    }
    assert.ok((await Deno.stat(path)).isFile);
    const memory = await openDatabase({ url: ":memory:" });
    assert.equal(memory.dialect, "sqlite");
    await memory.db.destroy();
    await assert.rejects(() =>
      openDatabase({ url: ":memory:", busyTimeout: -1 })
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.equal(isPostgresUrl("postgres://x/y"), true);
  assert.equal(isPostgresUrl("postgresql://x/y"), true);
  assert.equal(isPostgresUrl("./data/app.db"), false);
});

Deno.test("sqlite dialect: a read marked arrayRows answers arrays, on the connection and on a reader thread", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { db } = await openDatabase({ url: `${dir}/app.db` });
    try {
      await sql`create table t (a text, b integer)`.execute(db);
      await sql`insert into t values ('x', 1), ('y', 2)`.execute(db);
      const read = () =>
        db.executeQuery(
          arrayRows(CompiledQuery.raw("select a, b from t order by b", [])),
        );
      assert.deepEqual((await read()).rows, [["x", 1], ["y", 2]]);
      // Unmarked, the same SQL still answers objects (statements are cached apart).
      const plain = await db.executeQuery(
        CompiledQuery.raw("select a, b from t order by b", []),
      );
      assert.deepEqual(plain.rows.map((row) => ({ ...row as object })), [
        { a: "x", b: 1 },
        { a: "y", b: 2 },
      ]);
      // While a transaction holds the connection, a read under a deadline goes to a reader
      // thread, and still answers arrays.
      let release!: () => void;
      const held = new Promise<void>((resolve) => release = resolve);
      let started!: () => void;
      const holding = new Promise<void>((resolve) => started = resolve);
      const transaction = db.transaction().execute(async (trx) => {
        await sql`insert into t values ('z', 3)`.execute(trx);
        started();
        await held;
      });
      await holding;
      const during = await withQueryTimeout(10_000, read);
      release();
      await transaction;
      assert.deepEqual(during.rows, [["x", 1], ["y", 2]]);
    } finally {
      await db.destroy();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
