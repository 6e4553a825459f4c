// A SQLite file opens in WAL mode with synchronous `normal`, whether it is new (its switch is
// not synced) or an existing database in another mode (switched with every sync, its rows
// kept).
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openDatabase } from "../../collections/db/open_database.ts";

function modeOf(sqlite: DatabaseSync): { mode: unknown; synchronous: unknown } {
  return {
    mode: sqlite.prepare("pragma journal_mode").get()?.journal_mode,
    synchronous: sqlite.prepare("pragma synchronous").get()?.synchronous,
  };
}

Deno.test("a new SQLite file opens in WAL mode, synchronous normal", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const opened = await openDatabase({ url: `${dir}/new.db` });
    assert.deepEqual(modeOf(opened.sqlite!), { mode: "wal", synchronous: 1 });
    opened.sqlite!.exec("create table t (x)");
    await opened.db.destroy();
    const again = new DatabaseSync(`${dir}/new.db`);
    assert.equal(
      again.prepare("pragma journal_mode").get()?.journal_mode,
      "wal",
    );
    assert.equal(again.prepare("select count(*) as n from t").get()?.n, 0);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an existing SQLite file in another mode opens in WAL mode with its rows", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = new DatabaseSync(`${dir}/old.db`);
    made.exec("create table t (x); insert into t values (1), (2)");
    assert.equal(
      made.prepare("pragma journal_mode").get()?.journal_mode,
      "delete",
    );
    made.close();
    const opened = await openDatabase({ url: `${dir}/old.db` });
    assert.deepEqual(modeOf(opened.sqlite!), { mode: "wal", synchronous: 1 });
    assert.equal(
      opened.sqlite!.prepare("select count(*) as n from t").get()?.n,
      2,
    );
    await opened.db.destroy();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
