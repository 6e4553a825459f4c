import assert from "node:assert/strict";
import { ADMIN, ask, authTest, cookieOf, sessionCount } from "./_helpers.ts";

authTest(
  "install: pending until the first user exists, then complete",
  async (h) => {
    const app = await h.boot();
    assert.deepEqual((await ask(app, "/auth/install")).body, {
      required: true,
    });
    const answer = await ask(app, "/auth/install", {
      json: { email: "Root@Example.com", password: "root-password" },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.email, "root@example.com");
    assert.deepEqual(answer.body.roles, ["admin"]);
    assert.equal("password" in answer.body, false);
    // Signed in with a remembered session.
    assert.match(answer.headers.getSetCookie()[0], /Max-Age=2592000/);
    const session = await app.query("Sessions").findFirst();
    assert.equal(session!.remember, true);
    const me = await ask(app, "/auth/me", { cookie: cookieOf(answer) });
    assert.deepEqual(me.body, answer.body);
    assert.deepEqual((await ask(app, "/auth/install")).body, {
      required: false,
    });
  },
);

authTest("install: 403 once a user exists", async (h) => {
  const app = await h.boot();
  await app.query("Users").create({
    email: "seed@example.com",
    password: "seed-password",
  });
  const answer = await ask(app, "/auth/install", { json: ADMIN });
  assert.equal(answer.status, 403);
  assert.equal(answer.headers.get("set-cookie"), null);
  assert.equal(await app.query("Users").count(), 1);
  assert.equal(await sessionCount(app), 0);
});

authTest("install: 422 per field, and the install stays pending", async (h) => {
  const app = await h.boot();
  const bad = await ask(app, "/auth/install", {
    json: { email: "nope", password: "short" },
  });
  assert.equal(bad.status, 422);
  assert.deepEqual(Object.keys(bad.body.data.errors).sort(), [
    "email",
    "password",
  ]);
  const missing = await ask(app, "/auth/install", { json: {} });
  assert.equal(missing.status, 422);
  assert.deepEqual(Object.keys(missing.body.data.errors).sort(), [
    "email",
    "password",
  ]);
  const extra = await ask(app, "/auth/install", {
    json: { ...ADMIN, roles: [] },
  });
  assert.equal(extra.status, 422);
  assert.deepEqual(Object.keys(extra.body.data.errors), ["roles"]);
  assert.deepEqual((await ask(app, "/auth/install")).body, { required: true });
  assert.equal((await ask(app, "/auth/install", { json: ADMIN })).status, 200);
});

authTest("install: of five concurrent installs exactly one wins", async (h) => {
  const app = await h.boot();
  const answers = await Promise.all(
    [1, 2, 3, 4, 5].map((i) =>
      ask(app, "/auth/install", {
        json: { email: `admin${i}@example.com`, password: "admin-password" },
      })
    ),
  );
  const statuses = answers.map((a) => a.status).sort();
  assert.deepEqual(statuses, [200, 403, 403, 403, 403]);
  assert.equal(await app.query("Users").count(), 1);
  assert.equal(await sessionCount(app), 1);
});

authTest(
  "install: concurrent installs on two instances, exactly one wins",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const answers = await Promise.all(
      [one, two, one, two, one].map((app, i) =>
        ask(app, "/auth/install", {
          json: { email: `admin${i}@example.com`, password: "admin-password" },
        })
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [
      200,
      403,
      403,
      403,
      403,
    ]);
    assert.equal(await one.query("Users").count(), 1);
  },
  { shared: true },
);
