import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { StatementSync } from "node:sqlite";
import type { App } from "../../mod.ts";
import {
  ADMIN,
  ask,
  authTest,
  cookieOf,
  createUser,
  fixture,
  install,
  login,
  sessionCount,
  tokenOf,
} from "./_helpers.ts";

// With a query:filter hook, sessions are read through the query builder (the hook counts).
const COUNTING = fixture("auth_counting_app");
import { reads } from "../fixtures/auth_counting_app/hooks/count_reads.ts";
import { useSession, useUser } from "../../auth/mod.ts";

authTest("logout: deletes the row and clears the cookie", async (h) => {
  const app = await h.boot();
  const { cookie } = await install(app);
  assert.equal(await sessionCount(app), 1);
  const answer = await ask(app, "/auth/logout", { method: "POST", cookie });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { ok: true });
  assert.deepEqual(answer.headers.getSetCookie(), [
    "session=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0",
  ]);
  assert.equal(await sessionCount(app), 0);
  assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
});

authTest("logout: idempotent without a session", async (h) => {
  const app = await h.boot();
  await install(app);
  const anonymous = await ask(app, "/auth/logout", { method: "POST" });
  assert.equal(anonymous.status, 200);
  assert.deepEqual(anonymous.body, { ok: true });
  const stale = await ask(app, "/auth/logout", {
    method: "POST",
    cookie: `session=${"z".repeat(43)}`,
  });
  assert.deepEqual([stale.status, stale.body], [200, { ok: true }]);
  assert.equal(await sessionCount(app), 1);
});

authTest("logout: a Bearer session ends too", async (h) => {
  const app = await h.boot();
  await install(app);
  const token = tokenOf(await login(app, ADMIN.email, ADMIN.password));
  const answer = await ask(app, "/auth/logout", {
    method: "POST",
    bearer: token,
  });
  assert.equal(answer.status, 200);
  assert.equal((await ask(app, "/auth/me", { bearer: token })).status, 401);
});

authTest(
  "logout/others: ends every other session of the account only",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const second = await login(app, ADMIN.email, ADMIN.password);
    const third = await login(app, ADMIN.email, ADMIN.password, true);
    await createUser(app, { email: "b@example.com", password: "b-password" });
    const someoneElse = await login(app, "b@example.com", "b-password");
    const answer = await ask(app, "/auth/logout/others", {
      method: "POST",
      cookie: second,
    });
    assert.deepEqual([answer.status, answer.body], [200, { ok: true }]);
    assert.equal((await ask(app, "/auth/me", { cookie: second })).status, 200);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
    assert.equal((await ask(app, "/auth/me", { cookie: third })).status, 401);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: someoneElse })).status,
      200,
    );
    assert.equal(await sessionCount(app), 2);
  },
);

authTest("logout/others: 401 when signed out", async (h) => {
  const app = await h.boot();
  await install(app);
  const answer = await ask(app, "/auth/logout/others", { method: "POST" });
  assert.equal(answer.status, 401);
  assert.equal(await sessionCount(app), 1);
});

authTest("me: GET answers the user, 401 signed out", async (h) => {
  const app = await h.boot();
  const { cookie, user } = await install(app);
  assert.deepEqual((await ask(app, "/auth/me", { cookie })).body, user);
  const anonymous = await ask(app, "/auth/me");
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.body.statusCode, 401);
});

/**
 * Counts the statements `app` executes: on SQLite at the driver (the session read runs
 * straight on the connection, not through Kysely), on PostgreSQL through Kysely.
 */
function countStatements(app: App): { count(): number; restore(): void } {
  let statements = 0;
  if (app.data.dialect === "sqlite") {
    const proto = StatementSync.prototype;
    const originals = { all: proto.all, get: proto.get, run: proto.run };
    for (const name of ["all", "get", "run"] as const) {
      const original = originals[name] as (...args: unknown[]) => unknown;
      (proto as unknown as Record<string, unknown>)[name] = function (
        this: StatementSync,
        ...args: unknown[]
      ) {
        statements++;
        return original.apply(this, args);
      };
    }
    return {
      count: () => statements,
      restore: () => Object.assign(proto, originals),
    };
  }
  const db = kyselyOf(app.db);
  const execute = db.executeQuery;
  db.executeQuery = ((query: never) => {
    statements++;
    return execute.call(app.db, query);
  }) as typeof db.executeQuery;
  return {
    count: () => statements,
    restore: () => void (db.executeQuery = execute),
  };
}

authTest("session: read once per request (one statement)", async (h) => {
  const app = await h.boot();
  const { cookie } = await install(app);
  const counter = countStatements(app);
  // SQLite keeps a lookup while the database's version stays the same. A token with no
  // current lookup is read at once (the read carries the version): one statement. A kept
  // lookup costs one statement too, the version check.
  try {
    const answer = await ask(app, "/whoami-many", { cookie });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.same, true);
    assert.equal(counter.count(), 1);
    await ask(app, "/whoami-many");
    assert.equal(counter.count(), 1, "no token, no statement");
    await ask(app, "/whoami-many", { cookie });
    assert.equal(counter.count(), 2, "unchanged: only the version (SQLite)");
  } finally {
    counter.restore();
  }
});

authTest(
  "session: a kept lookup outlives writes to other tables, by this app or another process",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const { cookie, user } = await install(one);
    assert.equal((await ask(one, "/whoami-many", { cookie })).status, 200);
    const counter = countStatements(one);
    try {
      // Notes are no part of a session: the kept lookup stays, at the cost of the version.
      await one.query("Notes").create({ text: "by this app" });
      await two.query("Notes").create({ text: "by another connection" });
      const before = counter.count();
      assert.equal((await ask(one, "/whoami-many", { cookie })).status, 200);
      assert.equal(counter.count() - before, 1, "only the version");
      // A user or session written anywhere is read again, and the change is seen.
      await two.query("Users").where({ UUID: user.UUID }).update({
        roles: ["editor"],
      });
      const again = counter.count();
      const answer = await ask(one, "/auth/me", { cookie });
      assert.deepEqual(answer.body.roles, ["editor"]);
      assert.equal(counter.count() - again, 2, "the version, then the read");
      await two.query("Sessions").where({ user: user.UUID }).delete();
      assert.equal((await ask(one, "/auth/me", { cookie })).status, 401);
    } finally {
      counter.restore();
    }
  },
  { shared: true, sqliteOnly: true },
);

authTest(
  "session: read once per request through the builder when query:filter hooks exist",
  async (h) => {
    const app = await h.boot({ root: COUNTING });
    const { cookie } = await install(app);
    reads.Sessions = 0;
    reads.Users = 0;
    const answer = await ask(app, "/whoami-many", { cookie });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.same, true);
    assert.equal(reads.Sessions, 1);
    assert.equal(reads.Users, 1);
    reads.Sessions = 0;
    await ask(app, "/whoami-many", { cookie });
    assert.equal(reads.Sessions, 1);
    // A request without a token never touches the database.
    reads.Sessions = 0;
    await ask(app, "/whoami");
    assert.equal(reads.Sessions, 0);
  },
);

authTest("session: the builder path keeps every rule", async (h) => {
  const app = await h.boot({ root: COUNTING });
  const { cookie, user } = await install(app);
  assert.deepEqual((await ask(app, "/auth/me", { cookie })).body, user);
  const transient = await login(app, ADMIN.email, ADMIN.password);
  const bearer = tokenOf(await login(app, ADMIN.email, ADMIN.password, true));
  assert.equal((await ask(app, "/auth/me", { bearer })).status, 200);
  const changed = await ask(app, "/auth/me", {
    method: "PATCH",
    cookie,
    json: { password: "another-password" },
  });
  assert.equal(changed.status, 200);
  assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
  assert.equal((await ask(app, "/auth/me", { bearer })).status, 401);
  assert.equal((await ask(app, "/auth/me", { cookie: transient })).status, 401);
  const fresh = await login(app, ADMIN.email, "another-password");
  h.clock.advance(86_400_000);
  const expired = await ask(app, "/whoami", { cookie: fresh });
  assert.equal(expired.body.user, null);
  assert.equal(await sessionCount(app), 1);
  await ask(app, "/auth/logout", { method: "POST", cookie });
  assert.equal(await sessionCount(app), 0);
});

authTest(
  "middleware: auth sets context.user only when signed in; require-auth answers 401",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const signedIn = await ask(app, "/whoami", { cookie });
    assert.deepEqual(signedIn.body.contextUser, user);
    assert.deepEqual(signedIn.body.user, user);
    assert.equal(signedIn.body.session.user, user.UUID);
    assert.equal("tokenHash" in signedIn.body.session, false);
    const anonymous = await ask(app, "/whoami");
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.body.contextUser, null);
    assert.equal((await ask(app, "/private")).status, 401);
    const allowed = await ask(app, "/private", { cookie });
    assert.deepEqual(allowed.body, { email: ADMIN.email });
  },
);

authTest(
  "helpers: createSession signs the new account in for the rest of the request",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const answer = await ask(app, "/signup", {
      json: {
        email: "new@example.com",
        password: "new-password",
        remember: false,
      },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.me.email, "new@example.com");
    assert.equal(answer.body.user.roles.length, 0);
    assert.equal(answer.body.session.remember, false);
    assert.match(answer.body.token, /^[A-Za-z0-9_-]{43}$/);
    const cookie = cookieOf(answer)!;
    assert.equal(tokenOf(cookie), answer.body.token);
    assert.doesNotMatch(answer.headers.getSetCookie()[0], /Max-Age/);
    const me = await ask(app, "/auth/me", { cookie });
    assert.equal(me.body.email, "new@example.com");
    const remembered = await ask(app, "/signup", {
      json: { email: "kept@example.com", password: "kept-password" },
    });
    assert.equal(remembered.body.session.remember, true);
    assert.match(remembered.headers.getSetCookie()[0], /Max-Age=2592000/);
  },
);

authTest(
  "helpers: account creation refuses bad and duplicate emails with 422",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const bad = await ask(app, "/signup", {
      json: { email: "not-an-email", password: "short" },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.data.errors).sort(), [
      "email",
      "password",
    ]);
    const duplicate = await ask(app, "/signup", {
      json: { email: "ADMIN@example.com", password: "long-enough" },
    });
    assert.equal(duplicate.status, 422);
    assert.deepEqual(Object.keys(duplicate.body.data.errors), ["email"]);
  },
);

authTest(
  "helpers: destroySession ends the session within the request",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const answer = await ask(app, "/end", { method: "POST", cookie });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.after, null);
    assert.ok(
      answer.headers.getSetCookie().some((c) => c.endsWith("Max-Age=0")),
    );
    assert.equal(await sessionCount(app), 0);
  },
);

Deno.test("helpers: useUser and useSession answer null outside a request", async () => {
  assert.equal(await useUser(), null);
  assert.equal(await useSession(), null);
});

authTest(
  "password: a change through /auth/me ends the other sessions and keeps this one",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const other = await login(app, ADMIN.email, ADMIN.password);
    const bearer = tokenOf(await login(app, ADMIN.email, ADMIN.password, true));
    const answer = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { password: "a-new-password" },
    });
    assert.equal(answer.status, 200);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    assert.equal((await ask(app, "/auth/me", { cookie: other })).status, 401);
    assert.equal((await ask(app, "/auth/me", { bearer })).status, 401);
    assert.equal(await sessionCount(app), 1);
    await login(app, ADMIN.email, "a-new-password");
    await assert.rejects(login(app, ADMIN.email, ADMIN.password));
  },
);

authTest(
  "password: a change by any other path ends every session",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const other = await login(app, ADMIN.email, ADMIN.password);
    const result = await app.query("Users").where({ UUID: user.UUID }).update({
      password: "changed-elsewhere",
    });
    assert.equal(result.ok, true);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
    assert.equal((await ask(app, "/auth/me", { cookie: other })).status, 401);
    // Signing in again works and sweeps the ended sessions.
    const fresh = await login(app, ADMIN.email, "changed-elsewhere");
    assert.equal((await ask(app, "/auth/me", { cookie: fresh })).status, 200);
    assert.equal(await sessionCount(app), 1);
  },
);

authTest(
  "session: a user's deletion ends their sessions (cascade)",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const uuid = await createUser(app, {
      email: "b@example.com",
      password: "b-password",
    });
    const cookie = await login(app, "b@example.com", "b-password");
    await app.query("Users").where({ UUID: uuid }).delete();
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
    assert.equal(await sessionCount(app), 1);
  },
);
