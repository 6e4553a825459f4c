import assert from "node:assert/strict";
import {
  ADMIN,
  ask,
  authTest,
  cookieOf,
  createUser,
  install,
  login,
  send,
  sessionCount,
  tokenOf,
} from "./_helpers.ts";
import { authLayer } from "../../auth/mod.ts";
import { sha256Base64Url } from "../../utils/crypto.ts";

const DAY = 86_400_000;

authTest(
  "login: answers the User shape and sets the session cookie",
  async (h) => {
    const app = await h.boot();
    const { user } = await install(app);
    const answer = await ask(app, "/auth/login", {
      json: { email: "  ADMIN@Example.COM ", password: ADMIN.password },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, user);
    assert.deepEqual(Object.keys(answer.body).sort(), [
      "UUID",
      "contentLanguage",
      "dashboardLanguage",
      "dateFormat",
      "email",
      "roles",
      "smartClipboard",
      "timeFormat",
      "timezone",
    ]);
    assert.equal("password" in answer.body, false);
    const cookie = answer.headers.getSetCookie().find((c) =>
      c.startsWith("session=")
    )!;
    assert.match(
      cookie,
      /^session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Lax; Path=\/$/,
    );
    const me = await ask(app, "/auth/me", { cookie: cookieOf(answer) });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, user);
  },
);

authTest(
  "login: unknown email and wrong password answer the same 401",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const wrong = await send(app, "/auth/login", {
      json: { email: ADMIN.email, password: "not-the-password" },
    });
    const unknown = await send(app, "/auth/login", {
      json: { email: "nobody@example.com", password: "not-the-password" },
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    const [a, b] = [await wrong.text(), await unknown.text()];
    assert.equal(a, b);
    assert.deepEqual(JSON.parse(a), {
      statusCode: 401,
      message: "Invalid email or password",
    });
    assert.equal(wrong.headers.get("set-cookie"), null);
    assert.equal(unknown.headers.get("set-cookie"), null);
    // Only the install's session exists.
    assert.equal(await sessionCount(app), 1);
  },
);

authTest(
  "login: remember sets Max-Age and the long lifetime; omitted is transient",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const remembered = await ask(app, "/auth/login", {
      json: { ...ADMIN, remember: true },
    });
    const transient = await ask(app, "/auth/login", { json: ADMIN });
    const explicit = await ask(app, "/auth/login", {
      json: { ...ADMIN, remember: false },
    });
    assert.match(
      remembered.headers.getSetCookie()[0],
      /; Max-Age=2592000$/,
    );
    assert.doesNotMatch(transient.headers.getSetCookie()[0], /Max-Age/);
    assert.doesNotMatch(explicit.headers.getSetCookie()[0], /Max-Age/);
    const sessions = await app.query("Sessions").order("expiresAt").findMany();
    const byUser = (cookie: string) =>
      sha256Base64Url(tokenOf(cookie)).then((hash) =>
        app.query("Sessions").where({ tokenHash: hash }).findFirst()
      );
    const long = await byUser(cookieOf(remembered)!);
    const short = await byUser(cookieOf(transient)!);
    assert.equal(long!.expiresAt, h.clock.now() + 30 * DAY);
    assert.equal(long!.remember, true);
    assert.equal(short!.expiresAt, h.clock.now() + DAY);
    assert.equal(short!.remember, false);
    assert.equal(sessions.length, 4);
  },
);

authTest(
  "login: a transient session expires after a day, a remembered one after 30",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const transient = await login(app, ADMIN.email, ADMIN.password);
    const remembered = await login(app, ADMIN.email, ADMIN.password, true);
    h.clock.advance(DAY - 1);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: transient })).status,
      200,
    );
    h.clock.advance(1);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: transient })).status,
      401,
    );
    assert.equal(
      (await ask(app, "/auth/me", { cookie: remembered })).status,
      200,
    );
    h.clock.advance(29 * DAY);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: remembered })).status,
      401,
    );
  },
);

authTest(
  "login: an expired session is deleted when presented and the request is signed out",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const cookie = await login(app, ADMIN.email, ADMIN.password);
    const before = await sessionCount(app);
    h.clock.advance(DAY);
    const answer = await ask(app, "/whoami", { cookie });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.user, null);
    assert.equal(answer.body.session, null);
    assert.equal(await sessionCount(app), before - 1);
    assert.ok(
      answer.headers.getSetCookie().includes(
        "session=; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=0",
      ),
    );
  },
);

authTest(
  "login: no session outlives auth.sessionMaxAge, transient or not",
  async (h) => {
    const app = await h.boot({
      config: {
        layers: [authLayer()],
        auth: {
          password: { cost: 1024 },
          sessionMaxAge: "2h",
          transientSessionMaxAge: "1d",
        },
      },
    });
    await install(app);
    const remembered = await ask(app, "/auth/login", {
      json: { ...ADMIN, remember: true },
    });
    assert.match(remembered.headers.getSetCookie()[0], /; Max-Age=7200$/);
    const transient = await login(app, ADMIN.email, ADMIN.password);
    h.clock.advance(2 * 3_600_000);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: cookieOf(remembered) })).status,
      401,
    );
    // The transient lifetime (1d) is capped at 2h; Bearer follows the same row.
    assert.equal(
      (await ask(app, "/auth/me", { cookie: transient })).status,
      401,
    );
    assert.equal(
      (await ask(app, "/auth/me", { bearer: tokenOf(transient) })).status,
      401,
    );
  },
);

authTest(
  "login: Bearer works without a cookie and follows the transient lifetime",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const token = tokenOf(await login(app, ADMIN.email, ADMIN.password));
    const me = await ask(app, "/auth/me", { bearer: token });
    assert.equal(me.status, 200);
    assert.equal(me.body.email, ADMIN.email);
    assert.equal(
      (await ask(app, "/auth/me", { bearer: "x".repeat(43) })).status,
      401,
    );
    h.clock.advance(DAY);
    assert.equal((await ask(app, "/auth/me", { bearer: token })).status, 401);
  },
);

authTest("login: the cookie wins over a Bearer token", async (h) => {
  const app = await h.boot();
  await install(app);
  await createUser(app, { email: "b@example.com", password: "b-password" });
  const admin = await login(app, ADMIN.email, ADMIN.password);
  const other = tokenOf(await login(app, "b@example.com", "b-password"));
  const me = await ask(app, "/auth/me", { cookie: admin, bearer: other });
  assert.equal(me.body.email, ADMIN.email);
  // A dead cookie does not fall back to the Bearer token.
  const dead = await ask(app, "/auth/me", {
    cookie: `session=${"y".repeat(43)}`,
    bearer: other,
  });
  assert.equal(dead.status, 401);
});

authTest("login: stores only the sha256 of the token", async (h) => {
  const app = await h.boot();
  await install(app);
  const token = tokenOf(await login(app, ADMIN.email, ADMIN.password));
  const rows = await app.query("Sessions").select("tokenHash").findMany();
  assert.ok(rows.every((row) => row.tokenHash !== token));
  const hash = await sha256Base64Url(token);
  assert.ok(rows.some((row) => row.tokenHash === hash));
  const found = await app.query("Sessions")
    .where({ tokenHash: await sha256Base64Url(token) }).findFirst();
  assert.ok(found);
  // A plain read never returns the hash.
  assert.equal("tokenHash" in found, false);
});

authTest(
  "login: rehashes a hash made with other parameters, without ending sessions",
  async (h) => {
    const weak = await h.boot();
    await install(weak);
    const stronger = await h.boot({
      config: { layers: [authLayer()], auth: { password: { cost: 2048 } } },
    });
    const before = await stronger.query("Users").select("password").findFirst();
    assert.match(before!.password as string, /^scrypt\$1024\$8\$1\$/);
    const older = await login(stronger, ADMIN.email, ADMIN.password);
    const after = await stronger.query("Users").select("password").findFirst();
    assert.match(after!.password as string, /^scrypt\$2048\$8\$1\$/);
    // The session opened before the rehash still works, and the password still verifies.
    assert.equal(
      (await ask(stronger, "/auth/me", { cookie: older })).status,
      200,
    );
    await login(stronger, ADMIN.email, ADMIN.password);
    const unchanged = await stronger.query("Users").select("password")
      .findFirst();
    assert.equal(unchanged!.password, after!.password);
  },
  { shared: true },
);

authTest(
  "login: body rules (4kb limit, JSON object, field types)",
  async (h) => {
    const app = await h.boot();
    await install(app);
    const big = await ask(app, "/auth/login", {
      json: { email: ADMIN.email, password: "x".repeat(5000) },
    });
    assert.equal(big.status, 413);
    assert.equal(
      (await ask(app, "/auth/login", {
        body: "nope",
        contentType: "application/json",
      }))
        .status,
      400,
    );
    assert.equal((await ask(app, "/auth/login", { json: [1] })).status, 400);
    const missing = await ask(app, "/auth/login", {
      json: { email: ADMIN.email },
    });
    assert.equal(missing.status, 422);
    assert.deepEqual(Object.keys(missing.body.data.errors), ["password"]);
    const bad = await ask(app, "/auth/login", {
      json: { ...ADMIN, remember: "yes", extra: 1 },
    });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.data.errors).sort(), [
      "extra",
      "remember",
    ]);
    assert.equal(await sessionCount(app), 1);
  },
);

authTest(
  "login: a session presented by cookie is replaced by the new one",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const fresh = await ask(app, "/auth/login", { json: ADMIN, cookie });
    assert.equal(fresh.status, 200);
    assert.equal((await ask(app, "/auth/me", { cookie })).status, 401);
    assert.equal(
      (await ask(app, "/auth/me", { cookie: cookieOf(fresh) })).status,
      200,
    );
    assert.equal(await sessionCount(app), 1);
  },
);

authTest(
  "login over plain HTTP on a non-local host warns once that the Secure cookie will be dropped",
  async (h) => {
    const app = await h.boot({
      config: {
        layers: [authLayer()],
        api: { trustProxy: ["10.0.0.1"] },
        auth: { password: { cost: 1024 } },
      },
    });
    await install(app);
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
    try {
      const login = async (
        url: string,
        ip: string,
        headers: Record<string, string> = {},
      ) => {
        const response = await app.fetch(
          new Request(url, {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify(ADMIN),
          }),
          { remoteAddr: { hostname: ip } },
        );
        await response.body?.cancel();
        assert.equal(response.status, 200);
      };
      await login("http://localhost:8000/auth/login", "192.0.2.1");
      await login("https://app.example/auth/login", "192.0.2.2");
      // Behind the trusted proxy, which received HTTPS: fine.
      await login("http://intranet.example/auth/login", "10.0.0.1", {
        "x-forwarded-for": "192.0.2.3",
        "x-forwarded-proto": "https",
      });
      assert.deepEqual(warnings, []);
      await login("http://intranet.example/auth/login", "192.0.2.4");
      await login("http://intranet.example/auth/login", "192.0.2.5");
      // The header from an untrusted client does not count.
      await login("http://other.example/auth/login", "192.0.2.6", {
        "x-forwarded-proto": "https",
      });
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.match(warnings[0], /http:\/\/intranet\.example.*HTTPS/);
      assert.match(warnings[1], /http:\/\/other\.example/);
    } finally {
      console.warn = warn;
    }
  },
);
