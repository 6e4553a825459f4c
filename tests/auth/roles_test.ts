import assert from "node:assert/strict";
import {
  ask,
  authTest,
  cookieOf,
  createUser,
  fixture,
  install,
  login,
} from "./_helpers.ts";

const CUSTOM = fixture("auth_custom_app");

authTest(
  "roles: admin holds every capability; userCan follows the roles",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const admin = await ask(app, "/whoami", { cookie });
    assert.equal(admin.body.canNotes, true);
    assert.equal(admin.body.canAnything, true);
    await createUser(app, {
      email: "e@example.com",
      password: "e-password",
      roles: ["editor"],
    });
    await createUser(app, { email: "p@example.com", password: "p-password" });
    const editor = await ask(app, "/whoami", {
      cookie: await login(app, "e@example.com", "e-password"),
    });
    assert.equal(editor.body.canNotes, true);
    assert.equal(editor.body.canAnything, false);
    const plain = await ask(app, "/whoami", {
      cookie: await login(app, "p@example.com", "p-password"),
    });
    assert.equal(plain.body.canNotes, false);
    const anonymous = await ask(app, "/whoami");
    assert.equal(anonymous.body.canNotes, false);
  },
);

authTest("roles: merged across layers, the closer layer wins", async (h) => {
  const app = await h.boot({ root: CUSTOM });
  await app.query("Users").create({
    email: "c@example.com",
    password: "c-password",
    roles: ["clerk", "packer", "auditor"],
  });
  const cookie = cookieOf(
    await ask(app, "/auth/login", {
      json: { email: "c@example.com", password: "c-password" },
    }),
    "sid",
  )!;
  const can = async (capability: string) =>
    (await ask(app, `/can?capability=${capability}`, { cookie })).body.can;
  assert.equal(await can("shop.orders.read"), true);
  // The shop layer's clerk had shop.orders.*; the app's clerk replaces it.
  assert.equal(await can("shop.orders.write"), false);
  assert.equal(await can("shop.parcels.send"), true);
  assert.equal(await can("shop.reports.read"), true);
  assert.equal(await can("collection.Users.read"), false);
});

authTest(
  "roles field: names must be distinct roles some layer defines",
  async (h) => {
    const app = await h.boot();
    for (
      const roles of [["ghost"], ["editor", "editor"], "editor", [1], [
        "admin",
        "nope",
      ]]
    ) {
      const result = await app.query("Users").create({
        email: "x@example.com",
        password: "x-password",
        roles,
      });
      assert.equal(result.ok, false, JSON.stringify(roles));
      if (!result.ok) assert.deepEqual(Object.keys(result.errors), ["roles"]);
    }
    const ok = await app.query("Users").create({
      email: "x@example.com",
      password: "x-password",
      roles: ["editor", "manager"],
    });
    assert.equal(ok.ok, true);
  },
);

authTest(
  "escalation: a signed-in writer grants only roles they hold",
  async (h) => {
    const app = await h.boot();
    await install(app);
    await createUser(app, {
      email: "m@example.com",
      password: "m-password",
      roles: ["manager"],
    });
    const manager = await login(app, "m@example.com", "m-password");
    const granted = await ask(app, "/signup", {
      cookie: manager,
      json: {
        email: "e@example.com",
        password: "e-password",
        roles: ["editor"],
      },
    });
    assert.equal(granted.status, 200);
    assert.deepEqual(granted.body.user.roles, ["editor"]);
    const manager2 = await login(app, "m@example.com", "m-password");
    for (const roles of [["admin"], ["editor", "admin"], ["manager"]]) {
      const answer = await ask(app, "/signup", {
        cookie: manager2,
        json: { email: "x@example.com", password: "x-password", roles },
      });
      if (roles.includes("admin")) {
        assert.equal(answer.status, 422, JSON.stringify(roles));
        assert.deepEqual(Object.keys(answer.body.data.errors), ["roles"]);
      } else {
        // A manager holds the manager role's capabilities, so may grant it.
        assert.equal(answer.status, 200);
      }
    }
    assert.equal(
      await app.query("Users").where({ email: "x@example.com" }).count(),
      1,
    );
    const editor = await login(app, "e@example.com", "e-password");
    const refused = await ask(app, "/signup", {
      cookie: editor,
      json: {
        email: "y@example.com",
        password: "y-password",
        roles: ["manager"],
      },
    });
    assert.equal(refused.status, 422);
  },
);

authTest(
  "escalation: update and delete of Users reach only accounts the caller covers",
  async (h) => {
    const app = await h.boot();
    const { cookie: admin } = await install(app);
    await createUser(app, {
      email: "m@example.com",
      password: "m-password",
      roles: ["manager"],
    });
    await createUser(app, {
      email: "e@example.com",
      password: "e-password",
      roles: ["editor"],
    });
    await createUser(app, { email: "p@example.com", password: "p-password" });
    const manager = await login(app, "m@example.com", "m-password");
    const editor = await login(app, "e@example.com", "e-password");
    const reach = async (cookie?: string) =>
      (await ask(app, "/scoped-users", { method: "POST", cookie })).body;
    assert.deepEqual(await reach(admin), [
      "admin@example.com",
      "e@example.com",
      "m@example.com",
      "p@example.com",
    ]);
    assert.deepEqual(await reach(manager), [
      "e@example.com",
      "m@example.com",
      "p@example.com",
    ]);
    assert.deepEqual(await reach(editor), ["e@example.com", "p@example.com"]);
    assert.deepEqual(await reach(), { refused: true });
    const verdict = await ask(app, "/access", {
      cookie: admin,
      json: { collection: "Users", operation: "delete" },
    });
    assert.deepEqual(verdict.body, { verdict: true });
    const scoped = await ask(app, "/access", {
      cookie: manager,
      json: { collection: "Users", operation: "delete" },
    });
    assert.deepEqual(scoped.body.verdict, {
      where: { not: { roles: { includesAny: ["admin"] } } },
    });
  },
);

authTest(
  "sessions collection: a user reaches only their own live sessions",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const read = await ask(app, "/access", {
      cookie,
      json: { collection: "Sessions", operation: "read" },
    });
    assert.deepEqual(read.body.verdict, {
      where: { user: user.UUID, expiresAt: { greaterThan: h.clock.now() } },
    });
    const anonymous = await ask(app, "/access", {
      json: { collection: "Sessions", operation: "delete" },
    });
    assert.deepEqual(anonymous.body, { verdict: false });
    assert.deepEqual(
      (await ask(app, "/access", {
        cookie,
        json: { collection: "Sessions", operation: "update" },
      })).body,
      { closed: true },
    );
    const live = await app.query("Sessions").where(read.body.verdict.where)
      .count();
    assert.equal(live, 1);
  },
);

authTest(
  "principal: the collections API sees the signed-in user's capabilities",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    await createUser(app, {
      email: "e@example.com",
      password: "e-password",
      roles: ["editor"],
    });
    const editor = await login(app, "e@example.com", "e-password");
    const check = async (capability: string, cookie?: string) =>
      (await ask(app, `/principal?capability=${capability}`, { cookie })).body;
    assert.deepEqual(await check("collection.Users.update", cookie), {
      signedIn: true,
      can: true,
    });
    assert.deepEqual(await check("collection.Users.update", editor), {
      signedIn: true,
      can: false,
    });
    assert.deepEqual(await check("collection.Notes.delete", editor), {
      signedIn: true,
      can: true,
    });
    assert.deepEqual(await check("collection.Notes.read"), {
      signedIn: false,
      can: false,
    });
  },
);
