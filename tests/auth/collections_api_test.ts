// The Users and Sessions collections over the collections API.
import assert from "node:assert/strict";
import {
  ask,
  authTest,
  createUser,
  install,
  login,
  sessionCount,
} from "./_helpers.ts";
import type { App } from "../../mod.ts";

async function team(app: App) {
  const { cookie: admin, user } = await install(app);
  const managerId = await createUser(app, {
    email: "m@example.com",
    password: "m-password",
    roles: ["manager"],
  });
  const editorId = await createUser(app, {
    email: "e@example.com",
    password: "e-password",
    roles: ["editor"],
  });
  return {
    admin,
    adminId: user.UUID as string,
    managerId,
    editorId,
    manager: await login(app, "m@example.com", "m-password"),
    editor: await login(app, "e@example.com", "e-password"),
  };
}

authTest("users API: guarded by collection.Users.* capabilities", async (h) => {
  const app = await h.boot();
  const { admin, manager, editor } = await team(app);
  assert.equal((await ask(app, "/collections/users")).status, 401);
  assert.equal(
    (await ask(app, "/collections/users", { cookie: editor })).status,
    403,
  );
  const list = await ask(app, "/collections/users", { cookie: admin });
  assert.equal(list.status, 200);
  assert.equal(list.body.length, 3);
  for (const record of list.body) {
    assert.equal("password" in record, false);
  }
  assert.equal(
    (await ask(app, "/collections/users", { cookie: manager })).status,
    200,
  );
});

authTest(
  "users API: no update or delete of an account the caller does not cover",
  async (h) => {
    const app = await h.boot();
    const { adminId, editorId, managerId, manager, admin } = await team(app);
    const patchAdmin = await ask(app, `/collections/users/${adminId}`, {
      method: "PATCH",
      cookie: manager,
      json: { timezone: "Asia/Tokyo" },
    });
    assert.equal(patchAdmin.status, 404);
    const deleteAdmin = await ask(app, `/collections/users/${adminId}`, {
      method: "DELETE",
      cookie: manager,
    });
    assert.equal(deleteAdmin.status, 404);
    // Identical to a missing record.
    const missing = await ask(
      app,
      "/collections/users/00000000-0000-4000-8000-000000000000",
      { method: "PATCH", cookie: manager, json: { timezone: "Asia/Tokyo" } },
    );
    assert.deepEqual(patchAdmin.body, missing.body);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: admin })).body.timezone,
      "UTC",
    );
    const patchEditor = await ask(app, `/collections/users/${editorId}`, {
      method: "PATCH",
      cookie: manager,
      json: { timezone: "Asia/Tokyo" },
    });
    assert.equal(patchEditor.status, 200);
    assert.equal(patchEditor.body.timezone, "Asia/Tokyo");
    const deleteEditor = await ask(app, `/collections/users/${editorId}`, {
      method: "DELETE",
      cookie: manager,
    });
    assert.equal(deleteEditor.status, 204);
    // An administrator reaches everyone.
    const patchManager = await ask(app, `/collections/users/${managerId}`, {
      method: "PATCH",
      cookie: admin,
      json: { dateFormat: "L" },
    });
    assert.equal(patchManager.status, 200);
  },
);

authTest(
  "users API: a writer grants only roles they hold (422 at roles)",
  async (h) => {
    const app = await h.boot();
    const { editorId, manager, admin } = await team(app);
    const escalate = await ask(app, `/collections/users/${editorId}`, {
      method: "PATCH",
      cookie: manager,
      json: { roles: ["editor", "admin"] },
    });
    assert.equal(escalate.status, 422);
    assert.deepEqual(Object.keys(escalate.body.data.errors), ["roles"]);
    const create = await ask(app, "/collections/users", {
      cookie: manager,
      json: {
        email: "x@example.com",
        password: "x-password",
        roles: ["admin"],
      },
    });
    assert.equal(create.status, 422);
    assert.deepEqual(Object.keys(create.body.data.errors), ["roles"]);
    const allowed = await ask(app, "/collections/users", {
      cookie: manager,
      json: {
        email: "x@example.com",
        password: "x-password",
        roles: ["editor"],
      },
    });
    assert.equal(allowed.status, 201);
    assert.equal("password" in allowed.body, false);
    const unknown = await ask(app, "/collections/users", {
      cookie: admin,
      json: {
        email: "y@example.com",
        password: "y-password",
        roles: ["ghost"],
      },
    });
    assert.equal(unknown.status, 422);
    const promote = await ask(app, `/collections/users/${allowed.body.UUID}`, {
      method: "PATCH",
      cookie: admin,
      json: { roles: ["admin"] },
    });
    assert.equal(promote.status, 200);
    assert.deepEqual(promote.body.roles, ["admin"]);
  },
);

authTest(
  "users API: a password set by an administrator ends every session of the account",
  async (h) => {
    const app = await h.boot();
    const { admin, editorId, editor } = await team(app);
    const second = await login(app, "e@example.com", "e-password");
    const answer = await ask(app, `/collections/users/${editorId}`, {
      method: "PATCH",
      cookie: admin,
      json: { password: "reset-by-admin" },
    });
    assert.equal(answer.status, 200);
    assert.equal("password" in answer.body, false);
    assert.equal((await ask(app, "/auth/me", { cookie: editor })).status, 401);
    assert.equal((await ask(app, "/auth/me", { cookie: second })).status, 401);
    assert.equal((await ask(app, "/auth/me", { cookie: admin })).status, 200);
    await login(app, "e@example.com", "reset-by-admin");
  },
);

authTest(
  "sessions API: a signed-in user lists and ends their own sessions only",
  async (h) => {
    const app = await h.boot();
    const { admin, editor, adminId } = await team(app);
    const other = await login(app, "e@example.com", "e-password");
    assert.equal((await ask(app, "/collections/sessions")).status, 401);
    const mine = await ask(app, "/collections/sessions", { cookie: editor });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.length, 2);
    for (const session of mine.body) {
      assert.notEqual(session.user, adminId);
      assert.equal("tokenHash" in session, false);
      assert.equal("passwordStamp" in session, false);
    }
    const adminSessions = await ask(app, "/collections/sessions", {
      cookie: admin,
    });
    const adminSession = adminSessions.body[0].UUID;
    const foreign = await ask(app, `/collections/sessions/${adminSession}`, {
      method: "DELETE",
      cookie: editor,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await ask(app, "/auth/me", { cookie: admin })).status, 200);
    const otherId = mine.body.find((s: { UUID: string }) =>
      s.UUID !== adminSession
    );
    const before = await sessionCount(app);
    const ended = await ask(app, `/collections/sessions/${otherId.UUID}`, {
      method: "DELETE",
      cookie: editor,
    });
    assert.equal(ended.status, 204);
    assert.equal(await sessionCount(app), before - 1);
    const stillIn = [
      (await ask(app, "/auth/me", { cookie: editor })).status,
      (await ask(app, "/auth/me", { cookie: other })).status,
    ].sort();
    assert.deepEqual(stillIn, [200, 401]);
    // Writes other than delete are closed.
    assert.equal(
      (await ask(app, "/collections/sessions", {
        cookie: admin,
        json: { user: adminId },
      })).status,
      404,
    );
  },
);

authTest("sessions API: expired sessions are not listed", async (h) => {
  const app = await h.boot();
  const { admin } = await team(app);
  const remembered = await login(
    app,
    "admin@example.com",
    "admin-password",
    true,
  );
  h.clock.advance(86_400_000);
  const list = await ask(app, "/collections/sessions", { cookie: remembered });
  assert.equal(list.status, 200);
  // The install's session is remembered too; the transient ones are gone.
  assert.equal(list.body.length, 2);
  assert.equal((await ask(app, "/auth/me", { cookie: admin })).status, 200);
});
