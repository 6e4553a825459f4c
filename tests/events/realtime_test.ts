import assert from "node:assert/strict";
import {
  ADMIN,
  ask,
  createUser,
  EVENTS_APP,
  eventsTest,
  eventually,
  install,
  login,
} from "./_helpers.ts";
import { type SseStream, withServers } from "./_sse.ts";

const where = (filter: string) => `where=${encodeURIComponent(filter)}`;

eventsTest(
  "realtime: create, update and delete reach a subscriber, shaped like its reads",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const stream = await open(
        `${server.url}/collections/pets/events?select=[name,title]&locale=de`,
        { cookie },
      );
      assert.equal(stream.status, 200);
      await eventually(() => stream.retry === 2000, 20_000, "retry: 2000");
      const post = await ask(app, "/collections/pets", {
        method: "POST",
        cookie,
        json: { name: "Rex", title: "Dog" },
      });
      const uuid = post.body.UUID;
      // Events read the record as it is when they are sent: each write waits for its event.
      await eventually(() => stream.events.length >= 1, 20_000, "the create");
      await ask(app, `/collections/pets/${uuid}?locale=de`, {
        method: "PATCH",
        cookie,
        json: { title: "Hund" },
      });
      const read = await ask(
        app,
        `/collections/pets/${uuid}?select=[name,title]&locale=de`,
        { cookie },
      );
      await eventually(() => stream.events.length >= 2, 20_000, "the update");
      // Rolled back: never announced.
      await assert.rejects(app.data.transaction(async () => {
        await app.query("Pets").create({ name: "Ghost" });
        throw new Error("rollback");
      }));
      await ask(app, `/collections/pets/${uuid}`, {
        method: "DELETE",
        cookie,
      });
      await eventually(() => stream.events.length >= 3, 20_000, "3 events");
      assert.deepEqual(stream.events.map((e) => e.event), [
        "create",
        "update",
        "delete",
      ]);
      // The update's data is what this subscriber's by-UUID read answered.
      assert.deepEqual(stream.events[1].data, { ...read.body });
      assert.deepEqual(stream.events[2].data, { UUID: uuid });
      const ids = stream.events.map((e) => Number(e.id));
      assert.ok(ids[0] < ids[1] && ids[1] < ids[2]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(stream.events.length, 3);
    });
  },
);

eventsTest(
  "realtime: refused like the list read, before any stream opens; only where, select, populate, locale",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      for (const path of ["nope", "notes", "pets"]) {
        const list = await ask(app, `/collections/${path}`);
        const stream = await open(`${server.url}/collections/${path}/events`);
        assert.equal(stream.status, list.status, path);
        assert.deepEqual(stream.body, list.body, path);
        assert.notEqual(stream.status, 200);
      }
      const ordered = await open(
        `${server.url}/collections/pets/events?order=[name]`,
        { cookie },
      );
      assert.equal(ordered.status, 400);
      assert.match(JSON.stringify(ordered.body), /unknownParam/);
      const bad = await open(
        `${server.url}/collections/pets/events?${where("{nope:1}")}`,
        { cookie },
      );
      assert.equal(bad.status, 400);
    });
  },
);

eventsTest(
  "realtime: a scoped subscriber never receives a record, nor a delete, outside its scope; moves in and out",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await install(app);
    await createUser(app, {
      email: "a@example.com",
      password: "password-a",
      roles: ["writer"],
    });
    const b = await createUser(app, {
      email: "b@example.com",
      password: "password-b",
      roles: ["writer"],
    });
    const alice = await login(app, "a@example.com", "password-a");
    const bob = await login(app, "b@example.com", "password-b");
    await withServers([app], async ([server], open) => {
      const all = await open(`${server.url}/collections/notes/events`, {
        cookie: alice,
      });
      const hot = await open(
        `${server.url}/collections/notes/events?${where('{text:"hot"}')}`,
        { cookie: alice },
      );
      assert.equal(all.status, 200);
      // Bob's notes: never seen by Alice, not even their delete.
      const bobs = await ask(app, "/collections/notes", {
        method: "POST",
        cookie: bob,
        json: { text: "hot", owner: b },
      });
      assert.equal(bobs.status, 201, JSON.stringify(bobs.body));
      await ask(app, `/collections/notes/${bobs.body.UUID}`, {
        method: "DELETE",
        cookie: bob,
      });
      const me = (await ask(app, "/auth/me", { cookie: alice })).body.UUID;
      // Each event is read "as a by-UUID read would answer it now": the test waits for the
      // unfiltered stream after every write, so each of its events sees the state that write left.
      const seen = (n: number) =>
        eventually(
          () => all.events.length >= n,
          15_000,
          () =>
            `Alice's events (${JSON.stringify(all.events)} / ${
              JSON.stringify(hot.events)
            })`,
        );
      const note = (await ask(app, "/collections/notes", {
        method: "POST",
        cookie: alice,
        json: { text: "cold", owner: me, secret: "s" },
      })).body.UUID;
      await seen(1);
      const patch = async (text: string, events: number) => {
        const answer = await ask(app, `/collections/notes/${note}`, {
          method: "PATCH",
          cookie: alice,
          json: { text },
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        await seen(events);
      };
      await patch("hot", 2);
      await patch("cold", 3);
      // Trusted code gives her note to Bob: out of her scope, a move-out.
      const moved = await app.query("Notes").where({ UUID: note }).update({
        owner: b,
      });
      assert.ok(moved.ok);
      await seen(4);
      assert.deepEqual(all.events.map((e) => e.event), [
        "create",
        "update",
        "update",
        "delete",
      ]);
      assert.deepEqual(all.events.map((e) => e.data.text), [
        "cold",
        "hot",
        "cold",
        undefined,
      ]);
      // The scope's select: no secret.
      assert.deepEqual(Object.keys(all.events[0].data).sort(), [
        "UUID",
        "owner",
        "text",
      ]);
      assert.deepEqual(all.events[3].data, { UUID: note });
      // The filtered stream reads independently: however its reads interleave with the
      // writes, the note moves in (create), may be updated while hot, and moves out (delete).
      await eventually(
        () => hot.events.at(-1)?.event === "delete",
        15_000,
        () => `Hot events (${JSON.stringify(hot.events)})`,
      );
      const kinds = hot.events.map((e) => e.event);
      assert.equal(kinds[0], "create", JSON.stringify(kinds));
      assert.ok(
        kinds.slice(1, -1).every((k) => k === "update"),
        JSON.stringify(kinds),
      );
      for (const e of hot.events.slice(0, -1)) {
        assert.equal(e.data.text, "hot");
      }
      assert.deepEqual(hot.events.at(-1)!.data, { UUID: note });
      const everything = JSON.stringify([...all.events, ...hot.events]);
      assert.ok(!everything.includes(bobs.body.UUID));
      assert.ok(!everything.includes('"s"'));
    });
  },
);

eventsTest(
  "realtime: a write on one instance reaches a subscriber on the other; a logout on it closes the stream",
  async (h) => {
    const one = await h.boot({ root: EVENTS_APP });
    const two = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(one);
    const other = await login(two, ADMIN.email, ADMIN.password);
    await withServers([one, two], async ([a, b], open) => {
      const onB = await open(`${b.url}/collections/tags/events`, { cookie });
      const onA = await open(`${a.url}/collections/tags/events`, {
        cookie: other,
      });
      const created = await ask(one, "/collections/tags", {
        method: "POST",
        cookie,
        json: { label: "from A" },
      });
      await eventually(() => onB.events.length === 1, 20_000, "the event on B");
      assert.equal(onB.events[0].data.UUID, created.body.UUID);
      await eventually(() => onA.events.length === 1, 20_000, "the event on A");
      // The session of the stream on A ends on B.
      const out = await ask(two, "/auth/logout", {
        method: "POST",
        cookie: other,
      });
      assert.equal(out.status, 200);
      await Promise.race([
        onA.ended,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error("stream on A still open")), 20_000)
        ),
      ]);
      assert.ok(onA.done);
      assert.ok(!onB.done);
    });
  },
  { shared: true },
);

eventsTest(
  "realtime: Last-Event-ID resumes after that id; an id older than the log keeps answers reset",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const first = await open(`${server.url}/collections/tags/events`, {
        cookie,
      });
      const tag = async (label: string) =>
        (await ask(app, "/collections/tags", {
          method: "POST",
          cookie,
          json: { label },
        })).body.UUID;
      await tag("one");
      await eventually(() => first.events.length === 1, 20_000, "one");
      await first.close();
      const missed = [await tag("two"), await tag("three")];
      const resumed = await open(`${server.url}/collections/tags/events`, {
        cookie,
        "last-event-id": first.events[0].id!,
      });
      await eventually(() => resumed.events.length === 2, 20_000, "replay");
      assert.deepEqual(resumed.events.map((e) => e.data.UUID), missed);
      assert.deepEqual(resumed.events.map((e) => e.event), [
        "create",
        "create",
      ]);
      await tag("four");
      await eventually(() => resumed.events.length === 3, 20_000, "live");
      // Pruned past: reset, then live.
      await app.data.transaction(async () => {});
      const { kyselyOf } = await import("../../collections/database.ts");
      await kyselyOf(app.db).deleteFrom("_strata_changes")
        .where("seq", "<=", Number(resumed.events[1].id)).execute();
      const stale = await open(`${server.url}/collections/tags/events`, {
        cookie,
        "last-event-id": "1",
      });
      await eventually(() => stale.events.length === 1, 20_000, "reset");
      assert.equal(stale.events[0].event, "reset");
      assert.deepEqual(stale.events[0].data, {});
      await tag("five");
      await eventually(() => stale.events.length === 2, 20_000, "live after");
      assert.equal(stale.events[1].event, "create");
    });
  },
);

eventsTest(
  "realtime: streams per user are limited (429 with Retry-After)",
  async (h) => {
    const app = await h.boot({
      root: EVENTS_APP,
      config: {
        layers: [(await import("../../auth/mod.ts")).authLayer()],
        auth: { password: { cost: 1024 } },
        collections: { locales: ["en", "de"] },
        events: { maxStreamsPerUser: 2 },
      },
    });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const url = `${server.url}/collections/tags/events`;
      const first = await open(url, { cookie });
      await open(url, { cookie });
      const third = await open(url, { cookie });
      assert.equal(third.status, 429);
      assert.ok(third.headers.get("retry-after"));
      await first.close();
      await eventually(() => true);
      let fourth: SseStream | undefined;
      for (let i = 0; i < 50; i++) {
        fourth = await open(url, { cookie });
        if (fourth.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(fourth!.status, 200);
    });
  },
);

eventsTest(
  "realtime: two processes on one SQLite file see each other's writes",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./_serve_child.ts", import.meta.url).pathname,
        EVENTS_APP,
        app.config.database.url,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      const lines = child.stdout.pipeThrough(new TextDecoderStream())
        .getReader();
      let output = "";
      while (!/PORT (\d+)/.test(output)) {
        const { value, done } = await lines.read();
        if (done) throw new Error(`The child process ended: ${output}`);
        output += value;
      }
      lines.releaseLock();
      const other = `http://127.0.0.1:${output.match(/PORT (\d+)/)![1]}`;
      await withServers([app], async ([here], open) => {
        const there = await open(`${other}/collections/tags/events`, {
          cookie,
        });
        const mine = await open(`${here.url}/collections/tags/events`, {
          cookie,
        });
        assert.equal(there.status, 200);
        await eventually(() => there.retry === 2000 && mine.retry === 2000);
        const created = await ask(app, "/collections/tags", {
          method: "POST",
          cookie,
          json: { label: "from this process" },
        });
        await eventually(() => there.events.length === 1, 20_000, "there");
        assert.equal(there.events[0].data.UUID, created.body.UUID);
        const remote = await fetch(`${other}/collections/tags`, {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ label: "from the other process" }),
        });
        assert.equal(remote.status, 201);
        const uuid = (await remote.json()).UUID;
        await eventually(() => mine.events.length === 2, 20_000, "here");
        assert.equal(mine.events[1].data.UUID, uuid);
      });
    } finally {
      child.kill();
      await child.status;
      await child.stdout.cancel().catch(() => {});
    }
  },
  { shared: true, sqliteOnly: true },
);

eventsTest(
  "changes(): app code iterates committed changes, filtered by where, resumed with since",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const all = await open(`${server.url}/tag-feed`);
      const yes = await open(`${server.url}/tag-feed?label=yes`);
      await eventually(() => all.retry === 2000 && yes.retry === 2000);
      const tag = async (label: string) =>
        (await ask(app, "/collections/tags", {
          method: "POST",
          cookie,
          json: { label },
        })).body.UUID;
      const no = await tag("no");
      const ok = await tag("yes");
      await app.query("Tags").where({ UUID: no }).delete();
      await eventually(() => all.events.length === 3, 20_000, "all");
      await eventually(() => yes.events.length === 2, 20_000, "yes");
      assert.deepEqual(all.events.map((e) => [e.data.uuid, e.data.op]), [
        [no, "create"],
        [ok, "create"],
        [no, "delete"],
      ]);
      // Deletes pass the filter (a deleted record cannot be matched).
      assert.deepEqual(yes.events.map((e) => [e.data.uuid, e.data.op]), [
        [ok, "create"],
        [no, "delete"],
      ]);
      const resumed = await open(
        `${server.url}/tag-feed?since=${all.events[0].id}`,
      );
      await eventually(() => resumed.events.length === 2, 20_000, "resumed");
      assert.deepEqual(
        resumed.events.map((e) => e.id),
        all.events.slice(1).map((e) => e.id),
      );
    });
  },
);

eventsTest(
  "realtime: GET /events multiplexes collections; the first refusal in list order answers",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await createUser(app, {
      email: "a@example.com",
      password: "password-a",
      roles: ["writer"],
    });
    const alice = await login(app, "a@example.com", "password-a");
    await withServers([app], async ([server], open) => {
      const both = await open(`${server.url}/events?collections=tags,pets`, {
        cookie,
      });
      assert.equal(both.status, 200);
      await eventually(() => both.retry === 2000);
      const tag = await ask(app, "/collections/tags", {
        method: "POST",
        cookie,
        json: { label: "t" },
      });
      const pet = await ask(app, "/collections/pets", {
        method: "POST",
        cookie,
        json: { name: "p" },
      });
      await app.query("Owners").create({ name: "not followed" });
      await eventually(() => both.events.length === 2, 20_000, "two events");
      assert.deepEqual(
        both.events.map((e) => [e.event, e.data.UUID]),
        [["tags.create", tag.body.UUID], ["pets.create", pet.body.UUID]],
      );
      // Alice may read her notes but not pets: the pets refusal answers.
      for (
        const [query, refused] of [
          ["notes,pets", "pets"],
          ["nope,pets", "nope"],
        ]
      ) {
        const list = await ask(app, `/collections/${refused}`, {
          cookie: alice,
        });
        const stream = await open(`${server.url}/events?collections=${query}`, {
          cookie: alice,
        });
        assert.notEqual(list.status, 200);
        assert.equal(stream.status, list.status);
        assert.deepEqual(stream.body, list.body);
      }
      const extra = await open(`${server.url}/events?collections=tags&x=1`, {
        cookie,
      });
      assert.equal(extra.status, 400);
      const none = await open(`${server.url}/events`, { cookie });
      assert.equal(none.status, 400);
    });
  },
);
