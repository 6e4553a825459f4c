// Opening a SQLite file: WAL mode with synchronous `normal`, whether the file is new (its
// switch is not synced) or an existing database in another mode (switched with every sync,
// its rows kept); missing folders are made; a path that cannot be a file fails.
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

Deno.test("a SQLite file in missing folders opens, the folders made", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const opened = await openDatabase({ url: `${dir}/a/b/app.db` });
    assert.equal(
      opened.sqlite!.prepare("pragma journal_mode").get()?.journal_mode,
      "wal",
    );
    await opened.db.destroy();
    assert.ok((await Deno.stat(`${dir}/a/b/app.db`)).isFile);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a SQLite path that cannot be a file fails as SQLite says", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      () => openDatabase({ url: dir }),
      /unable to open database file/,
    );
    await Deno.writeTextFile(`${dir}/plain`, "");
    await assert.rejects(
      () => openDatabase({ url: `${dir}/plain/app.db` }),
      /Not a directory|File exists/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
