// Seeded fuzzing of the auth endpoints and the Users collection routes: random and malformed
// bodies, content types, cookies, Authorization and Origin headers. Every answer must be below
// 500, and afterwards the administrator still signs in with the password the fuzz last set
// (no lost or corrupted account). Bounded in size for CI.
import assert from "node:assert/strict";
import { mulberry32, pick, type Rng } from "../_helpers/random.ts";
import { ADMIN, ask, authTest, type Call, install, send } from "./_helpers.ts";

const KEYS = [
  "email",
  "password",
  "remember",
  "roles",
  "timezone",
  "dateFormat",
  "timeFormat",
  "dashboardLanguage",
  "contentLanguage",
  "smartClipboard",
  "UUID",
  "__proto__",
  "constructor",
  "nope",
];

const STRINGS = [
  "",
  " ",
  "admin@example.com",
  " ADMIN@Example.COM ",
  "not-an-email",
  "a@b",
  "Europe/Berlin",
  "Mars/Olympus",
  "de-AT",
  "xx-INVALID-tag-",
  "admin",
  "*",
  "\u0000",
  "x\u0000",
  "admin@example.com\u0000",
  "😀".repeat(20),
  "x".repeat(300),
];

function randomValue(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (roll < 0.15) return Math.floor(rng() * 2e9) - 1e9;
  if (roll < 0.25) return pick(rng, [true, false, null, 1.5, -0, 1e308]);
  if (roll < 0.6) return pick(rng, STRINGS);
  if (roll < 0.75 && depth < 3) {
    return Array.from(
      { length: Math.floor(rng() * 4) },
      () => randomValue(rng, depth + 1),
    );
  }
  if (depth < 3) return randomObject(rng, depth + 1);
  return "leaf";
}

function randomObject(rng: Rng, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const keys = Math.floor(rng() * 4);
  for (let i = 0; i < keys; i++) {
    // defineProperty: a literal "__proto__" key, as JSON.parse makes it on the server.
    Object.defineProperty(object, pick(rng, KEYS), {
      value: randomValue(rng, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return object;
}

/** A random body: mostly JSON objects, sometimes anything else a client could send. */
function randomBody(rng: Rng): Pick<Call, "body" | "contentType"> {
  const roll = rng();
  const json = (value: unknown) => ({
    body: JSON.stringify(value),
    contentType: pick(rng, [
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "APPLICATION/JSON",
    ]),
  });
  if (roll < 0.6) return json(randomObject(rng));
  if (roll < 0.75) return json(randomValue(rng));
  if (roll < 0.85) {
    return {
      body: pick(rng, ["{", '{"email":', "nul", "[1,", "\uFEFF{}", ""]),
      contentType: "application/json",
    };
  }
  if (roll < 0.92) {
    // Past the 4kb limit of login and install, and deep nesting.
    return rng() < 0.5
      ? json({ email: "a@b.c", password: "p".repeat(20_000) })
      : { body: "[".repeat(5000), contentType: "application/json" };
  }
  return {};
}

function randomToken(rng: Rng): string {
  const alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  return Array.from({ length: 43 }, () => pick(rng, [...alphabet])).join("");
}

/** Random session headers: the real cookie, garbage, both, or a Bearer token. */
function randomCredentials(
  rng: Rng,
  cookie: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const roll = rng();
  if (roll < 0.4) headers.cookie = cookie;
  else if (roll < 0.5) headers.cookie = `session=${randomToken(rng)}`;
  else if (roll < 0.6) {
    headers.cookie = pick(rng, [
      "session=",
      "session",
      'session="' + cookie.slice(8) + '"',
      `a=b; ${cookie}; c=d`,
      "session=%zz; session=x",
      ";;;=",
    ]);
  } else if (roll < 0.7) {
    headers.authorization = pick(rng, [
      `Bearer ${cookie.slice(8)}`,
      `bearer   ${randomToken(rng)}`,
      "Bearer",
      "Basic YWRtaW46YWRtaW4=",
      `Bearer ${"x".repeat(5000)}`,
    ]);
  }
  if (rng() < 0.3) {
    headers.origin = pick(rng, [
      "http://localhost",
      "https://evil.example",
      "null",
      "not a url",
    ]);
  }
  if (rng() < 0.2) {
    headers["accept-language"] = pick(rng, ["de", "*", "zz;q=x", ",,,"]);
  }
  return headers;
}

const TARGETS: readonly [method: string, path: string][] = [
  ["POST", "/auth/login"],
  ["POST", "/auth/install"],
  ["GET", "/auth/install"],
  ["GET", "/auth/me"],
  ["PATCH", "/auth/me"],
  ["POST", "/auth/logout/others"],
  ["GET", "/collections/users"],
  ["POST", "/collections/users"],
  ["POST", "/collections/users/query"],
  ["GET", "/collections/sessions"],
  ["GET", "/dashboard/api/collections"],
];

const ROUNDS = Number(Deno.env.get("FUZZ_ROUNDS") ?? "2000");

authTest("auth fuzz: no 5xx and the administrator survives", async (h) => {
  const app = await h.boot();
  let { cookie } = await install(app);
  let password = ADMIN.password;
  const rng = mulberry32(Number(Deno.env.get("FUZZ_SEED") ?? "20261122"));
  const seen = new Set<number>();
  let created = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const [method, path] = pick(rng, TARGETS);
    const body = method === "GET" ? {} : randomBody(rng);
    const headers = randomCredentials(rng, cookie);
    const call: Call = {
      method,
      ...body,
      headers,
      // Fresh addresses now and then, so the login throttle does not answer everything.
      ip: `198.51.100.${Math.floor(rng() * 8)}`,
    };
    const response = await send(app, path, call);
    const text = await response.text();
    seen.add(response.status);
    if (path === "/collections/users" && response.status === 201) created++;
    assert.ok(
      response.status < 500,
      `${method} ${path} ${JSON.stringify(call)} → ${response.status} ${text}`,
    );
    // A password the fuzz set on the administrator's own account is now the password.
    if (
      method === "PATCH" && response.status === 200 &&
      typeof body.body === "string"
    ) {
      // The server decodes bodies as UTF-8, which drops a leading BOM.
      const sent = JSON.parse(body.body.replace(/^\uFEFF/, "")) as {
        password?: unknown;
      } | null;
      if (typeof sent?.password === "string") password = sent.password;
    }
    // Keep a live session for the next round (logout/others keeps this one alive).
    if ((await ask(app, "/auth/me", { cookie })).status !== 200) {
      const again = await ask(app, "/auth/login", {
        json: { email: ADMIN.email, password },
        ip: "203.0.113.1",
      });
      assert.equal(again.status, 200, `re-login after round ${round}`);
      cookie = again.headers.getSetCookie()[0].split(";")[0];
    }
  }
  // The fuzz reached the interesting answers, not only one kind of refusal.
  for (const status of [200, 400, 401, 403, 413, 415, 422]) {
    assert.ok(seen.has(status), `no ${status} among ${[...seen]}`);
  }
  const me = await ask(app, "/auth/me", { cookie });
  assert.equal(me.status, 200);
  assert.equal(me.body.email, ADMIN.email);
  assert.deepEqual(me.body.roles, ["admin"]);
  assert.equal(await app.query("Users").count(), 1 + created);
});

// Found by the fuzz above on PostgreSQL, which cannot bind U+0000 in text: each was a 500.
authTest(
  "auth: U+0000 in any value is refused like other bad input",
  async (h) => {
    const app = await h.boot();
    const { cookie } = await install(app);
    const nul = "x\u0000";
    const cases: [string, string, unknown, number][] = [
      ["POST", "/auth/login", {
        email: `admin@example.com${nul}`,
        password: "p",
      }, 401],
      ["POST", "/auth/login", { email: ADMIN.email, password: nul }, 401],
      ["PATCH", "/auth/me", { timeFormat: nul }, 422],
      ["PATCH", "/auth/me", { dateFormat: nul, timezone: "UTC" }, 422],
      ["POST", "/collections/users", {
        email: `a${nul}@b.co`,
        password: "long enough",
      }, 422],
      ["POST", "/collections/users/query", { where: { email: nul } }, 400],
    ];
    for (const [method, path, json, status] of cases) {
      const answer = await ask(app, path, { method, json, cookie });
      assert.equal(
        answer.status,
        status,
        `${method} ${path} ${JSON.stringify(json)}`,
      );
    }
    const me = await ask(app, "/auth/me", { cookie });
    assert.equal(me.body.timeFormat, "LTS");
  },
);
