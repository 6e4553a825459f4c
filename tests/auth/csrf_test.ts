import assert from "node:assert/strict";
import { ask, authTest, install, tokenOf } from "./_helpers.ts";

const FOREIGN = "https://evil.example";

authTest(
  "csrf: a cookie write from a foreign origin is refused 403 and changes nothing",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const forged = await ask(app, "/notes", {
      cookie,
      origin: FOREIGN,
      json: { text: "forged" },
    });
    assert.equal(forged.status, 403);
    assert.equal(forged.body.statusCode, 403);
    assert.equal(await app.query("Notes").count(), 0);
    await app.query("Notes").create({ text: "kept" });
    const deletion = await ask(app, "/notes", {
      method: "DELETE",
      cookie,
      origin: FOREIGN,
    });
    assert.equal(deletion.status, 403);
    assert.equal(await app.query("Notes").count(), 1);
    const patch = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      origin: FOREIGN,
      json: { timezone: "Asia/Tokyo" },
    });
    assert.equal(patch.status, 403);
    assert.equal((await ask(app, "/auth/me", { cookie })).body.timezone, "UTC");
    const logout = await ask(app, "/auth/logout", {
      method: "POST",
      cookie,
      origin: FOREIGN,
    });
    assert.equal(logout.status, 403);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 200);
    const nullOrigin = await ask(app, "/notes", {
      cookie,
      origin: "null",
      json: { text: "forged" },
    });
    assert.equal(nullOrigin.status, 403);
  },
);

authTest(
  "csrf: same origin, no Origin, safe methods, Bearer and signed-out requests pass",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const same = await ask(app, "/notes", {
      cookie,
      origin: "http://localhost",
      json: { text: "same origin" },
    });
    assert.equal(same.status, 200);
    const none = await ask(app, "/notes", {
      cookie,
      json: { text: "no origin" },
    });
    assert.equal(none.status, 200);
    const read = await ask(app, "/auth/me", { cookie, origin: FOREIGN });
    assert.equal(read.status, 200);
    const bearer = await ask(app, "/notes", {
      bearer: tokenOf(cookie),
      origin: FOREIGN,
      json: { text: "bearer" },
    });
    assert.equal(bearer.status, 200);
    const anonymous = await ask(app, "/notes", {
      origin: FOREIGN,
      json: { text: "anonymous" },
    });
    assert.equal(anonymous.status, 200);
    const deadCookie = await ask(app, "/notes", {
      cookie: `session=${"q".repeat(43)}`,
      origin: FOREIGN,
      json: { text: "dead cookie" },
    });
    assert.equal(deadCookie.status, 200);
    assert.equal(await app.query("Notes").count(), 5);
  },
);

authTest(
  "csrf: an origin the CORS middleware admits with credentials passes",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const trusted = await ask(app, "/notes", {
      cookie,
      origin: "https://trusted.example",
      json: { text: "trusted" },
    });
    assert.equal(trusted.status, 200);
    assert.equal(
      trusted.headers.get("access-control-allow-credentials"),
      "true",
    );
    const patch = await ask(app, "/auth/me", {
      method: "PATCH",
      cookie,
      origin: "https://trusted.example",
      json: { timezone: "Asia/Tokyo" },
    });
    assert.equal(patch.status, 200);
  },
);

authTest(
  "csrf: the site's own host behind a TLS proxy is not foreign",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const proxied = await ask(app, "/notes", {
      cookie,
      origin: "https://localhost",
      json: { text: "proxied" },
    });
    assert.equal(proxied.status, 200);
    const forwarded = await ask(app, "/notes", {
      cookie,
      origin: "https://app.example",
      headers: { "x-forwarded-host": "app.example" },
      json: { text: "forwarded" },
    });
    assert.equal(forwarded.status, 200);
  },
);
