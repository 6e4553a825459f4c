import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import {
  busyError,
  defineCollection,
  field,
  HTTPError,
  isBusyError,
  isUnavailableError,
  mapBusyError,
} from "./_imports.ts";
import { created, dbTest } from "./_helpers.ts";
import { openDataLayer } from "../../collections/data_layer.ts";

const collections = {
  Posts: defineCollection({ fields: { title: field("text") } }),
  // No change log: a create is one statement, run without begin and commit on SQLite.
  Quiet: defineCollection({ fields: { title: field("text") }, events: false }),
};

function is503(error: unknown): boolean {
  assert.ok(error instanceof HTTPError, `expected an HTTPError, got ${error}`);
  assert.equal(error.status, 503);
  assert.equal(error.headers.get("Retry-After"), "1");
  assert.deepEqual(error.toJSON(), {
    statusCode: 503,
    message: "Service Unavailable",
  });
  return true;
}

/** Holds the database's write lock from a second connection until `release` is called. */
async function holdWriteLock(
  dialect: string,
  url: string,
  schema?: string,
): Promise<() => Promise<void>> {
  if (dialect === "sqlite") {
    const other = new DatabaseSync(url);
    other.exec("begin immediate");
    return () => {
      other.exec("rollback");
      other.close();
      return Promise.resolve();
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`set search_path to "${schema}"`);
  await client.query("begin");
  await client.query('lock table "Posts" in access exclusive mode');
  return async () => {
    await client.query("rollback");
    await client.end();
  };
}

dbTest(
  "a write against a held write lock answers 503 with Retry-After",
  async (db) => {
    const data = await db.open({ collections, busyTimeout: 50 });
    created(await data.query("Posts").create({ title: "before" }));
    const release = await holdWriteLock(db.dialect, db.url, db.pgSchema);
    try {
      await assert.rejects(
        () => data.query("Posts").create({ title: "blocked" }),
        is503,
      );
      await assert.rejects(
        () =>
          data.query("Posts").where({ title: "before" }).update({ title: "x" }),
        is503,
      );
    } finally {
      await release();
    }
    // Once the lock is gone, writes go through again.
    created(await data.query("Posts").create({ title: "after" }));
    assert.deepEqual(
      (await data.query("Posts").order("title").findMany()).map((p) => p.title),
      ["after", "before"],
    );
  },
  { file: true },
);

dbTest(
  "SQLite: a create of one statement against another connection's write lock waits for it, or answers 503",
  async (db) => {
    if (db.dialect !== "sqlite") return;
    const data = await db.open({ collections });
    let release = await holdWriteLock(db.dialect, db.url);
    const waiting = data.query("Quiet").create({ title: "waited" });
    await release();
    created(await waiting);
    const impatient = await db.open({ collections, busyTimeout: 50 });
    release = await holdWriteLock(db.dialect, db.url);
    try {
      await assert.rejects(
        () => impatient.query("Quiet").create({ title: "blocked" }),
        is503,
      );
    } finally {
      await release();
    }
    created(await impatient.query("Quiet").create({ title: "after" }));
    assert.deepEqual(
      (await data.query("Quiet").order("title").findMany()).map((p) => p.title),
      ["after", "waited"],
    );
  },
  { file: true },
);

Deno.test("busy errors are recognised on both dialects", () => {
  const sqliteBusy = Object.assign(new Error("database is locked"), {
    code: "ERR_SQLITE_ERROR",
  });
  const sqliteLocked = Object.assign(new Error("database table is locked"), {
    code: "ERR_SQLITE_ERROR",
  });
  for (const code of ["40001", "55P03", "40P01"]) {
    assert.equal(isBusyError(Object.assign(new Error("pg"), { code })), true);
  }
  assert.equal(isBusyError(sqliteBusy), true);
  assert.equal(isBusyError(sqliteLocked), true);
  assert.equal(
    isBusyError(Object.assign(new Error("x"), { code: "23505" })),
    false,
  );
  assert.equal(
    isBusyError(
      Object.assign(new Error("no such table"), { code: "ERR_SQLITE_ERROR" }),
    ),
    false,
  );
  assert.equal(isBusyError("database is locked"), false);
  const mapped = mapBusyError(sqliteBusy) as HTTPError;
  assert.ok(is503(mapped));
  assert.equal(mapped.cause, sqliteBusy);
  const other = new Error("other");
  assert.equal(mapBusyError(other), other);
  assert.ok(is503(busyError(other)));
});

Deno.test("unreachable-server errors are recognised and become 503, other errors not", () => {
  const unavailable = [
    Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    Object.assign(new Error("shutting down"), { code: "57P01" }),
    Object.assign(new Error("starting up"), { code: "57P03" }),
    Object.assign(new Error("too many clients"), { code: "53300" }),
    Object.assign(new Error("connection failure"), { code: "08006" }),
    new Error("Connection terminated unexpectedly"),
    new Error("timeout exceeded when trying to connect"),
  ];
  for (const error of unavailable) {
    assert.equal(isUnavailableError(error), true, error.message);
    const mapped = mapBusyError(error) as { status?: number };
    assert.equal(mapped.status, 503, error.message);
  }
  for (
    const error of [
      Object.assign(new Error("duplicate key"), { code: "23505" }),
      Object.assign(new Error("syntax"), { code: "42601" }),
      new Error("Connection refused by policy"),
      "ECONNREFUSED",
    ]
  ) {
    assert.equal(isUnavailableError(error), false, String(error));
    assert.equal(mapBusyError(error), error);
  }
});

Deno.test("a boot while another connection holds SQLite's write lock waits for it and syncs", async () => {
  // Schema sync first tries its transaction on the raw handle, which cannot wait for the
  // lock: refused there, it must go the way that waits, not fail the boot.
  const dir = await Deno.makeTempDir();
  const url = `${dir}/app.db`;
  const other = new DatabaseSync(url);
  other.exec("pragma journal_mode = wal");
  other.exec("begin immediate");
  // Runs once the boot waits on a timer: after its first attempt at the lock.
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec("rollback");
      other.close();
      resolve();
    }, 0)
  );
  try {
    const data = await openDataLayer({ url, collections, busyTimeout: 2000 });
    await released;
    created(await data.query("Posts").create({ title: "after the lock" }));
    await data.close();
  } finally {
    await released;
    await Deno.remove(dir, { recursive: true });
  }
});
