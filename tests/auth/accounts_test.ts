// Accounts over HTTP: sign-up in both modes, email verification, password reset, email
// change and the password policy, with the links read from the mails the app sent.
import assert from "node:assert/strict";
import { kyselyOf } from "../../collections/database.ts";
import { outboxRows } from "../../mail/outbox.ts";
import type { App } from "../../mod.ts";
import { accountsConfig, bootQuiet, linkToken, settle } from "./_accounts.ts";
import {
  ADMIN,
  ask,
  authTest,
  cookieOf,
  createUser,
  install,
  login,
} from "./_helpers.ts";

function mailsTo(app: App, to: string) {
  return app.mail.sent.filter((m) => m.to.includes(to));
}

const STRONG = "violet-anchor-47";

authTest("sign-up does not exist unless auth.signup turns it on", async (h) => {
  const app = await bootQuiet(h, accountsConfig());
  await install(app);
  const answer = await ask(app, "/auth/signup", {
    json: { email: "new@example.com", password: STRONG },
  });
  assert.equal(answer.status, 404);
  const doc = await ask(app, "/openapi.json");
  assert.ok(!("/auth/signup" in doc.body.paths));
  assert.ok("/auth/password/forgot" in doc.body.paths);
  const on = await bootQuiet(h, accountsConfig({ signup: true }));
  assert.ok("/auth/signup" in (await ask(on, "/openapi.json")).body.paths);
});

authTest(
  "sign-up answers 403 until the first account is installed",
  async (h) => {
    const app = await bootQuiet(h, accountsConfig({ signup: true }));
    const answer = await ask(app, "/auth/signup", {
      json: { email: "new@example.com", password: STRONG },
    });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.data.code, "installRequired");
    assert.equal(await app.query("Users").count(), 0);
  },
);

authTest(
  "sign-up opens a session, gives the configured roles and mails a verification link",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({ signup: { roles: ["editor"] } }),
    );
    await install(app);
    const answer = await ask(app, "/auth/signup", {
      json: { email: " New@Example.com ", password: STRONG },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.email, "new@example.com");
    assert.deepEqual(answer.body.roles, ["editor"]);
    assert.equal(answer.body.password, undefined);
    const cookie = cookieOf(answer)!;
    const me = await ask(app, "/auth/me", { cookie });
    assert.equal(me.body.email, "new@example.com");
    const record = await app.query("Users").where({ email: "new@example.com" })
      .select("emailVerifiedAt").findFirst();
    assert.equal(record?.emailVerifiedAt, null);
    // The verification link marks the address verified.
    const token = await linkToken(app, "new@example.com", "verify");
    assert.deepEqual(
      (await ask(app, "/auth/verify", { json: { token } })).body,
      {
        ok: true,
      },
    );
    const verified = await app.query("Users").where({
      email: "new@example.com",
    })
      .select("emailVerifiedAt").findFirst();
    assert.equal(verified?.emailVerifiedAt, h.clock.now());
    // A taken address is a 422 at email in this mode.
    const again = await ask(app, "/auth/signup", {
      json: { email: "new@example.com", password: STRONG },
    });
    assert.equal(again.status, 422);
    assert.ok(again.body.data.errors.email);
    // Unknown keys, including roles, are refused.
    const escalate = await ask(app, "/auth/signup", {
      json: { email: "x@example.com", password: STRONG, roles: ["admin"] },
    });
    assert.equal(escalate.status, 422);
    assert.ok(escalate.body.data.errors.roles);
  },
);

authTest(
  "the password policy refuses short and common passwords on every write",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({ signup: true, password: { minLength: 10 } }),
    );
    const { cookie } = await install(app, {
      email: ADMIN.email,
      password: "admin-password-1",
    });
    for (const password of ["short-pw1", "password123", "PassWord123"]) {
      const signup = await ask(app, "/auth/signup", {
        json: { email: "p@example.com", password },
      });
      assert.equal(signup.status, 422, password);
      assert.ok(signup.body.data.errors.password, password);
      const me = await ask(app, "/auth/me", {
        method: "PATCH",
        json: { password },
        cookie,
      });
      assert.equal(me.status, 422, password);
      const created = await app.query("Users").create({
        email: "q@example.com",
        password,
      });
      assert.equal(created.ok, false, password);
    }
    const common = await ask(app, "/auth/signup", {
      json: { email: "p@example.com", password: "password123" },
      headers: { "accept-language": "en" },
    });
    assert.match(common.body.data.errors.password, /too common/);
    const short = await ask(app, "/auth/signup", {
      json: { email: "p@example.com", password: "short-pw1" },
    });
    assert.match(short.body.data.errors.password, /10 characters/);
  },
);

authTest(
  "with requireVerifiedEmail, sign-up reveals nothing and sign-in waits for the verified address",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({ signup: { requireVerifiedEmail: true } }),
    );
    await install(app);
    const fresh = await ask(app, "/auth/signup", {
      json: { email: "fresh@example.com", password: STRONG },
    });
    const taken = await ask(app, "/auth/signup", {
      json: { email: ADMIN.email, password: STRONG },
    });
    for (const answer of [fresh, taken]) {
      assert.equal(answer.status, 202);
      assert.deepEqual(answer.body, { ok: true });
      assert.equal(cookieOf(answer), undefined);
    }
    await settle(app);
    // The owner of the taken address is told; the fresh one gets its link.
    const [attempt] = mailsTo(app, ADMIN.email);
    assert.match(attempt.subject, /sign up/);
    assert.match(attempt.text, /\/dashboard\/forgot/);
    assert.equal(await app.query("Users").count(), 2);
    // Wrong password: the usual 401; right password, unverified: 403 emailNotVerified.
    const wrong = await ask(app, "/auth/login", {
      json: { email: "fresh@example.com", password: "not-the-password" },
    });
    assert.equal(wrong.status, 401);
    const early = await ask(app, "/auth/login", {
      json: { email: "fresh@example.com", password: STRONG },
    });
    assert.equal(early.status, 403);
    assert.equal(early.body.data.code, "emailNotVerified");
    assert.equal(cookieOf(early), undefined);
    // Signed out, a new link can be asked for; unknown addresses answer the same.
    for (const email of ["fresh@example.com", "nobody@example.com"]) {
      const request = await ask(app, "/auth/verify/request", {
        json: { email },
      });
      assert.deepEqual(request.body, { ok: true });
    }
    await settle(app);
    assert.equal(mailsTo(app, "nobody@example.com").length, 0);
    assert.equal(mailsTo(app, "fresh@example.com").length, 2);
    const first = await linkToken(app, "fresh@example.com", "verify");
    assert.equal(
      (await ask(app, "/auth/verify", { json: { token: first } })).status,
      200,
    );
    // Single use.
    const reused = await ask(app, "/auth/verify", { json: { token: first } });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.data.code, "invalidToken");
    await login(app, "fresh@example.com", STRONG);
    // A verified account asking again gets nothing.
    await ask(app, "/auth/verify/request", {
      json: { email: "fresh@example.com" },
    });
    await settle(app);
    assert.equal(mailsTo(app, "fresh@example.com").length, 2);
  },
);

authTest(
  "a verification link expires after auth.verifyTokenMaxAge",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({ signup: true, verifyTokenMaxAge: "2h" }),
    );
    await install(app);
    await ask(app, "/auth/signup", {
      json: { email: "late@example.com", password: STRONG },
    });
    const token = await linkToken(app, "late@example.com", "verify");
    assert.match(mailsTo(app, "late@example.com")[0].text, /2 hours/);
    h.clock.advance(2 * 3_600_000);
    const answer = await ask(app, "/auth/verify", { json: { token } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.data.code, "invalidToken");
    for (const bad of ["nope", 42, "x".repeat(43)]) {
      const malformed = await ask(app, "/auth/verify", {
        json: { token: bad },
      });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.data.code, "invalidToken");
    }
  },
);

authTest(
  "a signed-in user can ask for a verification link; signed out it needs requireVerifiedEmail",
  async (h) => {
    const app = await bootQuiet(h, accountsConfig({ signup: true }));
    await install(app);
    const signup = await ask(app, "/auth/signup", {
      json: { email: "me@example.com", password: STRONG },
    });
    const cookie = cookieOf(signup)!;
    await settle(app);
    const request = await ask(app, "/auth/verify/request", {
      method: "POST",
      cookie,
    });
    assert.deepEqual(request.body, { ok: true });
    await settle(app);
    assert.equal(mailsTo(app, "me@example.com").length, 2);
    const signedOut = await ask(app, "/auth/verify/request", {
      json: { email: "me@example.com" },
    });
    assert.equal(signedOut.status, 401);
  },
);

authTest(
  "forgot and reset: one live link, every session ended, the same answer for unknown addresses",
  async (h) => {
    const app = await bootQuiet(h, accountsConfig());
    await install(app);
    const user = "ada@example.com";
    await createUser(app, { email: user, password: STRONG });
    const phone = await login(app, user, STRONG);
    const laptop = await login(app, user, STRONG);
    const known = await ask(app, "/auth/password/forgot", {
      json: { email: "Ada@Example.com" },
    });
    const unknown = await ask(app, "/auth/password/forgot", {
      json: { email: "ghost@example.com" },
    });
    assert.deepEqual(known.body, { ok: true });
    assert.deepEqual(unknown.body, { ok: true });
    // Both requests wrote the same: one outbox row each; the worker dropped the unknown one.
    await settle(app);
    const rows = await outboxRows(kyselyOf(app.db));
    assert.deepEqual(rows.map((r) => [r.kind, r.status]).sort(), [
      ["mail.passwordReset", "dropped"],
      ["mail.passwordReset", "sent"],
    ]);
    assert.ok(rows.every((r) => r.text === null && r.params === null));
    assert.equal(mailsTo(app, "ghost@example.com").length, 0);
    const older = await linkToken(app, user, "reset");
    // A newer link makes the older one useless.
    await ask(app, "/auth/password/forgot", { json: { email: user } });
    const token = await linkToken(app, user, "reset");
    assert.notEqual(token, older);
    const stale = await ask(app, "/auth/password/reset", {
      json: { token: older, password: "a-new-password-9" },
    });
    assert.equal(stale.status, 400);
    assert.equal(stale.body.data.code, "invalidToken");
    // A refused password leaves the link usable.
    const weak = await ask(app, "/auth/password/reset", {
      json: { token, password: "password123" },
    });
    assert.equal(weak.status, 422);
    const reset = await ask(app, "/auth/password/reset", {
      json: { token, password: "a-new-password-9" },
    });
    assert.deepEqual(reset.body, { ok: true });
    assert.equal(cookieOf(reset), undefined);
    for (const cookie of [phone, laptop]) {
      assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
    }
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { email: user, password: STRONG },
      })).status,
      401,
    );
    await login(app, user, "a-new-password-9");
    const reused = await ask(app, "/auth/password/reset", {
      json: { token, password: "another-password-8" },
    });
    assert.equal(reused.status, 400);
    // Expiry: auth.resetTokenMaxAge (1h).
    await ask(app, "/auth/password/forgot", { json: { email: user } });
    const late = await linkToken(app, user, "reset");
    h.clock.advance(3_600_000);
    const expired = await ask(app, "/auth/password/reset", {
      json: { token: late, password: "another-password-8" },
    });
    assert.equal(expired.status, 400);
    // A malformed address is a 422; a missing one too.
    for (const json of [{ email: "not-an-address" }, {}, { email: 7 }]) {
      assert.equal(
        (await ask(app, "/auth/password/forgot", { json })).status,
        422,
      );
    }
  },
);

authTest("a reset marks an unverified address verified", async (h) => {
  const app = await bootQuiet(
    h,
    accountsConfig({ signup: { requireVerifiedEmail: true } }),
  );
  await install(app);
  await ask(app, "/auth/signup", {
    json: { email: "lost@example.com", password: STRONG },
  });
  await ask(app, "/auth/password/forgot", {
    json: { email: "lost@example.com" },
  });
  const token = await linkToken(app, "lost@example.com", "reset");
  await ask(app, "/auth/password/reset", {
    json: { token, password: "found-again-42" },
  });
  await login(app, "lost@example.com", "found-again-42");
});

authTest(
  "reset mails are throttled per address and per client, answering the same",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({ resetRateLimit: { maxPerEmail: 3, maxPerIp: 5 } }),
    );
    await install(app);
    await createUser(app, { email: "ada@example.com", password: STRONG });
    await createUser(app, { email: "bob@example.com", password: STRONG });
    for (let i = 0; i < 4; i++) {
      const answer = await ask(app, "/auth/password/forgot", {
        json: { email: "ada@example.com" },
        ip: "198.51.100.1",
      });
      assert.deepEqual(answer.body, { ok: true });
    }
    await settle(app);
    assert.equal(mailsTo(app, "ada@example.com").length, 3);
    // The client made 4 requests; its fifth is admitted, its sixth not.
    for (let i = 0; i < 2; i++) {
      const answer = await ask(app, "/auth/password/forgot", {
        json: { email: "bob@example.com" },
        ip: "198.51.100.1",
      });
      assert.deepEqual(answer.body, { ok: true });
    }
    await settle(app);
    assert.equal(mailsTo(app, "bob@example.com").length, 1);
    // Another client still reaches bob; after the window ada can be mailed again.
    await ask(app, "/auth/password/forgot", {
      json: { email: "bob@example.com" },
      ip: "198.51.100.2",
    });
    h.clock.advance(3_600_000);
    await ask(app, "/auth/password/forgot", {
      json: { email: "ada@example.com" },
      ip: "198.51.100.1",
    });
    await settle(app);
    assert.equal(mailsTo(app, "bob@example.com").length, 2);
    assert.equal(mailsTo(app, "ada@example.com").length, 4);
  },
);

authTest(
  "changing one's email: confirmation to the new address, notice to the old, other sessions end",
  async (h) => {
    const app = await bootQuiet(h, accountsConfig());
    await install(app);
    await createUser(app, { email: "old@example.com", password: STRONG });
    await createUser(app, { email: "taken@example.com", password: STRONG });
    const here = await login(app, "old@example.com", STRONG);
    const there = await login(app, "old@example.com", STRONG);
    const wrong = await ask(app, "/auth/email/change", {
      json: { email: "new@example.com", password: "not-my-password" },
      cookie: here,
    });
    assert.equal(wrong.status, 422);
    assert.ok(wrong.body.data.errors.password);
    const signedOut = await ask(app, "/auth/email/change", {
      json: { email: "new@example.com", password: STRONG },
    });
    assert.equal(signedOut.status, 401);
    const same = await ask(app, "/auth/email/change", {
      json: { email: "OLD@example.com", password: STRONG },
      cookie: here,
    });
    assert.equal(same.status, 422);
    const asked = await ask(app, "/auth/email/change", {
      json: { email: "New@Example.com", password: STRONG },
      cookie: here,
    });
    assert.equal(asked.status, 202);
    assert.deepEqual(asked.body, { ok: true });
    const token = await linkToken(app, "new@example.com", "email");
    const [notice] = mailsTo(app, "old@example.com");
    assert.match(notice.text, /new@example\.com/);
    // Nothing changes until the link is used.
    assert.equal(
      (await ask(app, "/auth/me", { cookie: here })).body.email,
      "old@example.com",
    );
    const confirmed = await ask(app, "/auth/email/confirm", {
      json: { token },
      cookie: here,
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.email, "new@example.com");
    assert.equal(
      (await ask(app, "/auth/me", { cookie: here })).body.email,
      "new@example.com",
    );
    assert.equal((await ask(app, "/auth/me", { cookie: there })).status, 401);
    await login(app, "new@example.com", STRONG);
    const reused = await ask(app, "/auth/email/confirm", { json: { token } });
    assert.equal(reused.status, 400);
    // An address another account takes before the link is used: 422 at email.
    await ask(app, "/auth/email/change", {
      json: { email: "soon@example.com", password: STRONG },
      cookie: here,
    });
    const later = await linkToken(app, "soon@example.com", "email");
    await createUser(app, { email: "soon@example.com", password: STRONG });
    const clash = await ask(app, "/auth/email/confirm", {
      json: { token: later },
    });
    assert.equal(clash.status, 422);
    assert.ok(clash.body.data.errors.email);
  },
);

authTest(
  "mails are rendered in the recipient's dashboard language",
  async (h) => {
    const app = await bootQuiet(h, accountsConfig());
    await install(app);
    const uuid = await createUser(app, {
      email: "de@example.com",
      password: STRONG,
    });
    await app.query("Users").where({ UUID: uuid }).update({
      dashboardLanguage: "de",
    });
    await ask(app, "/auth/password/forgot", {
      json: { email: "de@example.com" },
    });
    await ask(app, "/auth/password/forgot", { json: { email: ADMIN.email } });
    await settle(app);
    assert.equal(
      mailsTo(app, "de@example.com")[0].subject,
      "Passwort zurücksetzen",
    );
    assert.equal(mailsTo(app, ADMIN.email)[0].subject, "Reset your password");
  },
);

authTest(
  "links start with api.publicUrl, else the request's origin",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({}, {
        api: { publicUrl: "https://accounts.example.com/app" },
      }),
    );
    await install(app);
    await ask(app, "/auth/password/forgot", { json: { email: ADMIN.email } });
    await settle(app);
    assert.match(
      app.mail.sent[0].text,
      /https:\/\/accounts\.example\.com\/app\/dashboard\/reset\?token=/,
    );
    const plain = await bootQuiet(h, accountsConfig());
    // On PostgreSQL both apps share the schema; on SQLite each has its own database.
    if ((await plain.query("Users").count()) === 0) await install(plain);
    await ask(plain, "/auth/password/forgot", { json: { email: ADMIN.email } });
    await settle(plain);
    assert.match(
      plain.mail.sent[0].text,
      /http:\/\/localhost\/dashboard\/reset\?token=/,
    );
  },
);

authTest(
  "sign-up and email-change mails are throttled like reset mails, answering the same",
  async (h) => {
    const app = await bootQuiet(
      h,
      accountsConfig({
        signup: { requireVerifiedEmail: true },
        resetRateLimit: { maxPerEmail: 2, maxPerIp: 100 },
      }),
    );
    await install(app);
    for (let i = 0; i < 3; i++) {
      const answer = await ask(app, "/auth/signup", {
        json: { email: ADMIN.email, password: STRONG },
      });
      assert.equal(answer.status, 202);
    }
    await settle(app);
    assert.equal(mailsTo(app, ADMIN.email).length, 2);
    await createUser(app, { email: "me@example.com", password: STRONG });
    const cookie = await login(app, "me@example.com", STRONG);
    for (let i = 0; i < 3; i++) {
      const answer = await ask(app, "/auth/email/change", {
        json: { email: "target@example.com", password: STRONG },
        cookie,
      });
      assert.equal(answer.status, 202);
    }
    await settle(app);
    assert.equal(mailsTo(app, "target@example.com").length, 2);
  },
);
