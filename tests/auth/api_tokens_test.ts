// API tokens over HTTP: created with a session, shown once, used as Bearer tokens within
// their capabilities and never beyond the owner's current ones, listed and revoked through
// /collections/api-tokens, no cookie and no CSRF check, lastUsedAt at most once a minute.
import assert from "node:assert/strict";
import {
  ask,
  authTest,
  cookieOf,
  createUser,
  install,
  login,
} from "./_helpers.ts";
import { accountsConfig } from "./_accounts.ts";
import { serveOnSocket } from "../_helpers/socket.ts";

const PASSWORD = "violet-anchor-47";

authTest("an API token acts as its user within its capabilities", async (h) => {
  const app = await h.boot({ config: accountsConfig() });
  const admin = await install(app);
  const uuid = await createUser(app, {
    email: "ed@example.com",
    password: PASSWORD,
    roles: ["manager"],
  });
  const cookie = await login(app, "ed@example.com", PASSWORD);
  // Signed out: 401; with a capability the user lacks: 422 at that capability.
  assert.equal(
    (await ask(app, "/auth/tokens", { json: { name: "ci" } })).status,
    401,
  );
  const beyond = await ask(app, "/auth/tokens", {
    json: {
      name: "ci",
      capabilities: ["collection.Users.read", "reports.export"],
    },
    cookie,
  });
  assert.equal(beyond.status, 422);
  assert.deepEqual(Object.keys(beyond.body.data.errors), ["capabilities[1]"]);
  const created = await ask(app, "/auth/tokens", {
    json: { name: "reader", capabilities: ["collection.Users.read"] },
    cookie,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const token = created.body.token as string;
  assert.match(token, /^strata_[A-Za-z0-9_-]{43}$/);
  assert.equal(created.body.record.user, uuid);
  assert.deepEqual(created.body.record.capabilities, ["collection.Users.read"]);
  assert.equal(created.body.record.tokenHash, undefined);
  // The token is the user, limited: it reads Users, it cannot create them (403).
  const me = await ask(app, "/auth/me", { bearer: token });
  assert.equal(me.body.email, "ed@example.com");
  assert.equal(cookieOf(me), undefined);
  assert.equal(
    (await ask(app, "/collections/users", { bearer: token })).status,
    200,
  );
  const newUser = (email: string) => ({ email, password: PASSWORD });
  const write = await ask(app, "/collections/users", {
    json: newUser("t1@example.com"),
    bearer: token,
  });
  assert.equal(write.status, 403);
  // The same user with a session may create: the limit is the token's.
  const byCookie = await ask(app, "/collections/users", {
    json: newUser("s1@example.com"),
    cookie,
    origin: "http://localhost",
  });
  assert.equal(byCookie.status, 201, JSON.stringify(byCookie.body));
  // A token cannot create tokens, nor change the account.
  const nested = await ask(app, "/auth/tokens", {
    json: { name: "again" },
    bearer: token,
  });
  assert.equal(nested.status, 403);
  assert.equal(nested.body.data.code, "sessionRequired");
  const patch = await ask(app, "/auth/me", {
    method: "PATCH",
    json: { timezone: "Europe/Berlin" },
    bearer: token,
  });
  assert.equal(patch.status, 401);
  // A cross-site write with a token is not a CSRF case (no cookie).
  const all = await ask(app, "/auth/tokens", { json: { name: "all" }, cookie });
  assert.deepEqual(all.body.record.capabilities, ["*"]);
  const crossSite = await ask(app, "/collections/users", {
    json: newUser("t2@example.com"),
    bearer: all.body.token,
    origin: "https://elsewhere.example",
  });
  assert.equal(crossSite.status, 201);
  // An unknown or malformed token is signed out.
  for (const bad of ["strata_" + "A".repeat(43), "strata_short"]) {
    assert.equal((await ask(app, "/auth/me", { bearer: bad })).status, 401);
  }
  // Roles taken away: the "all" token loses them at its next use.
  await ask(app, `/collections/users/${uuid}`, {
    method: "PATCH",
    json: { roles: [] },
    cookie: admin.cookie,
    origin: "http://localhost",
  });
  const after = await ask(app, "/collections/users", {
    bearer: all.body.token,
  });
  assert.equal(after.status, 403);
  // Still signed in as the user: the token itself lives.
  assert.equal(
    (await ask(app, "/auth/me", { bearer: all.body.token })).status,
    200,
  );
});

authTest(
  "tokens are listed and revoked through /collections/api-tokens, own only",
  async (h) => {
    const app = await h.boot({ config: accountsConfig() });
    const admin = await install(app);
    await createUser(app, {
      email: "a@example.com",
      password: PASSWORD,
      roles: ["editor"],
    });
    await createUser(app, {
      email: "b@example.com",
      password: PASSWORD,
      roles: ["editor"],
    });
    const a = await login(app, "a@example.com", PASSWORD);
    const b = await login(app, "b@example.com", PASSWORD);
    const mine = await ask(app, "/auth/tokens", {
      json: { name: "a1" },
      cookie: a,
    });
    await ask(app, "/auth/tokens", { json: { name: "b1" }, cookie: b });
    const listA = await ask(app, "/collections/api-tokens", { cookie: a });
    assert.deepEqual(listA.body.map((t: { name: string }) => t.name), ["a1"]);
    assert.equal(listA.body[0].tokenHash, undefined);
    const listAdmin = await ask(app, "/collections/api-tokens?order=[name]", {
      cookie: admin.cookie,
    });
    assert.deepEqual(listAdmin.body.map((t: { name: string }) => t.name), [
      "a1",
      "b1",
    ]);
    // b cannot revoke a's token (404, as missing); a can.
    const uuid = mine.body.record.UUID;
    const foreign = await ask(app, `/collections/api-tokens/${uuid}`, {
      method: "DELETE",
      cookie: b,
      origin: "http://localhost",
    });
    assert.equal(foreign.status, 404);
    assert.equal(
      (await ask(app, "/auth/me", { bearer: mine.body.token })).status,
      200,
    );
    const revoked = await ask(app, `/collections/api-tokens/${uuid}`, {
      method: "DELETE",
      cookie: a,
      origin: "http://localhost",
    });
    assert.equal(revoked.status, 204);
    assert.equal(
      (await ask(app, "/auth/me", { bearer: mine.body.token })).status,
      401,
    );
    // Creation through the collections API is closed.
    const direct = await ask(app, "/collections/api-tokens", {
      json: { name: "x" },
      cookie: admin.cookie,
      origin: "http://localhost",
    });
    assert.equal(direct.status, 404);
  },
);

authTest(
  "a token expires after expiresIn and lastUsedAt is written at most once a minute",
  async (h) => {
    const app = await h.boot({ config: accountsConfig() });
    const { cookie } = await install(app);
    for (const expiresIn of ["soon", -5, "20y", 0.5, true]) {
      const bad = await ask(app, "/auth/tokens", {
        json: { name: "x", expiresIn },
        cookie,
      });
      assert.equal(bad.status, 422, String(expiresIn));
      assert.ok(bad.body.data.errors.expiresIn);
    }
    const created = await ask(app, "/auth/tokens", {
      json: { name: "short", expiresIn: "2h" },
      cookie,
    });
    const { token, record } = created.body;
    assert.equal(record.expiresAt, h.clock.now() + 2 * 3_600_000);
    assert.equal(record.lastUsedAt, null);
    const lastUsed = async () =>
      (await app.query("ApiTokens").where({ UUID: record.UUID }).findFirst())!
        .lastUsedAt;
    const start = h.clock.now();
    await ask(app, "/auth/me", { bearer: token });
    assert.equal(await lastUsed(), start);
    h.clock.advance(30_000);
    await ask(app, "/auth/me", { bearer: token });
    assert.equal(
      await lastUsed(),
      start,
      "not written again within the minute",
    );
    h.clock.advance(30_000);
    await ask(app, "/auth/me", { bearer: token });
    assert.equal(await lastUsed(), start + 60_000);
    h.clock.advance(2 * 3_600_000);
    assert.equal((await ask(app, "/auth/me", { bearer: token })).status, 401);
    // Unknown keys and a missing name are refused.
    const unknown = await ask(app, "/auth/tokens", {
      json: { name: "n", user: "x" },
      cookie,
    });
    assert.equal(unknown.status, 422);
    const nameless = await ask(app, "/auth/tokens", { json: {}, cookie });
    assert.equal(nameless.status, 422);
    assert.ok(nameless.body.data.errors.name);
  },
);

authTest("an API token works over a real socket", async (h) => {
  const app = await h.boot({ config: accountsConfig() });
  const { cookie } = await install(app);
  const { token } =
    (await ask(app, "/auth/tokens", { json: { name: "socket" }, cookie })).body;
  const server = serveOnSocket(app);
  try {
    const response = await fetch(`${server.url}/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.getSetCookie().length, 0);
    assert.equal((await response.json()).email, "admin@example.com");
  } finally {
    await server.close();
  }
});
