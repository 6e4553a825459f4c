// A create of its own with nothing but its row runs alone (collections/_create_alone.ts):
// one synchronous transaction on SQLite, one statement on PostgreSQL. It must store, log,
// answer and refuse exactly as the general path does. Two collections alike, `Fast` and
// `General`, compare them: a `record:beforeWrite` function that changes nothing sends every
// create of `General` down the general path.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { defineCollection, field } from "./_imports.ts";
import { created, dbTest, refused, type TestDatabase } from "./_helpers.ts";
import type { DataLayer } from "../../collections/mod.ts";
import { kyselyOf } from "../../collections/database.ts";
import { type CreateResult, errorCodes } from "../../collections/results.ts";
import type { BeforeWriteHooks } from "../../collections/changes/before_write.ts";

const fields = {
  title: field("text", { max: 20 }),
  body: field("text", { nullable: true }),
  views: field("integer", { default: 7 }),
  score: field("number", { nullable: true }),
  done: field("boolean", { default: false }),
  tags: field("multiSelect", {
    choices: ["a", "b", "c"],
    default: () => ["a"],
  }),
  kind: field("select", { choices: ["x", "y"], nullable: true }),
  day: field("date", { nullable: true }),
  at: field("dateTime", { nullable: true }),
  stamp: field("text", { writable: false, default: "server" }),
};

const slowly = (value: unknown) =>
  Promise.resolve(value === "no" ? "Not that" : undefined);

const collections = {
  Fast: defineCollection({ fields }),
  General: defineCollection({ fields }),
  FastQuiet: defineCollection({ fields, events: false }),
  GeneralQuiet: defineCollection({ fields, events: false }),
  // A validator that answers later: the values then settle out of definition order.
  FastAsync: defineCollection({
    fields: {
      ...fields,
      note: field("text", { nullable: true, validators: [slowly] }),
    },
  }),
  GeneralAsync: defineCollection({
    fields: {
      ...fields,
      note: field("text", { nullable: true, validators: [slowly] }),
    },
  }),
};

/** Sends every create of a `General…` collection down the general path; changes nothing. */
const general: BeforeWriteHooks = {
  matches: (collection) => collection.startsWith("General"),
  run: () => Promise.resolve(),
};

const PAIRS = [
  ["Fast", "General"],
  ["FastQuiet", "GeneralQuiet"],
  ["FastAsync", "GeneralAsync"],
] as const;

function open(db: TestDatabase): Promise<DataLayer> {
  return db.open({
    collections,
    beforeWrite: general,
    now: () => 1_700_000_000_123,
    actingUser: () => ({ UUID: "00000000-0000-4000-8000-00000000000a" }),
  });
}

interface LogRow {
  collection: string;
  uuid: string;
  op: string;
  at: number;
  changed: string;
  locale: string | null;
  actor: string | null;
}

async function logRows(data: DataLayer, uuid: string): Promise<LogRow[]> {
  const { rows } = await sql<LogRow>`
    select "collection", "uuid", "op", "at", "changed", "locale", "actor"
    from "_strata_changes" where "uuid" = ${uuid}`.execute(kyselyOf(data.db));
  return rows.map((row) => ({ ...row, at: Number(row.at) }));
}

/** The record's answer as bytes, its UUID left out. */
function bytes(record: Record<string, unknown>): string {
  return JSON.stringify({ ...record, UUID: "…" });
}

const INPUTS: Record<string, unknown>[] = [
  { title: "plain" },
  {
    title: "every field",
    body: "it's a \\ back'slash, $1 and \ud800",
    views: -3,
    score: 0.1 + 0.2,
    done: true,
    tags: ["c", "b"],
    kind: "y",
    day: "2024-02-29",
    at: 1_700_000_000_000,
  },
  { title: "nulls", body: null, score: null, kind: null, views: 0 },
  { title: "undefined is absent", body: undefined, note: "fine" },
];

dbTest(
  "create alone and the general create store, log and answer the same",
  async (db) => {
    const data = await open(db);
    for (const [fast, slow] of PAIRS) {
      for (const input of INPUTS) {
        const given = fast.endsWith("Async") || !("note" in input)
          ? input
          : { ...input, note: undefined };
        const one = created(await data.query(fast).create({ ...given }));
        const two = created(await data.query(slow).create({ ...given }));
        assert.equal(bytes(one), bytes(two), `${fast}: ${bytes(one)}`);
        // What a re-read answers, the answer answered.
        for (const [name, record] of [[fast, one], [slow, two]] as const) {
          const read = await data.query(name).where({ UUID: record.UUID })
            .findFirst();
          assert.equal(bytes(read!), bytes(record), name);
        }
        const logs = [
          await logRows(data, one.UUID as string),
          await logRows(data, two.UUID as string),
        ];
        assert.deepEqual(
          logs[0].map((row) => ({ ...row, uuid: "…", collection: "…" })),
          logs[1].map((row) => ({ ...row, uuid: "…", collection: "…" })),
        );
        assert.equal(logs[0].length, fast.endsWith("Quiet") ? 0 : 1);
      }
    }
  },
);

dbTest(
  "create alone and the general create refuse the same, and write nothing",
  async (db) => {
    const data = await open(db);
    const bad: Record<string, unknown>[] = [
      {},
      { title: "x".repeat(21) },
      { title: 3 },
      { title: "a", stamp: "mine" },
      { title: "a", unknown: 1, UUID: "x", _updatedAt: 1 },
      { title: "nul \u0000" },
      { title: "a", tags: ["z"], views: 1.5, done: "yes" },
      { title: "a", note: "no" },
    ];
    for (const [fast, slow] of PAIRS) {
      for (const input of bad) {
        const given = fast.endsWith("Async") || !("note" in input)
          ? input
          : { title: "a", note: 1 };
        const one = refused(await data.query(fast).create({ ...given }));
        const two = refused(await data.query(slow).create({ ...given }));
        assert.deepEqual(one, two, `${fast} ${JSON.stringify(given)}`);
        assert.deepEqual(errorCodes(one), errorCodes(two));
      }
      assert.equal(await data.query(fast).count(), 0);
      assert.equal(await data.query(slow).count(), 0);
    }
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from "_strata_changes"`.execute(kyselyOf(data.db));
    assert.equal(Number(rows[0].n), 0);
  },
);

/** Makes every insert into the change log fail (a trigger), and undoes it. */
async function failingLog(data: DataLayer, on: boolean): Promise<void> {
  const db = kyselyOf(data.db);
  if (data.dialect === "sqlite") {
    await sql.raw(
      on
        ? `create trigger "no_log" before insert on "_strata_changes" begin select raise(abort, 'The log refuses'); end`
        : `drop trigger "no_log"`,
    ).execute(db);
    return;
  }
  await sql.raw(
    on
      ? `create function "no_log"() returns trigger language plpgsql as $$ begin raise exception 'The log refuses'; end $$;
         create trigger "no_log" before insert on "_strata_changes" for each row execute function "no_log"()`
      : `drop trigger "no_log" on "_strata_changes"; drop function "no_log"()`,
  ).execute(db);
}

dbTest(
  "a create whose change-log row fails rolls back on either path, and the next one goes through",
  async (db) => {
    const data = await open(db);
    await failingLog(data, true);
    for (const name of ["Fast", "General"]) {
      await assert.rejects(
        data.query(name).create({ title: "lost" }),
        /The log refuses/,
      );
      assert.equal(await data.query(name).count(), 0, name);
    }
    await failingLog(data, false);
    for (const name of ["Fast", "General"]) {
      created(await data.query(name).create({ title: "kept" }));
      assert.equal(await data.query(name).count(), 1, name);
    }
  },
);

dbTest(
  "a create alone while a transaction holds the connection waits its turn and never joins it",
  async (db) => {
    const data = await open(db);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => entered = resolve);
    let leave!: () => void;
    const held = new Promise<void>((resolve) => leave = resolve);
    const transaction = data.transaction(async () => {
      created(await data.query("Fast").create({ title: "rolled back" }));
      entered();
      await held;
      throw new Error("Roll back");
    });
    await inside;
    const alone = data.query("Fast").create({ title: "alone" });
    leave();
    await assert.rejects(transaction, /Roll back/);
    const record = created(await alone);
    const titles = (await data.query("Fast").findMany()).map((r) => r.title);
    assert.deepEqual(titles, ["alone"]);
    assert.equal((await logRows(data, record.UUID as string)).length, 1);
  },
);

dbTest(
  "a duplicate UUID is refused as notUnique on either path",
  async (db) => {
    const data = await open(db);
    for (const name of ["Fast", "General", "FastQuiet"]) {
      const first = created(await data.query(name).create({ title: "one" }));
      const randomUUID = crypto.randomUUID;
      crypto.randomUUID = () => first.UUID as ReturnType<typeof randomUUID>;
      let result;
      try {
        result = await data.query(name).create({ title: "two" });
      } finally {
        crypto.randomUUID = randomUUID;
      }
      assert.deepEqual(errorCodes(refused(result)), { UUID: "notUnique" });
      assert.equal(await data.query(name).count(), 1);
    }
  },
);

dbTest(
  "on PostgreSQL a create chosen as a deadlock's victim runs once more on either path",
  async (db) => {
    if (db.dialect !== "postgres") return;
    const data = await open(db);
    const kysely = kyselyOf(data.db);
    for (const name of ["Fast", "General"]) {
      // A sequence is not rolled back with the statement: only the first insert fails.
      await sql.raw(
        `create sequence "once_${name}";
         create function "victim_${name}"() returns trigger language plpgsql as $$
         begin
           if nextval('"once_${name}"') = 1 then
             raise exception 'Chosen as the victim' using errcode = 'deadlock_detected';
           end if;
           return new;
         end $$;
         create trigger "victim" before insert on "${name}" for each row execute function "victim_${name}"()`,
      ).execute(kysely);
      const record = created(await data.query(name).create({ title: "again" }));
      assert.equal(await data.query(name).count(), 1, name);
      assert.equal((await logRows(data, record.UUID as string)).length, 1);
    }
  },
);

dbTest(
  "a feed listener may change an event's changed list: the next create logs its own",
  async (db) => {
    const data = await open(db);
    const failures: unknown[] = [];
    const stop = await data.feed.subscribe((events) => {
      for (const event of events) {
        try {
          (event.changed as string[]).push("mine");
        } catch (error) {
          failures.push(error);
        }
      }
    });
    try {
      for (const title of ["one", "two"]) {
        const record = created(await data.query("Fast").create({ title }));
        await data.feed.settle();
        const [row] = await logRows(data, record.UUID as string);
        assert.deepEqual(JSON.parse(row.changed), Object.keys(fields));
      }
    } finally {
      stop();
    }
    assert.deepEqual(failures, []);
  },
);

dbTest(
  "creates started together each commit and answer, each with its log row, and the feed hands out each once",
  async (db) => {
    const data = await open(db);
    const seen: string[] = [];
    const stop = await data.feed.subscribe((events) => {
      for (const event of events) seen.push(event.uuid);
    });
    try {
      // On SQLite these commit as one transaction at the end of the turn (group commit).
      const names = ["Fast", "FastQuiet", "Fast", "Fast", "FastQuiet", "Fast"];
      const records = (await Promise.all(
        names.map((name, i) => data.query(name).create({ title: `n${i}` })),
      )).map(created);
      assert.deepEqual(
        records.map((r) => r.title),
        names.map((_, i) => `n${i}`),
      );
      assert.equal(new Set(records.map((r) => r.UUID)).size, names.length);
      for (const [i, record] of records.entries()) {
        const read = await data.query(names[i]).where({ UUID: record.UUID })
          .findFirst();
        assert.equal(bytes(read!), bytes(record));
        const logs = await logRows(data, record.UUID as string);
        assert.equal(logs.length, names[i] === "Fast" ? 1 : 0);
      }
      await data.feed.settle();
      const logged = records.filter((_, i) => names[i] === "Fast")
        .map((r) => r.UUID as string);
      assert.deepEqual([...seen].sort(), [...logged].sort());
    } finally {
      stop();
    }
  },
);

/** Makes inserts into `Fast` of the title `boom` fail (a trigger), and only those. */
async function failingTitle(data: DataLayer): Promise<void> {
  const db = kyselyOf(data.db);
  await sql.raw(
    data.dialect === "sqlite"
      ? `create trigger "boom" before insert on "Fast" when new."title" = 'boom' begin select raise(abort, 'Boom refused'); end`
      : `create function "boom"() returns trigger language plpgsql as $$
         begin
           if new."title" = 'boom' then raise exception 'Boom refused'; end if;
           return new;
         end $$;
         create trigger "boom" before insert on "Fast" for each row execute function "boom"()`,
  ).execute(db);
}

dbTest(
  "a create that fails among creates started together fails alone: the others commit with their log rows",
  async (db) => {
    const data = await open(db);
    await failingTitle(data);
    const titles = ["first", "boom", "second", "boom", "third"];
    const outcomes = await Promise.allSettled(
      titles.map((title) => data.query("Fast").create({ title })),
    );
    const kept: string[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (titles[i] === "boom") {
        assert.equal(outcome.status, "rejected");
        assert.match(
          String((outcome as PromiseRejectedResult).reason),
          /Boom refused/,
        );
        continue;
      }
      assert.equal(outcome.status, "fulfilled");
      const record = created(
        (outcome as PromiseFulfilledResult<CreateResult>).value,
      );
      kept.push(record.title as string);
      assert.equal((await logRows(data, record.UUID as string)).length, 1);
    }
    const stored = (await data.query("Fast").findMany()).map((r) => r.title);
    assert.deepEqual([...stored].sort(), ["first", "second", "third"]);
    assert.deepEqual(kept, ["first", "second", "third"]);
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from "_strata_changes"`.execute(kyselyOf(data.db));
    assert.equal(Number(rows[0].n), 3);
  },
);
