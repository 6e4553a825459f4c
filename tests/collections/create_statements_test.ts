import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "kysely";
import { defineCollection, field } from "./_imports.ts";
import { created, dataTest, dbTest, pgCalls, refused } from "./_helpers.ts";
import type { DataLayer } from "../../collections/mod.ts";
import { kyselyOf } from "../../collections/database.ts";
import { errorCodes } from "../../collections/results.ts";
import {
  currentQueryTimeout,
  withQueryTimeout,
} from "../../collections/db/deadline.ts";

const collections = {
  Notes: defineCollection({
    fields: {
      title: field("text"),
      views: field("integer", { default: 0 }),
      score: field("number", { nullable: true }),
      done: field("boolean", { default: false }),
    },
  }),
  Drafts: defineCollection({
    fields: {
      title: field("text"),
      done: field("boolean", { default: false }),
    },
    events: false,
  }),
};

/** A query given to `pg` as an object (a `Query` or a config). */
type Sent = { text?: string; values?: unknown[] } | null;

/** The statements the `pg` clients send while `fn` runs (their text). */
async function pgStatements(fn: () => Promise<unknown>): Promise<string[]> {
  return (await pgCalls(fn)).map(([sent]) =>
    typeof sent === "string" ? sent : (sent as Sent)?.text ?? ""
  );
}

/** The parameterised statements the `pg` clients send while `fn` runs, with their values. */
async function pgBindings(
  fn: () => Promise<unknown>,
): Promise<{ text: string; values: unknown[] }[]> {
  const bindings: { text: string; values: unknown[] }[] = [];
  for (const [sent, values] of await pgCalls(fn)) {
    const bound = typeof sent === "string" ? values : (sent as Sent)?.values;
    if (!Array.isArray(bound) || bound.length === 0) continue;
    const text = typeof sent === "string" ? sent : (sent as Sent)?.text ?? "";
    bindings.push({ text, values: bound });
  }
  return bindings;
}

/** Runs `fn` while `crypto.randomUUID` answers `uuid` once. */
async function withNextUuid<T>(uuid: string, fn: () => Promise<T>): Promise<T> {
  const randomUUID = crypto.randomUUID;
  let used = false;
  crypto.randomUUID = () => {
    if (used) return randomUUID.call(crypto);
    used = true;
    return uuid as ReturnType<typeof randomUUID>;
  };
  try {
    return await fn();
  } finally {
    crypto.randomUUID = randomUUID;
  }
}

async function changeCount(data: DataLayer): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from "_strata_changes"`.execute(kyselyOf(data.db));
  return Number(rows[0].n);
}

dataTest(
  "create: the values a create stores are read back as sent (quotes, backslashes, booleans, numbers)",
  { collections },
  async (data) => {
    for (const name of ["Notes", "Drafts"]) {
      const title = `it's a \\ back'slash \\' and $1 and 'quotes'`;
      const input = name === "Notes"
        ? { title, views: -12, score: 0.1 + 0.2, done: true }
        : { title, done: false };
      const record = created(await data.query(name).create(input));
      const read = await data.query(name).where({ UUID: record.UUID })
        .findFirst();
      assert.deepEqual(read, record);
      for (const [key, value] of Object.entries(input)) {
        assert.deepEqual(read![key], value, key);
      }
    }
    assert.equal(await changeCount(data), 1);
  },
);

dataTest(
  "create: a duplicate UUID is refused as notUnique and writes nothing, also when the INSERT waits for the commit",
  { collections },
  async (data) => {
    for (const name of ["Notes", "Drafts"]) {
      const first = created(
        await data.query(name).create({ title: "first" }),
      );
      const changes = await changeCount(data);
      const result = await withNextUuid(
        first.UUID as string,
        () => data.query(name).create({ title: "second" }),
      );
      const errors = refused(result);
      assert.deepEqual(Object.keys(errors), ["UUID"]);
      assert.deepEqual(errorCodes(errors), { UUID: "notUnique" });
      assert.equal(await data.query(name).count(), 1);
      assert.equal(await changeCount(data), changes);
      // The connection is fine afterwards.
      created(await data.query(name).create({ title: "third" }));
      assert.equal(await data.query(name).count(), 2);
    }
  },
);

dbTest(
  "create: inside a caller's transaction a refused create rolls back alone",
  async (db) => {
    const data = await db.open({ collections });
    const first = created(await data.query("Drafts").create({ title: "a" }));
    const outcome = await data.transaction(async () => {
      const kept = created(
        await data.query("Drafts").create({ title: "kept" }),
      );
      const twin = await withNextUuid(
        first.UUID as string,
        () => data.query("Drafts").create({ title: "twin" }),
      );
      refused(twin);
      return kept;
    });
    assert.equal(outcome.title, "kept");
    assert.equal(await data.query("Drafts").count(), 2);
  },
);

dbTest(
  "create: on PostgreSQL a create of its own is one statement in autocommit (with its change-log row); on the general path one query (begin, insert, change log, commit)",
  async (db) => {
    if (db.dialect !== "postgres") return;
    // A record:beforeWrite function sends Held's creates down the general path.
    const data = await db.open({
      collections: { ...collections, Held: collections.Notes },
      beforeWrite: {
        matches: (name) => name === "Held",
        run: () => Promise.resolve(),
      },
    });
    for (const name of ["Notes", "Drafts", "Held"]) {
      const statements = await pgStatements(() =>
        data.query(name).create({ title: "one", done: true })
      );
      const writes = statements.filter((text) =>
        text.includes(`insert into "${name}"`)
      );
      assert.equal(writes.length, 1, statements.join("\n---\n"));
      assert.equal(
        writes[0].includes(`insert into "_strata_changes"`),
        name !== "Drafts",
      );
      if (name === "Held") {
        assert.match(writes[0], /^begin;\n/);
        assert.match(writes[0], /;\ncommit$/);
      } else {
        // Parameters, not literals: the text is the same for every create.
        assert.doesNotMatch(writes[0], /'one'|begin|commit/);
        assert.match(
          writes[0],
          name === "Notes" ? /^with "r" as \(insert into "Notes"/ : /^insert/,
        );
      }
      // Nothing else of the transaction went alone.
      assert.deepEqual(
        statements.filter((text) => /^(begin|commit)$/.test(text)),
        [],
      );
    }
    assert.equal(await data.query("Notes").count(), 1);
    assert.equal(await data.query("Drafts").count(), 1);
    assert.equal(await data.query("Held").count(), 1);
    assert.equal(await changeCount(data), 2);
  },
);

dbTest(
  "transaction: writes join it beneath an app's own AsyncLocalStorage and a query deadline, and nothing leaks out",
  async (db) => {
    const data = await db.open({ collections });
    const app = new AsyncLocalStorage<string>();
    await assert.rejects(
      data.transaction(() =>
        app.run("app", () =>
          withQueryTimeout(5000, async () => {
            await new Promise((resolve) => setTimeout(resolve, 1));
            assert.equal(currentQueryTimeout(), 5000);
            assert.equal(app.getStore(), "app");
            created(await data.query("Drafts").create({ title: "rolled" }));
            throw new Error("Roll back");
          }))
      ),
      /Roll back/,
    );
    // The create joined the transaction: it rolled back with it.
    assert.equal(await data.query("Drafts").count(), 0);
    assert.equal(currentQueryTimeout(), 0);
    assert.equal(data.executor(), data.db);
  },
);

dbTest(
  "create: on PostgreSQL a create of its own binds its row and its actor only, its log row taken from the row inserted",
  async (db) => {
    if (db.dialect !== "postgres") return;
    const actor = "00000000-0000-4000-8000-0000000000ac";
    const data = await db.open({
      collections,
      now: () => 1_700_000_000_321,
      actingUser: () => ({ UUID: actor }),
    });
    let note: Record<string, unknown> | undefined;
    const bindings = await pgBindings(async () => {
      note = created(
        await data.query("Notes").create({ title: "it's $1", views: 3 }),
      );
    });
    assert.equal(bindings.length, 1, JSON.stringify(bindings));
    // UUID, _updatedAt, title, views, score, done, then the actor: no value twice.
    assert.deepEqual(bindings[0].values, [
      note!.UUID,
      1_700_000_000_321,
      "it's $1",
      3,
      null,
      false,
      actor,
    ]);
    const { rows } = await sql<Record<string, unknown>>`
      select "collection", "uuid", "op", "at", "changed", "locale", "actor"
      from "_strata_changes"`.execute(kyselyOf(data.db));
    assert.deepEqual(
      rows.map((row) => ({ ...row, at: Number(row.at) })),
      [{
        collection: "Notes",
        uuid: note!.UUID,
        op: "create",
        at: 1_700_000_000_321,
        changed: JSON.stringify(["title", "views", "score", "done"]),
        locale: null,
        actor,
      }],
    );
  },
);

dbTest(
  "create: on PostgreSQL a create of its own runs under the statement limit in force",
  async (db) => {
    if (db.dialect !== "postgres") return;
    const data = await db.open({ collections });
    const trx = kyselyOf(data.db);
    await sql`create function "slow_note"() returns trigger language plpgsql as $$
      begin perform pg_sleep(2); return new; end $$`.execute(trx);
    await sql`create trigger "slow_note" before insert on "Notes"
      for each row execute function "slow_note"()`.execute(trx);
    await assert.rejects(
      () =>
        withQueryTimeout(50, () => data.query("Notes").create({ title: "x" })),
      (error: { status?: number; data?: unknown }) =>
        error.status === 503 &&
        JSON.stringify(error.data) === '{"code":"queryTimeout"}',
    );
    assert.equal(await data.query("Notes").count(), 0);
    assert.equal(await changeCount(data), 0);
    await sql`drop trigger "slow_note" on "Notes"`.execute(trx);
    created(await data.query("Notes").create({ title: "y" }));
    assert.equal(await changeCount(data), 1);
  },
);
