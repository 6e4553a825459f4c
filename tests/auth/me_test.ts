import assert from "node:assert/strict";
import {
  ADMIN,
  ask,
  authTest,
  cookieOf,
  fixture,
  install,
} from "./_helpers.ts";

const CUSTOM = fixture("auth_custom_app");

authTest(
  "me PATCH: applies account settings through the field pipeline",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const answer = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: {
        dashboardLanguage: "de-at",
        contentLanguage: "EN",
        timezone: "europe/berlin",
        dateFormat: " DD.MM.YYYY ",
        timeFormat: "HH:mm",
        smartClipboard: true,
      },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      ...user,
      dashboardLanguage: "de-AT",
      contentLanguage: "en",
      timezone: "Europe/Berlin",
      dateFormat: "DD.MM.YYYY",
      timeFormat: "HH:mm",
      smartClipboard: true,
    });
    assert.deepEqual(
      (await ask(app, "/auth/me", { cookie })).body,
      answer.body,
    );
    const cleared = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { dashboardLanguage: null },
    });
    assert.equal(cleared.body.dashboardLanguage, null);
  },
);

authTest(
  "me PATCH: all or nothing; unknown keys, email and roles are 422 at their key",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    for (
      const [body, keys] of [
        [{ timezone: "Europe/Paris", email: "x@example.com" }, ["email"]],
        [{ timezone: "Europe/Paris", roles: [] }, ["roles"]],
        [{ timezone: "Europe/Paris", nickname: "x", UUID: "y" }, [
          "UUID",
          "nickname",
        ]],
        [{ password: "new-password-1", _updatedAt: 1 }, ["_updatedAt"]],
      ] as const
    ) {
      const answer = await ask(app, "/auth/me", {
        method: "PATCH",
        cookie,
        json: body,
      });
      assert.equal(answer.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys(answer.body.data.errors).sort(), keys);
    }
    const after = await ask(app, "/auth/me", { cookie });
    assert.deepEqual(after.body, user);
    // The password did not change either.
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN })).status,
      200,
    );
  },
);

authTest(
  "me PATCH: invalid values are 422 per field and nothing is written",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const answer = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: {
        timezone: "Mars/Olympus",
        dateFormat: "   ",
        timeFormat: "",
        dashboardLanguage: "not a tag!",
        smartClipboard: "yes",
        contentLanguage: "fr",
        password: "short",
      },
    });
    assert.equal(answer.status, 422);
    assert.deepEqual(Object.keys(answer.body.data.errors).sort(), [
      "contentLanguage", // not one of the app's content locales
      "dashboardLanguage",
      "dateFormat",
      "password",
      "smartClipboard",
      "timeFormat",
      "timezone",
    ]);
    for (const message of Object.values(answer.body.data.errors)) {
      assert.equal(typeof message, "string");
    }
    assert.deepEqual((await ask(app, "/auth/me", { cookie })).body, user);
  },
);

authTest(
  "me PATCH: the new password is hashed, no current password needed",
  async (h) => {
    const app = await h.boot();
    const { cookie, user } = await install(app);
    const answer = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { password: "brand-new-password" },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, user);
    const stored = await app.query("Users").select("password").findFirst();
    assert.match(
      stored!.password as string,
      /^scrypt\$1024\$8\$1\$[^$]{22}\$[^$]{86}$/,
    );
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { email: ADMIN.email, password: "brand-new-password" },
      })).status,
      200,
    );
  },
);

authTest(
  "me PATCH: 401 signed out, 400 for a body that is not an object",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    assert.equal(
      (await ask(app, "/auth/me", {
        method: "PATCH",
        json: { timezone: "UTC" },
      }))
        .status,
      401,
    );
    assert.equal(
      (await ask(app, "/auth/me", { method: "PATCH", cookie, json: ["UTC"] }))
        .status,
      400,
    );
    const empty = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: {},
    });
    assert.equal(empty.status, 200);
  },
);

authTest(
  "me PATCH: the auth:account-fields hook decides the accepted fields",
  async (h) => {
    const app = await h.boot({ root: CUSTOM });
    const installed = await ask(app, "/auth/install", { json: ADMIN });
    const cookie = cookieOf(installed, "sid")!;
    assert.ok(cookie.startsWith("sid="));
    const nickname = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { nickname: "Ada", timezone: "Asia/Tokyo" },
    });
    assert.equal(nickname.status, 200);
    // The User shape does not carry fields the app added; the collection does.
    assert.equal("nickname" in nickname.body, false);
    assert.equal(nickname.body.timezone, "Asia/Tokyo");
    const stored = await app.query("Users").findFirst();
    assert.equal(stored!.nickname, "Ada");
    // Removed by the hook, and roles stays refused even though the hook names it.
    const refused = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { smartClipboard: true, roles: [] },
    });
    assert.equal(refused.status, 422);
    assert.deepEqual(Object.keys(refused.body.data.errors).sort(), [
      "roles",
      "smartClipboard",
    ]);
    // Field validators of the app's own fields run too.
    const tooLong = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { nickname: "x".repeat(41) },
    });
    assert.equal(tooLong.status, 422);
    assert.deepEqual(Object.keys(tooLong.body.data.errors), ["nickname"]);
  },
);

authTest(
  "me: date and time formats are the ones the dashboard renders; contentLanguage is a content locale",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const patch = (json: Record<string, unknown>) =>
      ask(app, "/auth/me", { method: "PATCH", cookie, json });
    for (
      const [json, field] of [
        [{ dateFormat: "Q" }, "dateFormat"],
        [{ dateFormat: "LTS" }, "dateFormat"],
        [{ timeFormat: "YYYY-MM-DD" }, "timeFormat"],
        [{ timeFormat: "hh:mm a" }, "timeFormat"],
        [{ contentLanguage: "fr" }, "contentLanguage"],
      ] as const
    ) {
      const refused = await patch(json);
      assert.equal(refused.status, 422, JSON.stringify(json));
      assert.ok(refused.body.data.errors[field], JSON.stringify(refused.body));
    }
    const saved = await patch({
      dateFormat: "YYYY-MM-DD",
      timeFormat: "HH:mm",
      contentLanguage: "en",
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.dateFormat, "YYYY-MM-DD");
    assert.equal(saved.body.contentLanguage, "en");
  },
);
