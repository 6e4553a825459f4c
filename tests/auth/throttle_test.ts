import assert from "node:assert/strict";
import { ADMIN, ask, AUTH_APP, authTest, install } from "./_helpers.ts";
import { serveOnSocket } from "../_helpers/socket.ts";
import { authLayer } from "../../auth/mod.ts";

const WRONG = { email: ADMIN.email, password: "wrong-password" };

authTest(
  "throttle: the 11th failed login of an address within a minute is 429",
  async (h) => {
    const app = await h.boot();
    await install(app);
    for (let i = 0; i < 10; i++) {
      h.clock.advance(1000);
      const answer = await ask(app, "/auth/login", {
        json: WRONG,
        ip: "203.0.113.9",
      });
      assert.equal(answer.status, 401, `attempt ${i + 1}`);
    }
    const limited = await ask(app, "/auth/login", {
      json: ADMIN,
      ip: "203.0.113.9",
    });
    assert.equal(limited.status, 429);
    // Failures at 1 s … 10 s: the first leaves the one-minute window at 61 s, 51 s from now.
    assert.equal(limited.headers.get("retry-after"), "51");
    assert.equal(limited.headers.get("set-cookie"), null);
    // Other addresses are not affected.
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "203.0.113.10" }))
        .status,
      200,
    );
    h.clock.advance(50_999);
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "203.0.113.9" }))
        .status,
      429,
    );
    h.clock.advance(1);
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "203.0.113.9" }))
        .status,
      200,
    );
  },
);

authTest(
  "throttle: unknown emails count as failures too; successes do not",
  async (h) => {
    const app = await h.boot();
    await install(app);
    for (let i = 0; i < 20; i++) {
      assert.equal(
        (await ask(app, "/auth/login", { json: ADMIN, ip: "198.51.100.1" }))
          .status,
        200,
      );
    }
    for (let i = 0; i < 10; i++) {
      await ask(app, "/auth/login", {
        json: { email: `ghost${i}@example.com`, password: "whatever1" },
        ip: "198.51.100.1",
      });
    }
    const limited = await ask(app, "/auth/login", {
      json: ADMIN,
      ip: "198.51.100.1",
    });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "60");
  },
);

authTest(
  "throttle: one password check in flight per address; a concurrent one is 503",
  async (h) => {
    const app = await h.boot({
      config: {
        layers: [authLayer()],
        // A slower hash keeps the first check in flight while the others arrive.
        auth: { password: { cost: 16384 } },
      },
    });
    await install(app);
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        ask(app, "/auth/login", { json: ADMIN, ip: "192.0.2.50" })
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.includes(200), statuses.join());
    assert.ok(statuses.includes(503), statuses.join());
    for (const answer of answers.filter((a) => a.status === 503)) {
      assert.equal(answer.headers.get("retry-after"), "1");
    }
    // The lease is released: the next login goes through.
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "192.0.2.50" })).status,
      200,
    );
    // Different addresses do not wait on each other.
    const parallel = await Promise.all(
      ["192.0.2.51", "192.0.2.52", "192.0.2.53"].map((ip) =>
        ask(app, "/auth/login", { json: ADMIN, ip })
      ),
    );
    assert.deepEqual(parallel.map((a) => a.status), [200, 200, 200]);
  },
);

authTest("throttle: auth.loginRateLimit false turns it off", async (h) => {
  const app = await h.boot({
    config: {
      layers: [authLayer()],
      auth: { password: { cost: 1024 }, loginRateLimit: false },
    },
  });
  await install(app);
  for (let i = 0; i < 15; i++) {
    assert.equal(
      (await ask(app, "/auth/login", { json: WRONG, ip: "203.0.113.1" }))
        .status,
      401,
    );
  }
  assert.equal(
    (await ask(app, "/auth/login", { json: ADMIN, ip: "203.0.113.1" })).status,
    200,
  );
});

authTest("throttle: limits are configurable", async (h) => {
  const app = await h.boot({
    config: {
      layers: [authLayer()],
      auth: {
        password: { cost: 1024 },
        loginRateLimit: { maxFailures: 2, window: "10s" },
      },
    },
  });
  await install(app);
  await ask(app, "/auth/login", { json: WRONG });
  await ask(app, "/auth/login", { json: WRONG });
  const limited = await ask(app, "/auth/login", { json: ADMIN });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "10");
  h.clock.advance(10_000);
  assert.equal((await ask(app, "/auth/login", { json: ADMIN })).status, 200);
});

authTest("throttle: holds across two instances on one database", async (h) => {
  const one = await h.boot();
  const two = await h.boot();
  await install(one);
  for (let i = 0; i < 5; i++) {
    assert.equal(
      (await ask(one, "/auth/login", { json: WRONG, ip: "203.0.113.77" }))
        .status,
      401,
    );
    assert.equal(
      (await ask(two, "/auth/login", { json: WRONG, ip: "203.0.113.77" }))
        .status,
      401,
    );
  }
  assert.equal(
    (await ask(one, "/auth/login", { json: ADMIN, ip: "203.0.113.77" })).status,
    429,
  );
  assert.equal(
    (await ask(two, "/auth/login", { json: ADMIN, ip: "203.0.113.77" })).status,
    429,
  );
  // The account's failures are shared too: ten more, each from another address, half through
  // each instance, make 20 (neither instance saw 20 itself).
  for (let i = 0; i < 10; i++) {
    const app = i % 2 === 0 ? one : two;
    assert.equal(
      (await ask(app, "/auth/login", {
        json: WRONG,
        ip: `198.51.100.${i + 1}`,
      }))
        .status,
      401,
    );
  }
  for (const app of [one, two]) {
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "192.0.2.99" })).status,
      429,
    );
  }
}, { shared: true });

authTest(
  "throttle: failures per account are limited beside those per address (429)",
  async (h) => {
    const app = await h.boot();
    await install(app);
    // 20 failures for one account, each from another address (no address reaches its limit).
    for (let i = 0; i < 20; i++) {
      h.clock.advance(1000);
      const answer = await ask(app, "/auth/login", {
        json: WRONG,
        ip: `198.51.100.${i + 1}`,
      });
      assert.equal(answer.status, 401, `attempt ${i + 1}`);
    }
    const limited = await ask(app, "/auth/login", {
      json: ADMIN,
      ip: "192.0.2.200",
    });
    assert.equal(limited.status, 429);
    // Failures at 1 s … 20 s: the first leaves the 15-minute window at 901 s.
    assert.equal(limited.headers.get("retry-after"), "881");
    // Email case does not dodge the account limit.
    const shouted = await ask(app, "/auth/login", {
      json: { ...ADMIN, email: ADMIN.email.toUpperCase() },
      ip: "192.0.2.201",
    });
    assert.equal(shouted.status, 429);
    // Another account from the same address is not affected.
    const other = await ask(app, "/auth/login", {
      json: { email: "someone@example.com", password: "x" },
      ip: "192.0.2.200",
    });
    assert.equal(other.status, 401);
    h.clock.advance(881_000);
    assert.equal(
      (await ask(app, "/auth/login", { json: ADMIN, ip: "192.0.2.200" }))
        .status,
      200,
    );
  },
);

authTest(
  "throttle: behind a trusted proxy each forwarded client has its own limit (real socket)",
  async (h) => {
    const app = await h.boot({
      config: {
        layers: [authLayer()],
        api: { trustProxy: ["127.0.0.1"] },
        auth: { password: { cost: 1024 }, loginRateLimit: { maxFailures: 2 } },
      },
    });
    await install(app);
    const served = serveOnSocket(app);
    try {
      const login = (body: unknown, headers: Record<string, string>) =>
        fetch(`${served.url}/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }).then(async (r) => (await r.body?.cancel(), r.status));
      const via = (client: string) => ({ "x-forwarded-for": client });
      assert.equal(await login(WRONG, via("203.0.113.1")), 401);
      assert.equal(await login(WRONG, via("203.0.113.1")), 401);
      assert.equal(await login(ADMIN, via("203.0.113.1")), 429);
      // Another client behind the same proxy is not locked out.
      assert.equal(await login(ADMIN, via("203.0.113.2")), 200);
      // The Forwarded header works alike.
      assert.equal(
        await login(ADMIN, { forwarded: 'for="203.0.113.3";proto=https' }),
        200,
      );
      assert.equal(
        await login(ADMIN, { forwarded: "for=203.0.113.1" }),
        429,
      );
    } finally {
      await served.close();
    }
  },
);

authTest(
  "throttle: X-Forwarded-For is ignored from hops that are not trusted",
  async (h) => {
    const config = (trustProxy: false | number | string[]) => ({
      layers: [authLayer()],
      api: { trustProxy },
      auth: { password: { cost: 1024 }, loginRateLimit: { maxFailures: 2 } },
    });
    const untrusted = await h.boot({ config: config(false) });
    await install(untrusted);
    const spoof = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });
    for (let i = 0; i < 2; i++) {
      await ask(untrusted, "/auth/login", {
        json: WRONG,
        ip: "192.0.2.50",
        headers: spoof(i),
      });
    }
    // A new forged address every time does not escape the socket address's limit.
    const forged = await ask(untrusted, "/auth/login", {
      json: ADMIN,
      ip: "192.0.2.50",
      headers: spoof(99),
    });
    assert.equal(forged.status, 429);
    // With one trusted hop, the client's own forged entry (left of the proxy's) is ignored.
    const hop = await h.boot({ config: config(1) });
    for (let i = 0; i < 2; i++) {
      await ask(hop, "/auth/login", {
        json: { ...WRONG, email: "x@example.com" },
        ip: "10.0.0.1",
        headers: { "x-forwarded-for": `198.51.100.${i}, 203.0.113.77` },
      });
    }
    const real = await ask(hop, "/auth/login", {
      json: { ...WRONG, email: "x@example.com" },
      ip: "10.0.0.1",
      headers: { "x-forwarded-for": "198.51.100.200, 203.0.113.77" },
    });
    assert.equal(real.status, 429);
  },
);

Deno.test("api.trustProxy: a bad value fails the boot naming the key", async () => {
  const { createApp } = await import("../../mod.ts");
  for (const trustProxy of [0, "yes", ["10.0.0.0/40"]]) {
    await assert.rejects(
      () =>
        createApp({
          root: AUTH_APP,
          database: ":memory:",
          config: { api: { trustProxy: trustProxy as never } },
        }),
      /api\.trustProxy/,
    );
  }
});
