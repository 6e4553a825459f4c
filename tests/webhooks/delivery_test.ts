import assert from "node:assert/strict";
import {
  ask,
  deliveries,
  install,
  loggedSeqs,
  settle,
  startReceiver,
  webhookConfig,
  WEBHOOKS_APP,
  webhooksTest,
} from "./_helpers.ts";

webhooksTest(
  "creates, updates and deletes are POSTed signed, in seq order, with the record as stored",
  async (h) => {
    const receiver = startReceiver();
    try {
      const app = await h.boot({
        root: WEBHOOKS_APP,
        config: webhookConfig(receiver.url),
      });
      const { cookie } = await install(app);
      const customer = await ask(app, "/collections/customers", {
        cookie,
        json: { name: "Ada" },
      });
      assert.equal(customer.status, 201);
      const order = await ask(app, "/collections/orders", {
        cookie,
        json: {
          item: "pen",
          qty: 2,
          secretNote: "hidden",
          customer: customer.body.UUID,
        },
      });
      assert.equal(order.status, 201);
      const patched = await ask(app, `/collections/orders/${order.body.UUID}`, {
        method: "PATCH",
        cookie,
        json: { qty: 3 },
      });
      assert.equal(patched.status, 200);
      // Not announced: another collection.
      await ask(app, "/collections/logs", { cookie, json: { text: "x" } });
      // Trusted code announces too; the delete cascades to the order.
      await app.query("Customers").where({ UUID: customer.body.UUID }).delete();
      await settle(app);

      const seqs = await loggedSeqs(app);
      assert.equal(receiver.received.length, 5);
      assert.ok(receiver.received.every((r) => r.body !== null), "verified");
      const bodies = receiver.received.map((r) => r.body!);
      assert.deepEqual(
        bodies.map((b) => [b.collection, b.op]),
        [
          ["Customers", "create"],
          ["Orders", "create"],
          ["Orders", "update"],
          // A cascade logs the record deleted first, then what it took along.
          ["Customers", "delete"],
          ["Orders", "delete"],
        ],
      );
      // In seq order, each id a seq of the log.
      const ids = bodies.map((b) => b.id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
      assert.ok(ids.every((id) => seqs.includes(id)));
      // The record as the system reads it now: the update shows qty 3 (read at send time),
      // write-only fields never appear; a delete carries the last stored state.
      const created = bodies[1].record!;
      assert.equal(created.UUID, order.body.UUID);
      assert.equal(created.item, "pen");
      assert.equal("secretNote" in created, false);
      const deleted = bodies[4].record!;
      assert.equal(deleted.UUID, order.body.UUID);
      assert.equal(deleted.qty, 3);
      assert.equal(deleted.customer, customer.body.UUID);
      assert.equal("secretNote" in deleted, false);
      assert.deepEqual(bodies[3].record, {
        UUID: customer.body.UUID,
        name: "Ada",
        _updatedAt: bodies[3].record!._updatedAt,
      });
      for (const r of receiver.received) {
        assert.equal(r.headers.get("content-type"), "application/json");
        assert.equal(r.headers.get("strata-event-id"), String(r.body!.id));
        assert.match(
          r.headers.get("strata-signature")!,
          /^t=\d+,v1=[0-9a-f]{64}$/,
        );
        assert.equal(r.headers.get("x-test"), "yes");
        assert.equal(r.path, "/hook");
        assert.deepEqual(Object.keys(JSON.parse(r.raw)), [
          "id",
          "collection",
          "op",
          "record",
          "at",
        ]);
      }
      assert.equal(typeof bodies[0].at, "number");

      // Each is a WebhookDeliveries record, readable by an administrator.
      const list = await ask(
        app,
        "/collections/webhook-deliveries?order=seq",
        { cookie },
      );
      assert.equal(list.status, 200);
      assert.equal(list.body.length, 5);
      for (const delivery of list.body) {
        assert.equal(delivery.webhook, "orders");
        assert.equal(delivery.status, "delivered");
        assert.equal(delivery.attempts, 1);
        assert.equal(delivery.lastStatus, 200);
        assert.equal(delivery.lastError, null);
        assert.equal(delivery.nextAttemptAt, null);
        assert.equal(typeof delivery.deliveredAt, "number");
      }
      assert.deepEqual(list.body.map((d: { seq: number }) => d.seq), ids);
      // Not writable over the API; anonymous callers are refused.
      const create = await ask(app, "/collections/webhook-deliveries", {
        cookie,
        json: { webhook: "x" },
      });
      assert.equal(create.status, 404);
      assert.equal(
        (await ask(app, "/collections/webhook-deliveries")).status,
        401,
      );
      // Deliveries produce no change events of their own.
      assert.equal((await loggedSeqs(app)).length, seqs.length);
      assert.equal((await deliveries(app)).length, 5);
    } finally {
      await receiver.close();
    }
  },
);

webhooksTest(
  "changes committed while no instance sends are delivered later; without deletes announced, a record gone since is null",
  async (h) => {
    const receiver = startReceiver();
    try {
      const config = webhookConfig(receiver.url, {}, {
        ops: ["create", "update"],
      });
      const first = await h.boot({ root: WEBHOOKS_APP, config });
      await first.close();
      // Written by an instance without the webhook.
      const other = await h.boot({
        root: WEBHOOKS_APP,
        config: {
          ...config,
          layers: [config.layers![0]],
          dirs: { ...config.dirs, roles: "no-roles-here" },
        },
      });
      const kept = await other.query("Orders").create({ item: "kept" });
      const gone = await other.query("Orders").create({ item: "gone" });
      assert.ok(kept.ok && gone.ok);
      await other.query("Orders").where({ UUID: gone.record.UUID })
        .update({ qty: 5 });
      await other.query("Orders").where({ UUID: gone.record.UUID }).delete();
      await other.close();
      const app = await h.boot({ root: WEBHOOKS_APP, config });
      await settle(app);
      assert.deepEqual(
        receiver.received.map((
          r,
        ) => [r.body!.op, r.body!.record?.item ?? null]),
        [["create", "kept"], ["create", null], ["update", null]],
      );
      assert.ok(
        (await deliveries(app)).every((d) => d.status === "delivered"),
      );
    } finally {
      await receiver.close();
    }
  },
  { shared: true },
);
