import assert from "node:assert/strict";
import { defineWebhook } from "../../mod.ts";
import {
  ask,
  createUser,
  deliveries,
  type DeliveryRecord,
  install,
  login,
  SECRET,
  settle,
  startReceiver,
  webhookConfig,
  WEBHOOKS_APP,
  webhooksTest,
} from "./_helpers.ts";

const BASE = 30_000;

webhooksTest(
  "a failing delivery is retried with growing gaps, does not hold back later ones, fails after retryFor, and can be retried by hand",
  async (h) => {
    let fixed = false;
    const receiver = startReceiver((_, body) =>
      body?.record?.item === "bad" && !fixed ? 500 : 200
    );
    try {
      const app = await h.boot({
        root: WEBHOOKS_APP,
        config: webhookConfig(receiver.url, {
          retryBase: "30s",
          retryFor: "10m",
        }),
      });
      const { cookie } = await install(app);
      await app.query("Orders").create({ item: "bad" });
      await app.query("Orders").create({ item: "good" });
      await settle(app);
      const byItem = async () => {
        const [bad, good] = await deliveries(app);
        return { bad, good };
      };
      let { bad, good } = await byItem();
      assert.equal(good.status, "delivered");
      assert.equal(bad.status, "pending");
      assert.equal(bad.attempts, 1);
      assert.equal(bad.lastStatus, 500);
      assert.equal(bad.lastError, "The receiver answered 500");
      // The later delivery went out although the earlier one failed.
      assert.deepEqual(
        receiver.received.map((r) => r.body!.record!.item),
        ["bad", "good"],
      );

      // Each wait is retryBase doubling per failure, jittered into its upper half.
      const gaps: number[] = [];
      let attemptAt = h.clock.now();
      while (bad.status === "pending") {
        const gap = bad.nextAttemptAt! - attemptAt;
        const full = Math.min(BASE * 2 ** (bad.attempts - 1), 3_600_000);
        assert.ok(
          gap >= full / 2 && gap <= full,
          `gap ${gap} after ${bad.attempts} attempts outside [${
            full / 2
          }, ${full}]`,
        );
        gaps.push(gap);
        // Not yet due: nothing is sent.
        h.clock.advance(gap - 1);
        await settle(app);
        assert.equal((await byItem()).bad.attempts, bad.attempts);
        h.clock.advance(1);
        attemptAt = h.clock.now();
        await settle(app);
        const next: DeliveryRecord = (await byItem()).bad;
        assert.equal(next.attempts, bad.attempts + 1);
        bad = next;
      }
      assert.ok(gaps.length >= 3, `only ${gaps.length} retries`);
      for (let i = 1; i < gaps.length; i++) {
        assert.ok(gaps[i] >= gaps[i - 1], `gaps shrink: ${gaps}`);
      }
      // Given up once retryFor (10m) has passed since the change.
      assert.equal(bad.status, "failed");
      assert.ok(attemptAt - bad.at >= 600_000);
      assert.ok(attemptAt - bad.at - gaps[gaps.length - 1] < 600_000);
      assert.equal(bad.nextAttemptAt, null);
      assert.equal(bad.lastStatus, 500);
      const sent = receiver.received.length;
      h.clock.advance(3_600_000);
      await settle(app);
      assert.equal(receiver.received.length, sent);

      // The retry route: guarded like the collection, then the record, then its state.
      const path = `/collections/webhook-deliveries/${bad.UUID}/retry`;
      assert.equal((await ask(app, path, { method: "POST" })).status, 401);
      await createUser(app, {
        email: "clerk@example.com",
        password: "clerk-password-1",
        roles: ["clerk"],
      });
      const clerk = await login(app, "clerk@example.com", "clerk-password-1");
      // The dashboard lists deliveries; its retry button is for those who may retry.
      const forAdmin = await ask(app, "/dashboard/api/collections", { cookie });
      const entry = (
        body: { name: string; actions: unknown }[],
        name: string,
      ) => body.find((collection) => collection.name === name)!;
      assert.deepEqual(entry(forAdmin.body, "WebhookDeliveries").actions, [{
        name: "retry",
        label: "retry",
        when: { field: "status", values: ["pending", "failed"] },
      }]);
      assert.deepEqual(entry(forAdmin.body, "Orders").actions, []);
      const forClerk = await ask(app, "/dashboard/api/collections", {
        cookie: clerk,
      });
      assert.deepEqual(entry(forClerk.body, "WebhookDeliveries").actions, []);
      assert.equal(
        (await ask(app, path, { method: "POST", cookie: clerk })).status,
        403,
      );
      assert.equal(
        (await ask(
          app,
          "/collections/webhook-deliveries/not-a-uuid/retry",
          { method: "POST", cookie },
        )).status,
        404,
      );
      assert.equal(
        (await ask(
          app,
          `/collections/webhook-deliveries/${crypto.randomUUID()}/retry`,
          { method: "POST", cookie },
        )).status,
        404,
      );
      const withParam = await ask(app, `${path}?now=1`, {
        method: "POST",
        cookie,
      });
      assert.equal(withParam.status, 400);
      assert.equal(withParam.body.data.code, "unknownParam");
      fixed = true;
      const retried = await ask(app, path, { method: "POST", cookie });
      assert.equal(retried.status, 200);
      assert.equal(retried.body.UUID, bad.UUID);
      assert.equal(retried.body.status, "pending");
      assert.equal(retried.body.nextAttemptAt, h.clock.now());
      await settle(app);
      ({ bad, good } = await byItem());
      assert.equal(bad.status, "delivered");
      assert.equal(bad.lastStatus, 200);
      assert.equal(bad.lastError, null);
      assert.equal(receiver.received.at(-1)!.body!.id, bad.seq);
      const again = await ask(app, path, { method: "POST", cookie });
      assert.equal(again.status, 409);
      // A pending delivery can be made due at once too.
      assert.equal(good.status, "delivered");
    } finally {
      await receiver.close();
    }
  },
);

webhooksTest(
  "SSRF: private and loopback targets are refused on the resolved address; redirects and timeouts are failed attempts",
  async (h) => {
    const receiver = startReceiver((n) =>
      n === 1
        ? new Response(null, {
          status: 302,
          headers: { location: "/elsewhere" },
        })
        : new Promise<number>(() => {}) // never answers
    );
    try {
      const more = {
        byname: defineWebhook({
          url: `http://localhost:${receiver.port}/hook`,
          collections: ["Orders"],
          secret: SECRET,
        }),
      };
      const refusing = await h.boot({
        root: WEBHOOKS_APP,
        config: webhookConfig(receiver.url, {
          allowPrivateNetworks: false,
        }, { more }),
      });
      await refusing.query("Orders").create({ item: "x" });
      await settle(refusing);
      const refused = await deliveries(refusing);
      assert.equal(refused.length, 2);
      for (const delivery of refused) {
        assert.equal(delivery.status, "pending");
        assert.equal(delivery.attempts, 1);
        assert.equal(delivery.lastStatus, null);
        assert.match(
          delivery.lastError!,
          /^Refused: (127\.0\.0\.1|localhost) resolves to a non-public address \((127\.0\.0\.1|::1)\); set webhooks\.allowPrivateNetworks/,
        );
      }
      assert.equal(receiver.received.length, 0);
      await refusing.close();

      // http: needs allowInsecure, checked at boot.
      await assert.rejects(
        h.boot({
          root: WEBHOOKS_APP,
          config: webhookConfig(receiver.url, { allowInsecure: false }),
        }),
        /Webhook orders: http:\/\/127\.0\.0\.1:\d+\/hook is not https: \(set webhooks\.allowInsecure/,
      );

      const app = await h.boot({
        root: WEBHOOKS_APP,
        // Long enough for the redirect's immediate answer under any load.
        config: webhookConfig(receiver.url, {
          timeout: "3s",
          claimTtl: "6s",
        }),
      });
      await app.query("Orders").create({ item: "redirected" });
      await app.query("Orders").create({ item: "unanswered" });
      await settle(app);
      const [redirected, unanswered] = (await deliveries(app)).slice(-2);
      assert.equal(redirected.status, "pending");
      assert.equal(redirected.lastStatus, 302);
      assert.match(
        redirected.lastError!,
        /^The receiver redirected \(302 to \/elsewhere\); redirects are not followed$/,
      );
      assert.equal(unanswered.status, "pending");
      assert.equal(unanswered.lastStatus, null);
      assert.equal(unanswered.lastError, "No answer within 3000 ms");
      // The redirect's target was never asked.
      assert.deepEqual(receiver.received.map((r) => r.path), [
        "/hook",
        "/hook",
      ]);
    } finally {
      await receiver.close();
    }
  },
);
