import assert from "node:assert/strict";
import { ADMIN, ask, authTest, install, login, tokenOf } from "./_helpers.ts";

authTest(
  "instances: a session opened on one instance works on the other",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const { cookie, user } = await install(one);
    const me = await ask(two, "/auth/me", { cookie });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, user);
    const bearer = tokenOf(await login(two, ADMIN.email, ADMIN.password));
    assert.equal((await ask(one, "/auth/me", { bearer })).status, 200);
    const patched = await ask(two, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { timezone: "America/New_York" },
    });
    assert.equal(patched.status, 200);
    assert.equal(
      (await ask(one, "/auth/me", { cookie })).body.timezone,
      "America/New_York",
    );
  },
  { shared: true },
);

authTest(
  "instances: logout/others on one ends the sessions on the other",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const { cookie } = await install(one);
    const elsewhere = await login(two, ADMIN.email, ADMIN.password);
    assert.equal(
      (await ask(two, "/auth/me", { cookie: elsewhere })).status,
      200,
    );
    const answer = await ask(one, "/auth/logout/others", {
      method: "POST",
      cookie,
    });
    assert.equal(answer.status, 200);
    assert.equal(
      (await ask(two, "/auth/me", { cookie: elsewhere })).status,
      401,
    );
    assert.equal((await ask(two, "/auth/me", { cookie })).status, 200);
    await ask(two, "/auth/logout", { method: "POST", cookie });
    assert.equal((await ask(one, "/auth/me", { cookie })).status, 401);
  },
  { shared: true },
);

authTest(
  "instances: a password change on one ends the sessions on the other",
  async (h) => {
    const one = await h.boot();
    const two = await h.boot();
    const { cookie } = await install(one);
    const elsewhere = await login(two, ADMIN.email, ADMIN.password);
    const changed = await ask(one, "/auth/me", {
      method: "PATCH",
      cookie,
      json: { password: "another-password" },
    });
    assert.equal(changed.status, 200);
    assert.equal(
      (await ask(two, "/auth/me", { cookie: elsewhere })).status,
      401,
    );
    assert.equal((await ask(two, "/auth/me", { cookie })).status, 200);
  },
  { shared: true },
);
