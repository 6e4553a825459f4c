// The per-request session read: it runs straight on the SQLite connection when that is
// free, and waits its turn when a transaction holds it, so it never sees uncommitted rows.
import assert from "node:assert/strict";
import { ask, authTest, install } from "./_helpers.ts";

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
