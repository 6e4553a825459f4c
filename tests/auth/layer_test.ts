import assert from "node:assert/strict";
import { ask, AUTH_APP, authTest, fixture, install } from "./_helpers.ts";
import { createApp, defineLayer } from "../../mod.ts";
import { authLayer, usersDefinition } from "../../auth/mod.ts";
import { defineCollection, field } from "../../collections/define.ts";
import { resolveAuthSettings } from "../../auth/settings.ts";

const PLAIN = fixture("auth_plain_app");

Deno.test("layer: an app without it has no /auth routes and its own Users", async () => {
  const app = await createApp({ root: PLAIN, database: ":memory:" });
  try {
    for (
      const [method, path] of [
        ["POST", "/auth/login"],
        ["GET", "/auth/me"],
        ["GET", "/auth/install"],
        ["POST", "/auth/logout"],
      ]
    ) {
      const answer = await ask(app, path, {
        method,
        ...(method === "POST" ? { json: {} } : {}),
      });
      assert.equal(answer.status, 404, `${method} ${path}`);
    }
    const created = await app.query("Users").create({ name: "Ada" });
    assert.equal(created.ok, true);
    assert.equal(app.layers.roles.has("admin"), false);
    assert.equal(app.layers.middleware.has("require-auth"), false);
    assert.equal(app.data.collections.has("Sessions"), false);
  } finally {
    await app.close();
  }
});

Deno.test("layer: the auth field types exist only with the layer", async () => {
  const accounts = defineLayer({
    name: "accounts",
    collections: {
      Accounts: defineCollection({ fields: { address: field("email") } }),
    },
  });
  await assert.rejects(
    createApp({ root: PLAIN, database: ":memory:", layers: [accounts] }),
    /email/,
  );
  const app = await createApp({
    root: PLAIN,
    database: ":memory:",
    layers: [authLayer(), accounts],
  });
  try {
    const ok = await app.query("Accounts").create({ address: " A@B.CO " });
    assert.deepEqual(ok.ok && ok.record.address, "a@b.co");
  } finally {
    await app.close();
  }
});

authTest(
  "layer: contributes routes, collections, role, middleware and hooks",
  async (h) => {
    const app = await h.boot();
    const ids = app.routes.filter((r) => r.layer === "auth").map((r) => r.id)
      .sort();
    assert.deepEqual(ids, [
      "GET /auth/install",
      "GET /auth/me",
      "GET /auth/totp",
      "GET /dashboard",
      "GET /dashboard/[...path]",
      "GET /dashboard/api/collections",
      "GET /dashboard/api/collections/[collection]/permissions",
      "GET /dashboard/assets/app.js",
      "GET /dashboard/assets/client.js",
      "GET /dashboard/assets/styles.css",
      "PATCH /auth/me",
      "POST /auth/email/change",
      "POST /auth/email/confirm",
      "POST /auth/install",
      "POST /auth/login",
      "POST /auth/logout",
      "POST /auth/logout/others",
      "POST /auth/password/forgot",
      "POST /auth/password/reset",
      "POST /auth/tokens",
      "POST /auth/totp/disable",
      "POST /auth/totp/enable",
      "POST /auth/totp/setup",
      "POST /auth/verify",
      "POST /auth/verify/request",
    ]);
    assert.ok(app.data.collections.has("Users"));
    assert.ok(app.data.collections.has("Sessions"));
    assert.deepEqual(app.layers.roles.get("admin")?.capabilities, ["*"]);
    assert.ok(app.layers.middleware.has("auth"));
    assert.ok(app.layers.middleware.has("require-auth"));
    assert.equal(app.hooks("auth:account-fields").length, 1);
    assert.equal(app.hooks("collections:principal").length, 1);
    const sessions = app.data.collections.get("Sessions")!;
    assert.equal(sessions.fields.get("tokenHash")!.readable, false);
    assert.equal(sessions.fields.get("tokenHash")!.unique, true);
    assert.equal(sessions.fields.get("expiresAt")!.index, true);
    assert.equal(sessions.fields.get("user")!.onDelete, "cascade");
    const users = app.data.collections.get("Users")!;
    assert.equal(users.fields.get("password")!.readable, false);
    assert.equal(users.fields.get("email")!.unique, true);
    assert.deepEqual(usersDefinition.api, users.definition.api);
    await install(app);
  },
);

authTest("layer: listed twice, it loads once", async (h) => {
  const app = await h.boot({
    config: {
      layers: [authLayer(), authLayer()],
      auth: { password: { cost: 1024 } },
    },
  });
  // Sign-up is off: its route is not there.
  assert.equal(app.routes.filter((r) => r.layer === "auth").length, 25);
  assert.equal(app.hooks("auth:account-fields").length, 1);
  await install(app);
});

Deno.test("layer: Users exposes every operation guarded; Sessions read and delete own only", () => {
  const users = usersDefinition.api as Record<string, unknown>;
  assert.equal(users.read, true);
  assert.equal(users.create, true);
  assert.equal(typeof (users.update as { access: unknown }).access, "function");
  assert.equal((users.update as { public?: boolean }).public, undefined);
  assert.equal(typeof (users.delete as { access: unknown }).access, "function");
});

Deno.test("layer: a bad auth config value fails the boot naming the key", async () => {
  for (
    const [auth, key] of [
      [
        { password: { cost: 1000 } },
        "auth.password.cost must be a power of two",
      ],
      [{ password: { blockSize: 0 } }, "auth.password.blockSize"],
      [{ sessionMaxAge: "forever" }, "auth.sessionMaxAge"],
      [{ transientSessionMaxAge: -5 }, "auth.transientSessionMaxAge"],
      [{ cookieName: "bad name;" }, "auth.cookieName"],
      [
        { loginRateLimit: { maxFailures: 0 } },
        "auth.loginRateLimit.maxFailures",
      ],
      [{ loginRateLimit: { window: "soon" } }, "auth.loginRateLimit.window"],
      [{ loginRateLimit: { burst: 1 } }, "auth.loginRateLimit.burst"],
      [
        { loginRateLimit: { maxAccountFailures: 1.5 } },
        "auth.loginRateLimit.maxAccountFailures",
      ],
      [
        { loginRateLimit: { accountWindow: "later" } },
        "auth.loginRateLimit.accountWindow",
      ],
      [{ password: { minLength: 0 } }, "auth.password.minLength"],
      [{ signup: "yes" }, "auth.signup"],
      [{ signup: { roles: "editor" } }, "auth.signup.roles"],
      [
        { signup: { roles: ["nobody"] } },
        'auth.signup.roles names the role "nobody"',
      ],
      [{ signup: { verify: true } }, "auth.signup.verify"],
      [{ verifyTokenMaxAge: "never" }, "auth.verifyTokenMaxAge"],
      [{ resetTokenMaxAge: 0 }, "auth.resetTokenMaxAge"],
      [{ resetRateLimit: { maxPerIp: -1 } }, "auth.resetRateLimit.maxPerIp"],
    ] as const
  ) {
    await assert.rejects(
      createApp({
        root: AUTH_APP,
        database: ":memory:",
        config: { layers: [authLayer()], auth: auth as never },
      }),
      (error: Error) => error.message.includes(key),
      key,
    );
  }
});

Deno.test("settings: defaults and the sessionMaxAge ceiling", () => {
  const defaults = resolveAuthSettings(undefined);
  assert.deepEqual(defaults, {
    sessionMaxAge: 30 * 86_400_000,
    transientSessionMaxAge: 86_400_000,
    cookieName: "session",
    password: { cost: 32768, blockSize: 8, parallelization: 1 },
    loginRateLimit: {
      maxFailures: 10,
      window: 60_000,
      maxAccountFailures: 20,
      accountWindow: 900_000,
    },
    passwordMinLength: 8,
    signup: false,
    verifyTokenMaxAge: 86_400_000,
    resetTokenMaxAge: 3_600_000,
    resetRateLimit: { maxPerEmail: 5, maxPerIp: 20, window: 3_600_000 },
  });
  const capped = resolveAuthSettings({
    sessionMaxAge: 3_600_000,
    transientSessionMaxAge: "2d",
  });
  assert.equal(capped.transientSessionMaxAge, 3_600_000);
  assert.equal(
    resolveAuthSettings({ loginRateLimit: false }).loginRateLimit,
    false,
  );
});
