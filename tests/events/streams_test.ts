// Event streams over time: subscribers grouped for the fan-out, grants decided again when
// the subscriber's user changes, sessions that end, heartbeats, slow clients, and the
// PostgreSQL LISTEN connection lost and regained.
import assert from "node:assert/strict";
import pg from "pg";
import type { App } from "../../mod.ts";
import type { ApiHost } from "../../collections/api/host.ts";
import { fanoutOf } from "../../collections/api/_fanout.ts";
import { setStreamTimings } from "../../collections/api/events_route.ts";
import { authLayer } from "../../auth/mod.ts";
import {
  ask,
  createUser,
  EVENTS_APP,
  eventsTest,
  eventually,
  install,
  login,
  send,
} from "./_helpers.ts";
import { type SseStream, withServers } from "./_sse.ts";

const fanout = (app: App) => fanoutOf(app as unknown as ApiHost);

/** Resolves once `stream` ended; fails after 15 s. */
function ended(stream: SseStream, what: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    stream.ended,
    new Promise<void>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what}: the stream is still open`)),
        15_000,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Reads `body` until `done(text)` holds or it ends; the text read. */
async function readUntil(
  body: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (!done(text)) {
      const { value, done: finished } = await reader.read();
      if (finished) break;
      text += value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}

eventsTest(
  "realtime: subscribers who read alike share a group, and a change is judged once per group",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    const cookies = [cookie];
    for (const n of [1, 2]) {
      await createUser(app, {
        email: `admin${n}@example.com`,
        password: `password-${n}`,
        roles: ["admin"],
      });
      cookies.push(await login(app, `admin${n}@example.com`, `password-${n}`));
    }
    await withServers([app], async ([server], open) => {
      // Three users with the same capabilities, one of them also multiplexed: one group.
      const alike = [
        ...await Promise.all(
          cookies.map((c) =>
            open(`${server.url}/collections/tags/events`, { cookie: c })
          ),
        ),
        await open(`${server.url}/events?collections=tags`, { cookie }),
      ];
      // Another where: a group of its own.
      const filtered = await open(
        `${server.url}/collections/tags/events?where=${
          encodeURIComponent('{label:"x"}')
        }`,
        { cookie: cookies[1] },
      );
      const all = [...alike, filtered];
      for (const stream of all) assert.equal(stream.status, 200);
      await eventually(
        () => all.every((s) => s.retry === 2000),
        15_000,
        "every stream open",
      );
      assert.equal(fanout(app).stats.groups, 2);
      const before = fanout(app).stats.judged;
      const created = await ask(app, "/collections/tags", {
        method: "POST",
        cookie,
        json: { label: "x" },
      });
      assert.equal(created.status, 201);
      await eventually(
        () => all.every((s) => s.events.length === 1),
        15_000,
        () => `the event on every stream (${all.map((s) => s.events.length)})`,
      );
      assert.equal(fanout(app).stats.judged - before, 2);
      assert.deepEqual(alike.map((s) => s.events[0].event), [
        "create",
        "create",
        "create",
        "tags.create",
      ]);
      for (const stream of all) {
        assert.equal(stream.events[0].data.UUID, created.body.UUID);
      }
    });
    // Every stream closed: the groups are gone.
    await eventually(() => fanout(app).stats.groups === 0, 15_000, "no group");
  },
);

eventsTest(
  "realtime: a role change applies to the next event (a subscriber who may no longer read is closed)",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    const demoted = await createUser(app, {
      email: "admin1@example.com",
      password: "password-1",
      roles: ["admin"],
    });
    const theirs = await login(app, "admin1@example.com", "password-1");
    await withServers([app], async ([server], open) => {
      const mine = await open(`${server.url}/collections/tags/events`, {
        cookie,
      });
      const stream = await open(`${server.url}/collections/tags/events`, {
        cookie: theirs,
      });
      await eventually(() => stream.retry === 2000 && mine.retry === 2000);
      const patched = await ask(app, `/collections/users/${demoted}`, {
        method: "PATCH",
        cookie,
        json: { roles: ["writer"] },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const tag = await ask(app, "/collections/tags", {
        method: "POST",
        cookie,
        json: { label: "after the change" },
      });
      assert.equal(tag.status, 201);
      await eventually(() => mine.events.length === 1, 15_000, "my event");
      await ended(stream, "the demoted subscriber");
      assert.deepEqual(stream.events, []);
      // Reconnecting is refused as the list read is.
      const again = await open(`${server.url}/collections/tags/events`, {
        cookie: theirs,
      });
      assert.equal(again.status, 403);
      assert.ok(!mine.done);
    });
  },
);

eventsTest(
  "realtime: a stream closes when its session ends: expiry, a password change, logout/others",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    await install(app);
    await createUser(app, {
      email: "a@example.com",
      password: "password-a",
      roles: ["admin"],
    });
    const url = "/collections/tags/events";
    await withServers([app], async ([server], open) => {
      // A password changed on another session of the user ends this one.
      const first = await login(app, "a@example.com", "password-a");
      const second = await login(app, "a@example.com", "password-a");
      const onFirst = await open(`${server.url}${url}`, { cookie: first });
      const onSecond = await open(`${server.url}${url}`, { cookie: second });
      await eventually(() => onFirst.retry === 2000 && onSecond.retry === 2000);
      const changed = await ask(app, "/auth/me", {
        method: "PATCH",
        cookie: second,
        json: { password: "password-b" },
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      await ended(onFirst, "after the password change");
      assert.ok(!onSecond.done);
      // logout/others from one session ends the stream of another.
      const third = await login(app, "a@example.com", "password-b");
      const onThird = await open(`${server.url}${url}`, { cookie: third });
      await eventually(() => onThird.retry === 2000);
      const out = await ask(app, "/auth/logout/others", {
        method: "POST",
        cookie: second,
      });
      assert.equal(out.status, 200, JSON.stringify(out.body));
      await ended(onThird, "after logout/others");
      assert.ok(!onSecond.done);
      // The session expires (the clock moves past its age).
      h.clock.advance(31 * 86_400_000);
      await ended(onSecond, "after expiry");
    });
  },
);

eventsTest(
  "realtime: a heartbeat comment comes every heartbeat interval",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    setStreamTimings(app as unknown as ApiHost, { heartbeat: 50 });
    const response = await send(app, "/collections/tags/events", { cookie });
    assert.equal(response.status, 200);
    const text = await readUntil(
      response.body!,
      (text) => text.split(": heartbeat\n\n").length > 2,
    );
    assert.match(text, /^retry: 2000\n\n(: heartbeat\n\n){2}/);
  },
);

eventsTest(
  "realtime: a client that does not take its events gets reset and is closed (events.maxBuffered)",
  async (h) => {
    const app = await h.boot({
      root: EVENTS_APP,
      config: {
        layers: [authLayer()],
        auth: { password: { cost: 1024 }, loginRateLimit: false },
        collections: { locales: ["en", "de"] },
        events: { maxBuffered: 5 },
      },
    });
    const { cookie } = await install(app);
    // Opened and never read while the changes come.
    const response = await send(app, "/collections/tags/events", { cookie });
    assert.equal(response.status, 200);
    await eventually(() => fanout(app).stats.groups === 1);
    for (let i = 0; i < 20; i++) {
      assert.ok((await app.query("Tags").create({ label: `t${i}` })).ok);
    }
    // The stream left the fan-out: it was closed.
    await eventually(
      () => fanout(app).stats.groups === 0,
      15_000,
      "the slow stream closed",
    );
    const text = await readUntil(response.body!, () => false);
    const names = [...text.matchAll(/^event: (.*)$/gm)].map((m) => m[1]);
    assert.equal(names.at(-1), "reset", text);
    assert.ok(names.length <= 7, text);
    assert.ok(names.slice(0, -1).every((name) => name === "create"), text);
    assert.ok(text.endsWith("event: reset\ndata: {}\n\n"), text);
  },
);

eventsTest(
  "realtime: the PostgreSQL LISTEN connection cut and regained: no event is missed",
  async (h) => {
    const one = await h.boot({ root: EVENTS_APP });
    const two = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(one);
    await withServers([one], async ([server], open) => {
      const stream = await open(`${server.url}/collections/tags/events`, {
        cookie,
      });
      await eventually(() => stream.retry === 2000);
      const feed = one.data.feed;
      await eventually(() => feed.listenerPid !== null, 15_000, "LISTEN");
      const cut = feed.listenerPid!;
      const admin = new pg.Client({
        connectionString: Deno.env.get("STRATA_TEST_POSTGRES"),
      });
      await admin.connect();
      try {
        await admin.query("select pg_terminate_backend($1)", [cut]);
      } finally {
        await admin.end();
      }
      // Written on the other instance while this one's LISTEN is cut or coming back.
      const tag = (label: string) =>
        ask(two, "/collections/tags", {
          method: "POST",
          cookie,
          json: { label },
        });
      const during = await tag("during");
      await eventually(
        () => stream.events.length === 1,
        15_000,
        "the change written while LISTEN was cut",
      );
      await eventually(
        () => feed.listenerPid !== null && feed.listenerPid !== cut,
        15_000,
        "LISTEN again",
      );
      const after = await tag("after");
      await eventually(
        () => stream.events.length === 2,
        15_000,
        "the change written after",
      );
      assert.deepEqual(stream.events.map((e) => e.data.UUID), [
        during.body.UUID,
        after.body.UUID,
      ]);
      assert.ok(Number(stream.events[0].id) < Number(stream.events[1].id));
    });
  },
  { postgresOnly: true },
);

eventsTest(
  "realtime: under a scope that hides UUID, creates and updates come without it and deletes never",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const stream = await open(`${server.url}/collections/memos/events`, {
        cookie,
      });
      assert.equal(stream.status, 200);
      await eventually(() => stream.retry === 2000);
      const memos = app.query("Memos");
      // Each event is the record as read now: the test waits for one before the next write.
      const seen = (n: number) =>
        eventually(
          () => stream.events.length >= n,
          15_000,
          () => `${n} events (${JSON.stringify(stream.events)})`,
        );
      // Two records in one transaction: judged together.
      await app.data.transaction(async () => {
        assert.ok((await memos.create({ text: "a" })).ok);
        assert.ok((await memos.create({ text: "b" })).ok);
      });
      await seen(2);
      assert.ok((await memos.where({ text: "a" }).update({ text: "c" })).ok);
      await seen(3);
      assert.ok((await memos.where({ text: "b" }).delete()).ok);
      assert.ok((await memos.create({ text: "d" })).ok);
      await seen(4);
      assert.deepEqual(
        stream.events.map((e) => [e.event, e.data]),
        [
          ["create", { text: "a" }],
          ["create", { text: "b" }],
          ["update", { text: "c" }],
          ["create", { text: "d" }],
        ],
      );
    });
  },
);

eventsTest(
  "realtime: the multiplexed stream resumes after Last-Event-ID across its collections, in seq order",
  async (h) => {
    const app = await h.boot({ root: EVENTS_APP });
    const { cookie } = await install(app);
    await withServers([app], async ([server], open) => {
      const url = `${server.url}/events?collections=tags,pets`;
      const first = await open(url, { cookie });
      await eventually(() => first.retry === 2000);
      assert.ok((await app.query("Tags").create({ label: "seen" })).ok);
      await eventually(() => first.events.length === 1, 15_000, "one event");
      await first.close();
      const pet = await app.query("Pets").create({ name: "missed" });
      const tag = await app.query("Tags").create({ label: "missed" });
      assert.ok(pet.ok && tag.ok);
      const resumed = await open(url, {
        cookie,
        "last-event-id": first.events[0].id!,
      });
      await eventually(
        () => resumed.events.length === 2,
        15_000,
        () => `the replay (${JSON.stringify(resumed.events)})`,
      );
      assert.deepEqual(
        resumed.events.map((e) => [e.event, e.data.UUID]),
        [["pets.create", pet.record.UUID], ["tags.create", tag.record.UUID]],
      );
      assert.ok(Number(resumed.events[0].id) < Number(resumed.events[1].id));
      assert.ok((await app.query("Pets").create({ name: "live" })).ok);
      await eventually(() => resumed.events.length === 3, 15_000, "live");
      assert.equal(resumed.events[2].event, "pets.create");
    });
  },
);
