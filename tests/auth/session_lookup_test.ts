// The per-request session read: it runs straight on the SQLite connection when that is
// free, and waits its turn when a transaction holds it, so it never sees uncommitted rows.
import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { sql } from "kysely";
import { ask, authTest, install, sessionCount } from "./_helpers.ts";

authTest(
  "the session read waits for a transaction in progress and sees only its outcome",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    // A request of its own, started from outside the transaction's async context once
    // the transaction has deleted every session; the transaction then rolls back, and the
    // request must not have observed the deletion that never happened.
    let deleted!: () => void;
    const gate = new Promise<void>((resolve) => deleted = resolve);
    const pending = gate.then(() => ask(app, "/auth/me", { cookie }));
    await assert.rejects(
      app.data.transaction(async () => {
        await app.query("Sessions").where({ user: user.UUID }).delete();
        deleted();
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error("roll back");
      }),
      /roll back/,
    );
    const answer = await pending;
    assert.equal(answer.status, 200);
    // Committed, the same deletion ends the session for the next request at once.
    await app.query("Sessions").where({ user: user.UUID }).delete();
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
  },
);

authTest(
  "inside its own transaction a request reads the session it changed",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    // A route's code in a transaction (holding the connection) resolves the session by
    // joining that transaction instead of waiting for it (which would never end).
    const status = await app.data.transaction(async () => {
      await app.query("Users").where({ UUID: user.UUID }).update({
        timezone: "Europe/Paris",
      });
      const answer = await ask(app, "/auth/me", { cookie });
      return [answer.status, answer.body.timezone];
    });
    assert.deepEqual(status, [200, "Europe/Paris"]);
  },
);

// A signed-in request may be answered from the lookups kept while the database is unchanged
// (SQLite). Every way the database can change must end that at once.
authTest(
  "a session deleted through the data layer ends at once after being served many times",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    for (let i = 0; i < 3; i++) {
      assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    }
    await app.query("Sessions").where({ user: user.UUID }).delete();
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
  },
);

authTest(
  "a user changed through the data layer or raw SQL is seen by the next request",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    assert.deepEqual((await ask(app, "/auth/me", { cookie })).body.roles, [
      "admin",
    ]);
    await app.query("Users").where({ UUID: user.UUID }).update({
      roles: ["editor"],
    });
    assert.deepEqual((await ask(app, "/auth/me", { cookie })).body.roles, [
      "editor",
    ]);
    const table = app.data.collections.get("Users")!.table;
    await sql`update ${sql.table(table)} set "timezone" = 'Asia/Tokyo'`
      .execute(kyselyOf(app.db));
    assert.equal(
      (await ask(app, "/auth/me", { cookie })).body.timezone,
      "Asia/Tokyo",
    );
  },
);

authTest(
  "a session served from memory still expires on the clock",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    h.clock.advance(31 * 86_400_000);
    const expired = await ask(app, "/auth/me", { cookie });
    assert.equal(expired.status, 401);
    assert.equal(await sessionCount(app), 0, "the expired row is deleted");
  },
);

authTest(
  "a handler that changes its user and session objects changes nothing for the next request",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    assert.deepEqual((await ask(app, "/auth/me", { cookie })).body, user);
    assert.equal((await ask(app, "/meddle", { cookie })).status, 200);
    assert.deepEqual((await ask(app, "/auth/me", { cookie })).body, user);
    h.clock.advance(31 * 86_400_000);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
  },
);

authTest(
  "a commit by another connection to the same database ends the session at once",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const { cookie, user } = await install(one);
    for (let i = 0; i < 3; i++) {
      assert.equal((await ask(two, "/auth/me", { cookie })).status, 200);
    }
    await one.query("Users").where({ UUID: user.UUID }).update({
      roles: ["editor"],
    });
    assert.deepEqual((await ask(two, "/auth/me", { cookie })).body.roles, [
      "editor",
    ]);
    await one.query("Sessions").where({ user: user.UUID }).delete();
    assert.equal((await ask(two, "/auth/me", { cookie })).status, 401);
  },
  { shared: true },
);

authTest(
  "under concurrent requests and writes, a session ended is refused by the very next request",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    await install(one);
    const cookies: string[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await ask(one, "/auth/login", {
        json: { email: "admin@example.com", password: "admin-password" },
        ip: `203.0.113.${i}`,
      });
      assert.equal(answer.status, 200);
      cookies.push(answer.headers.getSetCookie()[0].split(";")[0]);
    }
    let running = true;
    const ended = new Set<string>();
    const failures: string[] = [];
    // Readers hammer both instances; any 200 for a session already ended is a failure.
    const readers = [one, two].flatMap((app) =>
      [0, 1].map(async () => {
        while (running) {
          for (const cookie of cookies) {
            const wasEnded = ended.has(cookie);
            const status = (await ask(app, "/auth/me", { cookie })).status;
            if (wasEnded && status !== 401) {
              failures.push(`${status} after the session ended`);
            }
          }
          // In process, an answer known at once resolves in microtasks only: yield to the
          // event loop as real clients' requests do, or timers (the write-lock retries) starve.
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      })
    );
    // Meanwhile other writes keep changing the database.
    const writer = (async () => {
      for (let n = 0; running; n++) {
        await one.query("Notes").create({ text: `note ${n}` });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    try {
      for (const [i, cookie] of cookies.slice(0, 8).entries()) {
        const answer = await ask(i % 2 ? one : two, "/auth/logout", {
          method: "POST",
          cookie,
        });
        assert.equal(answer.status, 200);
        ended.add(cookie);
        for (const app of [one, two]) {
          assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      running = false;
      await Promise.all([...readers, writer]);
    }
    assert.deepEqual(failures, []);
    for (const cookie of cookies.slice(8)) {
      assert.equal((await ask(two, "/auth/me", { cookie })).status, 200);
    }
  },
  { shared: true },
);
