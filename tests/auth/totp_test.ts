// Two-factor sign-in: the TOTP implementation against the RFC 6238 test vectors (and a
// second, independent implementation written here), then the whole flow over HTTP with the
// codes computed in the test: setup, enable, sign-in with a code, each code accepted once,
// recovery codes single use, throttling of wrong codes, disable.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import {
  decodeBase32,
  encodeBase32,
  otpauthUrl,
  type TotpAlgorithm,
  totpCode,
} from "../../auth/totp.ts";
import { ask, authTest, cookieOf, install, login } from "./_helpers.ts";
import { accountsConfig } from "./_accounts.ts";

/** RFC 4226 / 6238 written out again, so the test does not check the code with itself. */
function referenceTotp(
  secret: Uint8Array,
  seconds: number,
  digits: number,
  algorithm: string,
): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = createHmac(algorithm, secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 15;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return (value % 10 ** digits).toString().padStart(digits, "0");
}

// RFC 6238 Appendix B: seeds of 20, 32 and 64 bytes for SHA1, SHA256, SHA512.
const SEEDS: Record<TotpAlgorithm, string> = {
  SHA1: "12345678901234567890",
  SHA256: "12345678901234567890123456789012",
  SHA512: "1234567890123456789012345678901234567890123456789012345678901234",
};
const VECTORS: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

Deno.test("TOTP codes match the RFC 6238 test vectors", () => {
  for (const [seconds, ...expected] of VECTORS) {
    (["SHA1", "SHA256", "SHA512"] as const).forEach((algorithm, i) => {
      const secret = new TextEncoder().encode(SEEDS[algorithm]);
      assert.equal(
        totpCode(secret, seconds * 1000, { digits: 8, algorithm }),
        expected[i],
        `${algorithm} at ${seconds}`,
      );
      assert.equal(
        referenceTotp(secret, seconds, 8, algorithm.toLowerCase()),
        expected[i],
      );
    });
  }
});

Deno.test("base32 follows RFC 4648 and otpauth URLs name issuer and account", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ];
  for (const [plain, encoded] of vectors) {
    assert.equal(encodeBase32(new TextEncoder().encode(plain)), encoded);
    assert.equal(new TextDecoder().decode(decodeBase32(encoded)!), plain);
  }
  assert.equal(decodeBase32("not base32!"), null);
  const url = new URL(
    otpauthUrl("JBSWY3DPEHPK3PXP", "ada@example.com", "x.test"),
  );
  assert.equal(url.protocol, "otpauth:");
  assert.equal(url.host, "totp");
  assert.equal(decodeURIComponent(url.pathname), "/x.test:ada@example.com");
  assert.equal(url.searchParams.get("secret"), "JBSWY3DPEHPK3PXP");
  assert.equal(url.searchParams.get("issuer"), "x.test");
});

const PASSWORD = "admin-password";

authTest(
  "two-factor sign-in: setup, enable, a code per step, recovery codes, disable",
  async (h) => {
    const app = await h.boot({ config: accountsConfig() });
    const { cookie } = await install(app);
    const code = (offset = 0) =>
      referenceTotp(
        decodeBase32(secret)!,
        Math.floor(h.clock.now() / 1000) + offset,
        6,
        "sha1",
      );
    assert.deepEqual((await ask(app, "/auth/totp", { cookie })).body, {
      enabled: false,
    });
    const wrongPassword = await ask(app, "/auth/totp/setup", {
      json: { password: "nope-nope-nope" },
      cookie,
    });
    assert.equal(wrongPassword.status, 422);
    const setup = await ask(app, "/auth/totp/setup", {
      json: { password: PASSWORD },
      cookie,
    });
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const secret: string = setup.body.secret;
    assert.match(secret, /^[A-Z2-7]{32}$/);
    const url = new URL(setup.body.otpauthUrl);
    assert.equal(url.searchParams.get("secret"), secret);
    assert.match(decodeURIComponent(url.pathname), /admin@example\.com$/);
    // Not on until confirmed: sign-in needs no code yet.
    await login(app, "admin@example.com", PASSWORD);
    const bad = await ask(app, "/auth/totp/enable", {
      json: { code: code() === "000000" ? "111111" : "000000" },
      cookie,
    });
    assert.equal(bad.status, 422);
    const enabled = await ask(app, "/auth/totp/enable", {
      json: { code: code() },
      cookie,
    });
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    const recovery: string[] = enabled.body.recoveryCodes;
    assert.equal(recovery.length, 10);
    assert.equal(new Set(recovery).size, 10);
    assert.deepEqual((await ask(app, "/auth/totp", { cookie })).body, {
      enabled: true,
    });
    // A second setup while on is a conflict.
    const again = await ask(app, "/auth/totp/setup", {
      json: { password: PASSWORD },
      cookie,
    });
    assert.equal(again.status, 409);
    const credentials = { email: "admin@example.com", password: PASSWORD };
    // The password alone: 401 totpRequired, no session.
    const needed = await ask(app, "/auth/login", { json: credentials });
    assert.equal(needed.status, 401);
    assert.equal(needed.body.data.code, "totpRequired");
    assert.equal(cookieOf(needed), undefined);
    // The enabling code is used: the same step is refused.
    const replay = await ask(app, "/auth/login", {
      json: { ...credentials, totp: code() },
    });
    assert.equal(replay.status, 401);
    assert.equal(replay.body.data.code, "invalidTotp");
    // The next step's code signs in once; the previous step's is older than the last used.
    h.clock.advance(30_000);
    const current = code();
    const signedIn = await ask(app, "/auth/login", {
      json: { ...credentials, totp: current },
    });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.ok(cookieOf(signedIn));
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, totp: current },
      })).status,
      401,
    );
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, totp: code(-30) },
      })).status,
      401,
    );
    // A code of the next step (clock skew) is accepted, and then the current one is older.
    const ahead = await ask(app, "/auth/login", {
      json: { ...credentials, totp: code(30) },
    });
    assert.equal(ahead.status, 200);
    h.clock.advance(30_000);
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, totp: code() },
      })).status,
      401,
    );
    h.clock.advance(30_000);
    // A wrong password with a right code is still the usual 401.
    const wrong = await ask(app, "/auth/login", {
      json: { ...credentials, password: "not-the-password", totp: code() },
    });
    assert.equal(wrong.body.data?.code, undefined);
    // Recovery codes: each once, typed in any case and with or without dashes.
    const first = recovery[0].toUpperCase().replaceAll("-", "");
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, recoveryCode: first },
      })).status,
      200,
    );
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, recoveryCode: recovery[0] },
      })).status,
      401,
    );
    // Disable: password and a code (here a recovery code).
    const offWrong = await ask(app, "/auth/totp/disable", {
      json: {
        password: PASSWORD,
        code: "000000" === code() ? "111111" : "000000",
      },
      cookie,
    });
    assert.equal(offWrong.status, 422);
    const off = await ask(app, "/auth/totp/disable", {
      json: { password: PASSWORD, code: recovery[1] },
      cookie,
    });
    assert.deepEqual(off.body, { ok: true });
    await login(app, "admin@example.com", PASSWORD);
    assert.equal(
      (await ask(app, "/auth/login", {
        json: { ...credentials, recoveryCode: recovery[2] },
      })).status,
      200,
    );
  },
);

authTest("wrong codes count toward login throttling", async (h) => {
  const app = await h.boot({
    config: accountsConfig({ loginRateLimit: { maxFailures: 3 } }),
  });
  const { cookie } = await install(app);
  const { secret } = (await ask(app, "/auth/totp/setup", {
    json: { password: PASSWORD },
    cookie,
  })).body;
  const code = () =>
    referenceTotp(
      decodeBase32(secret)!,
      Math.floor(h.clock.now() / 1000),
      6,
      "sha1",
    );
  await ask(app, "/auth/totp/enable", { json: { code: code() }, cookie });
  h.clock.advance(30_000);
  const credentials = { email: "admin@example.com", password: PASSWORD };
  // Asking for the code is not a failure.
  for (let i = 0; i < 4; i++) {
    assert.equal(
      (await ask(app, "/auth/login", { json: credentials })).body.data.code,
      "totpRequired",
    );
  }
  const wrong = code() === "123456" ? "654321" : "123456";
  for (let i = 0; i < 3; i++) {
    const answer = await ask(app, "/auth/login", {
      json: { ...credentials, totp: wrong },
    });
    assert.equal(answer.status, 401);
  }
  const limited = await ask(app, "/auth/login", {
    json: { ...credentials, totp: code() },
  });
  assert.equal(limited.status, 429);
  assert.ok(Number(limited.headers.get("retry-after")) >= 1);
});

authTest("two-factor settings need a session, not an API token", async (h) => {
  const app = await h.boot({ config: accountsConfig() });
  const { cookie } = await install(app);
  const { token } =
    (await ask(app, "/auth/tokens", { json: { name: "t" }, cookie })).body;
  const answer = await ask(app, "/auth/totp/setup", {
    json: { password: PASSWORD },
    bearer: token,
  });
  assert.equal(answer.status, 403);
  assert.equal(
    (await ask(app, "/auth/totp/setup", { json: { password: PASSWORD } }))
      .status,
    401,
  );
  const unknown = await ask(app, "/auth/login", {
    json: { email: "admin@example.com", password: PASSWORD, totp: 123456 },
  });
  assert.equal(unknown.status, 422);
});
