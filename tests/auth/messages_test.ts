import assert from "node:assert/strict";
import { ADMIN, ask, authTest, fixture, install } from "./_helpers.ts";

authTest(
  "messages: the login 401 is translated, identically for both failures",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const headers = { "accept-language": "de" };
    const wrong = await ask(app, "/auth/login", {
      json: { email: ADMIN.email, password: "not-the-password" },
      headers,
    });
    const unknown = await ask(app, "/auth/login", {
      json: { email: "nobody@example.com", password: "not-the-password" },
      headers,
    });
    assert.deepEqual(wrong.body, {
      statusCode: 401,
      message: "E-Mail-Adresse oder Passwort ist falsch",
    });
    assert.deepEqual(unknown.body, wrong.body);
    const english = await ask(app, "/auth/login", {
      json: { email: "nobody@example.com", password: "not-the-password" },
    });
    assert.equal(english.body.message, "Invalid email or password");
  },
);

authTest(
  "messages: install 403 and 422 messages follow Accept-Language",
  async (h) => {
    const app = await h.boot();
    const refused = await ask(app, "/auth/install", {
      json: { ...ADMIN, extra: true },
      headers: { "accept-language": "de" },
    });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.data.errors.extra, "Unbekanntes Feld");
    await install(app);
    const done = await ask(app, "/auth/install", {
      json: ADMIN,
      headers: { "accept-language": "de" },
    });
    assert.equal(done.status, 403);
    assert.equal(
      done.body.message,
      "Die Einrichtung ist bereits abgeschlossen",
    );
  },
);

authTest(
  "messages: a signed-in user's dashboardLanguage is a language preference",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const english = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { timezone: "Mars/Olympus" },
    });
    assert.equal(
      english.body.data.errors.timezone,
      "Must be a valid time zone",
    );
    await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { dashboardLanguage: "de" },
    });
    const german = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { timezone: "Mars/Olympus", nope: 1 },
    });
    assert.equal(german.body.data.errors.nope, "Unbekanntes Feld");
    const pipeline = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { timezone: "Mars/Olympus" },
    });
    assert.equal(
      pipeline.body.data.errors.timezone,
      "Muss eine gültige Zeitzone sein",
    );
    // Accept-Language comes first.
    const accepted = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { timezone: "Mars/Olympus" },
      headers: { "accept-language": "en" },
    });
    assert.equal(
      accepted.body.data.errors.timezone,
      "Must be a valid time zone",
    );
  },
);

authTest(
  "messages: dashboardLanguage holds on routes that never resolve the session",
  async (h) => {
    const app = await h.boot({ root: fixture("auth_language_app") });
    const { cookie, user } = await install(app);
    const token = /session=([^;]+)/.exec(cookie)?.[1] ?? "";
    await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { dashboardLanguage: "de" },
    });
    const bad = { text: "", stars: 9 };
    const callers = [
      { label: "cookie", cookie },
      { label: "bearer", headers: { authorization: `Bearer ${token}` } },
    ];
    for (const caller of callers) {
      for (const path of ["/collections/guestbook", "/sign"]) {
        const answer = await ask(app, path, { ...caller, json: bad });
        assert.equal(answer.status, 422, `${caller.label} ${path}`);
        assert.equal(
          answer.body.data.errors.text,
          "Darf nicht leer sein",
          `${caller.label} ${path}`,
        );
      }
    }
    // An Accept-Language the catalog cannot serve still falls back to the user's language;
    // one it can serve wins.
    const unserved = await ask(app, "/sign", {
      cookie,
      json: bad,
      headers: { "accept-language": "tlh" },
    });
    assert.equal(unserved.body.data.errors.text, "Darf nicht leer sein");
    const english = await ask(app, "/sign", {
      cookie,
      json: bad,
      headers: { "accept-language": "en" },
    });
    assert.equal(english.body.data.errors.text, "Must not be empty");
    // Signed out: the default language.
    const anonymous = await ask(app, "/sign", { json: bad });
    assert.equal(anonymous.body.data.errors.text, "Must not be empty");
    assert.ok(user);
  },
);
