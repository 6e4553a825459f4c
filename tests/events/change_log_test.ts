import assert from "node:assert/strict";
import {
  type ChangeEvent,
  readChanges,
} from "../../collections/changes/log.ts";
import { authLayer } from "../../auth/mod.ts";
import {
  ADMIN,
  ask,
  clearLog,
  EVENTS_APP,
  eventsTest,
  eventually,
  install,
  logOf,
} from "./_helpers.ts";
import { kyselyOf } from "../../collections/database.ts";
import type { App } from "../../mod.ts";

/** The seqs in the log, oldest first. */
async function seqs(app: App): Promise<number[]> {
  const rows = await kyselyOf(app.db).selectFrom("_strata_changes")
    .select("seq").orderBy("seq").execute();
  return rows.map((row) => Number(row.seq));
}

/**
 * A connection of its own to the app's PostgreSQL schema: a writer the app does not see,
 * to hold a seq uncommitted.
 */
async function ownConnection(app: App): Promise<import("pg").Client> {
  const { sql } = await import("kysely");
  const schema = (await sql<{ name: string }>`select current_schema() as name`
    .execute(kyselyOf(app.db))).rows[0].name;
  const pg = (await import("pg")).default;
  const client = new pg.Client({
    connectionString: Deno.env.get("STRATA_TEST_POSTGRES"),
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  return client;
}

eventsTest("change log: every HTTP write path logs its changes", async (h) => {
  const app = await h.boot({ root: EVENTS_APP });
  const { cookie, user } = await install(app);
  await clearLog(app);
  const post = (path: string, json: unknown) =>
    ask(app, path, { method: "POST", cookie, json });
  const owner = (await post("/collections/owners", { name: "Ann" })).body.UUID;
  const tag = (await post("/collections/tags", { label: "t" })).body.UUID;
  const created = await post("/collections/pets", {
    name: "Rex",
    title: "Dog",
    keeper: owner,
    tags: [tag],
  });
  assert.equal(created.status, 201);
  const pet = created.body.UUID;
  const actor = user.UUID;
  // An update changing one field of two given: only that one is `changed`.
  const patched = await ask(app, `/collections/pets/${pet}`, {
    method: "PATCH",
    cookie,
    json: { name: "Rex", note: null, tags: [tag] },
  });
  assert.equal(patched.status, 200);
  await ask(app, `/collections/pets/${pet}`, {
    method: "PATCH",
    cookie,
    json: { name: "Max", tags: [] },
  });
  // A translation write names its locale and the fields of that locale it changed.
  await ask(app, `/collections/pets/${pet}?locale=de`, {
    method: "PATCH",
    cookie,
    json: { title: "Hund" },
  });
  const removed = await ask(
    app,
    `/collections/pets/${pet}/translations?locale=de`,
    { method: "DELETE", cookie },
  );
  assert.equal(removed.status, 204);
  assert.deepEqual(await logOf(app), [
    {
      collection: "Owners",
      uuid: owner,
      op: "create",
      changed: ["name", "email"],
      locale: null,
      actor,
    },
    {
      collection: "Tags",
      uuid: tag,
      op: "create",
      changed: ["label"],
      locale: null,
      actor,
    },
    {
      collection: "Pets",
      uuid: pet,
      op: "create",
      changed: ["name", "title", "note", "vet", "keeper", "owner", "tags"],
      locale: "en",
      actor,
    },
    {
      collection: "Pets",
      uuid: pet,
      op: "update",
      changed: [],
      locale: "en",
      actor,
    },
    {
      collection: "Pets",
      uuid: pet,
      op: "update",
      changed: ["name", "tags"],
      locale: null,
      actor,
    },
    {
      collection: "Pets",
      uuid: pet,
      op: "update",
      changed: ["title"],
      locale: "de",
      actor,
    },
    // Removing a translation changes every translatable field of its locale.
    {
      collection: "Pets",
      uuid: pet,
      op: "update",
      changed: ["title", "note"],
      locale: "de",
      actor,
    },
  ]);
});

eventsTest(
  "change log: deletes log cascades, setNull and list-link removals",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie, user } = await install(app);
    const actor = user.UUID;
    const post = async (path: string, json: unknown) =>
      (await ask(app, path, { method: "POST", cookie, json })).body.UUID;
    const ann = await post("/collections/owners", { name: "Ann" });
    const tag = await post("/collections/tags", { label: "t" });
    const owned = await post("/collections/pets", { name: "a", owner: ann });
    const kept = await post("/collections/pets", { name: "b", keeper: ann });
    const tagged = await post("/collections/pets", { name: "c", tags: [tag] });
    await clearLog(app);
    const gone = await ask(app, `/collections/owners/${ann}`, {
      method: "DELETE",
      cookie,
    });
    assert.equal(gone.status, 204);
    await ask(app, `/collections/tags/${tag}`, { method: "DELETE", cookie });
    const log = await logOf(app);
    const set = (entries: typeof log) =>
      new Set(entries.map((e) => JSON.stringify(e)));
    assert.deepEqual(
      set(log),
      set([
        {
          collection: "Pets",
          uuid: kept,
          op: "update",
          changed: ["keeper"],
          locale: null,
          actor,
        },
        {
          collection: "Owners",
          uuid: ann,
          op: "delete",
          changed: [],
          locale: null,
          actor,
        },
        {
          collection: "Pets",
          uuid: owned,
          op: "delete",
          changed: [],
          locale: null,
          actor,
        },
        {
          collection: "Pets",
          uuid: tagged,
          op: "update",
          changed: ["tags"],
          locale: null,
          actor,
        },
        {
          collection: "Tags",
          uuid: tag,
          op: "delete",
          changed: [],
          locale: null,
          actor,
        },
      ]),
    );
    assert.equal(log.length, 5);
  },
);

eventsTest(
  "change log: query builder writes log (no actor); refused and rolled-back writes log nothing",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await install(app);
    await clearLog(app);
    const pets = app.query("Pets");
    const a = await pets.create({ name: "a" });
    assert.ok(a.ok);
    // Refused: nothing written, nothing logged.
    assert.equal((await pets.create({ name: 5 })).ok, false);
    // Rolled back by the app after a successful write.
    await assert.rejects(
      app.data.transaction(async () => {
        await app.query("Tags").create({ label: "x" });
        throw new Error("Changed my mind");
      }),
      /Changed my mind/,
    );
    // A refused write inside a transaction rolls back alone (its savepoint).
    await app.data.transaction(async () => {
      await app.query("Tags").create({ label: "kept" });
      assert.equal((await app.query("Tags").create({ label: 1 })).ok, false);
    });
    const updated = await pets.where({ name: "a" }).update({ name: "b" });
    assert.ok(updated.ok);
    await app.query("Pets").where({ name: "b" }).delete();
    const log = await logOf(app);
    assert.deepEqual(log.map((e) => [e.collection, e.op, e.actor]), [
      ["Pets", "create", null],
      ["Tags", "create", null],
      ["Pets", "update", null],
      ["Pets", "delete", null],
    ]);
    assert.deepEqual(log[2].changed, ["name"]);
  },
);

eventsTest("change log: sessions produce no changes", async (h) => {
  const app = await h.boot({ root: EVENTS_APP });
  await install(app);
  await clearLog(app);
  const login = await ask(app, "/auth/login", { json: ADMIN });
  assert.equal(login.status, 200);
  assert.deepEqual(await logOf(app), []);
});

eventsTest(
  "change log: a change committed on one instance reaches the other's feed",
  async (h) => {
    const one = await h.boot({ root: EVENTS_APP });
    const two = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(one);
    // A listener sees what commits after the feed's position: let both read the install's.
    await one.data.feed.settle();
    await two.data.feed.settle();
    const seenOnTwo: ChangeEvent[] = [];
    const seenOnOne: ChangeEvent[] = [];
    const stopTwo = await two.data.feed.subscribe((e) => seenOnTwo.push(...e));
    const stopOne = await one.data.feed.subscribe((e) => seenOnOne.push(...e));
    const created = await ask(one, "/collections/tags", {
      method: "POST",
      cookie,
      json: { label: "hello" },
    });
    // The writer's own feed wakes at once, without waiting for a poll.
    await eventually(() => seenOnOne.length === 1, 20_000, "the local event");
    await eventually(() => seenOnTwo.length === 1, 20_000, "the remote event");
    assert.equal(seenOnTwo[0].uuid, created.body.UUID);
    assert.equal(seenOnTwo[0].seq, seenOnOne[0].seq);
    // Nothing for a transaction rolled back on two.
    await assert.rejects(
      two.data.transaction(async () => {
        await two.query("Tags").create({ label: "never" });
        throw new Error("rollback");
      }),
    );
    await two.query("Tags").create({ label: "second" });
    await eventually(() => seenOnOne.length === 2, 20_000, "the second event");
    await eventually(() => seenOnTwo.length === 2, 20_000, "the second event");
    assert.ok(seenOnOne[1].seq > seenOnOne[0].seq);
    stopOne();
    stopTwo();
  },
  { shared: true },
);

eventsTest(
  "change log: pruned past its retention by one instance",
  async (h) => {
    const one = await h.boot({ root: EVENTS_APP });
    const two = await h.boot({
      root: EVENTS_APP,
      config: {
        layers: [authLayer()],
        auth: { password: { cost: 1024 } },
        collections: { locales: ["en", "de"] },
        events: { retention: "1h", maxRows: 2 },
      },
    });
    await one.query("Tags").create({ label: "old" });
    h.clock.advance(2 * 3_600_000);
    for (const label of ["a", "b", "c"]) {
      await one.query("Tags").create({ label });
    }
    assert.equal((await logOf(one)).length, 4);
    // One of two instances claims the sweep; the other finds it done.
    const claims = await Promise.all([
      two.data.pruneChanges(),
      two.data.pruneChanges(),
    ]);
    assert.deepEqual(claims.sort(), [false, true]);
    // Older than an hour, and beyond the newest two: gone.
    assert.equal(await one.query("Tags").count(), 4);
    assert.deepEqual(
      (await logOf(one)).map((e) => e.collection + e.op),
      ["Tagscreate", "Tagscreate"],
    );
    assert.equal(await one.data.pruneChanges(), false);
    h.clock.advance(61_000);
    assert.equal(await one.data.pruneChanges(), true);
  },
  { shared: true },
);

eventsTest(
  "change log: pruning keeps the newest change, however old, so no seq is handed out twice",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await app.query("Tags").create({ label: "old" });
    const newest = (await seqs(app)).at(-1)!;
    h.clock.advance(48 * 3_600_000);
    assert.equal(await app.data.pruneChanges(), true);
    assert.deepEqual(await seqs(app), [newest]);
    await app.query("Tags").create({ label: "new" });
    const after = await seqs(app);
    assert.equal(after.length, 2);
    assert.ok(after[1] > newest, `seq ${after[1]} follows ${newest}`);
  },
);

eventsTest(
  "change log: the writer's feed hands out its own changes as the log holds them, after those written elsewhere first",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await app.data.feed.settle();
    const seen: ChangeEvent[] = [];
    const stop = await app.data.feed.subscribe((e) => seen.push(...e));
    const log = kyselyOf(app.db);
    await app.query("Tags").create({ label: "a" });
    await app.data.transaction(async () => {
      for (const label of ["b", "c"]) await app.query("Tags").create({ label });
    });
    await eventually(() => seen.length === 3, 20_000, "three events");
    // Another process's write: this one's feed is not told of it.
    await log.insertInto("_strata_changes").values({
      collection: "Tags",
      uuid: "elsewhere",
      op: "delete",
      at: 0,
      changed: "[]",
    }).execute();
    await app.query("Tags").create({ label: "d" });
    await eventually(() => seen.length === 5, 20_000, "five events");
    assert.deepEqual(seen, await readChanges(log, seen[0].seq - 1, 10));
    assert.equal(seen[3].uuid, "elsewhere");
    assert.deepEqual(
      seen.map((e) => e.seq),
      [0, 1, 2, 3, 4].map((i) => seen[0].seq + i),
    );
    stop();
  },
);

eventsTest("change log: the config refuses bad events options", async (h) => {
  await assert.rejects(
    h.boot({ root: EVENTS_APP, config: { events: { maxRows: 0 } } }),
    /events\.maxRows must be a positive integer/,
  );
  await assert.rejects(
    h.boot({
      root: EVENTS_APP,
      config: { events: { pollInterval: false as never } },
    }),
    /events\.pollInterval/,
  );
});

eventsTest(
  "change log: an app booted on a log that holds changes starts its feed at the newest seq",
  async (h) => {
    const first = await h.boot({ root: EVENTS_APP });
    for (const label of ["a", "b"]) {
      assert.ok((await first.query("Tags").create({ label })).ok);
    }
    const logged = await seqs(first);
    const second = await h.boot({ root: EVENTS_APP });
    assert.equal(second.data.feed.position, logged[logged.length - 1]);
  },
  { shared: true },
);

eventsTest(
  "change log: a feed nobody listens to keeps its position by seqs alone; a listener then gets each later change whole",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    for (const label of ["a", "b", "c"]) {
      assert.ok((await app.query("Tags").create({ label })).ok);
    }
    await app.data.feed.settle();
    const logged = await seqs(app);
    assert.equal(app.data.feed.position, logged[logged.length - 1]);
    const seen: ChangeEvent[] = [];
    const stop = await app.data.feed.subscribe((e) => seen.push(...e));
    try {
      const created = await app.query("Tags").create({ label: "d" });
      assert.ok(created.ok);
      await eventually(() => seen.length === 1, 20_000, "the change");
      await app.data.feed.settle();
      assert.equal(seen.length, 1);
      const [event] = seen;
      assert.equal(event.collection, "Tags");
      assert.equal(event.op, "create");
      assert.equal(event.uuid, created.record.UUID);
      assert.ok(event.changed.includes("label"));
      assert.equal(typeof event.at, "number");
      assert.deepEqual(
        event,
        (await readChanges(kyselyOf(app.db), event.seq - 1, 1))[0],
      );
    } finally {
      stop();
    }
  },
);

eventsTest(
  "change log: a feed nobody listens to does not step over a lower seq still uncommitted",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const client = await ownConnection(app);
    const seen: ChangeEvent[] = [];
    let stop = () => {};
    try {
      await client.query("begin");
      const { rows } = await client.query(
        `insert into _strata_changes (collection, uuid, op, at, changed)
         values ('Tags', 'committed-late', 'create', 0, '[]') returning seq`,
      );
      const late = Number(rows[0].seq);
      // A later seq commits while nobody listens: the idle feed reads past nothing.
      const after = await app.query("Tags").create({ label: "after" });
      assert.ok(after.ok);
      app.data.feed.wake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.ok(app.data.feed.position < late);
      stop = await app.data.feed.subscribe((e) => seen.push(...e));
      await client.query("commit");
      await eventually(
        () => seen.length === 2,
        20_000,
        () => `both changes (${JSON.stringify(seen)})`,
      );
      assert.deepEqual(seen.map((e) => e.uuid), [
        "committed-late",
        after.record.UUID,
      ]);
    } finally {
      stop();
      await client.end();
    }
  },
  { postgresOnly: true },
);

eventsTest(
  "change log: seqs committed out of order reach the feed in seq order, none skipped",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const seen: ChangeEvent[] = [];
    const stop = await app.data.feed.subscribe((e) => seen.push(...e));
    const client = await ownConnection(app);
    try {
      // A writer takes a seq and has not committed yet when a later seq commits.
      const held = async (label: string) => {
        await client.query("begin");
        const { rows } = await client.query(
          `insert into _strata_changes (collection, uuid, op, at, changed)
           values ('Tags', $1, 'create', 0, '[]') returning seq`,
          [label],
        );
        return Number(rows[0].seq);
      };
      const first = await held("committed-late");
      const second = await app.query("Tags").create({ label: "b" });
      assert.ok(second.ok);
      await client.query("commit");
      await eventually(
        () => seen.length === 2,
        15_000,
        () => `both changes (${JSON.stringify(seen)})`,
      );
      assert.deepEqual(seen.map((e) => e.uuid), [
        "committed-late",
        second.record.UUID,
      ]);
      assert.equal(seen[0].seq, first);
      // A writer that rolls back leaves a gap for good; what follows still arrives.
      await held("rolled-back");
      const third = await app.query("Tags").create({ label: "c" });
      assert.ok(third.ok);
      await client.query("rollback");
      await eventually(
        () => seen.length === 3,
        15_000,
        () => `the third change (${JSON.stringify(seen)})`,
      );
      assert.equal(seen[2].uuid, third.record.UUID);
      assert.ok(seen[0].seq < seen[1].seq && seen[1].seq < seen[2].seq);
    } finally {
      stop();
      await client.end();
    }
  },
  { postgresOnly: true },
);

eventsTest(
  "change log: a committed write wakes every instance's LISTEN (NOTIFY strata_changes)",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const pg = (await import("pg")).default;
    const client = new pg.Client({
      connectionString: Deno.env.get("STRATA_TEST_POSTGRES"),
    });
    await client.connect();
    try {
      let heard = 0;
      client.on("notification", (message: { channel: string }) => {
        if (message.channel === "strata_changes") heard++;
      });
      await client.query("LISTEN strata_changes");
      assert.ok((await app.query("Tags").create({ label: "wake" })).ok);
      await eventually(() => heard > 0, 15_000, "the notification");
    } finally {
      await client.end();
    }
  },
  { postgresOnly: true },
);

eventsTest(
  "change log: the feed runs from boot, so changes() yields a write committed right after the call",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    // Started lazily by the first subscriber, the feed read its position after the call
    // returned: a write committed in between was missed.
    assert.equal(app.data.feed.running, true);
    const { changesOf } = await import("../../collections/changes/iterate.ts");
    const stop = new AbortController();
    const feed = changesOf(app.data, {
      collections: ["Tags"],
      signal: stop.signal,
    });
    try {
      const created = await app.query("Tags").create({ label: "right after" });
      assert.ok(created.ok);
      const { value } = await feed.next();
      assert.equal(value?.uuid, created.record.UUID);
    } finally {
      stop.abort();
      await feed.return();
    }
  },
);

eventsTest(
  "change log: a feed starting while a lower seq is uncommitted waits for it instead of skipping it",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { ChangeFeed } = await import("../../collections/changes/feed.ts");
    const db = kyselyOf(app.db);
    const url = Deno.env.get("STRATA_TEST_POSTGRES")!;
    const client = await ownConnection(app);
    const feed = new ChangeFeed({
      db,
      dialect: "postgres",
      url,
      pollInterval: 100,
    });
    try {
      await client.query("begin");
      await client.query(
        `insert into _strata_changes (collection, uuid, op, at, changed)
         values ('Tags', 'in-flight', 'create', 0, '[]')`,
      );
      const later = await app.query("Tags").create({ label: "later seq" });
      assert.ok(later.ok);
      const started = feed.start();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Running now, the feed would never read below the newest seq it started from.
      assert.equal(feed.running, false);
      await client.query("commit");
      await started;
      const seen: ChangeEvent[] = [];
      const stop = await feed.subscribe((events) => seen.push(...events));
      const next = await app.query("Tags").create({ label: "next" });
      assert.ok(next.ok);
      feed.wake();
      await eventually(() => seen.length > 0, 20_000, "the next change");
      assert.deepEqual(seen.map((e) => e.uuid), [next.record.UUID]);
      stop();
    } finally {
      await feed.close();
      await client.end();
    }
  },
  { postgresOnly: true },
);
