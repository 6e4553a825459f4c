import assert from "node:assert/strict";
import { afterCommitRunners } from "../../app/_record_hooks.ts";
import type { App } from "../../mod.ts";
import { hook } from "../../mod.ts";
import { authLayer } from "../../auth/mod.ts";
import { hookLog } from "../fixtures/hooks_app/lib/log.ts";
import { fixture } from "../auth/_helpers.ts";
import { ask, eventsTest, eventually, install, logOf } from "./_helpers.ts";

const HOOKS_APP = fixture("hooks_app");

function reset(): void {
  const log = hookLog();
  log.before.length = 0;
  log.after.length = 0;
  log.failures.clear();
}

async function settle(...apps: App[]): Promise<void> {
  for (const app of apps) {
    await app.data.feed.settle();
    await afterCommitRunners.get(app)?.settle();
  }
}

eventsTest(
  "record:beforeWrite changes the input, sees existing and user, refuses with its HTTPError",
  async (h) => {
    reset();
    const app = await h.boot({ root: HOOKS_APP });
    const { cookie } = await install(app);
    const created = await ask(app, "/collections/orders", {
      method: "POST",
      cookie,
      json: { item: "pen", qty: 2 },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.item, "PEN");
    assert.equal(created.body.by, "admin@example.com");
    const uuid = created.body.UUID;
    // Validation runs on the changed input: "pen" * 7 upper-cased is still over 20 chars.
    const tooLong = await ask(app, `/collections/orders/${uuid}`, {
      method: "PATCH",
      cookie,
      json: { item: "x".repeat(21) },
    });
    assert.equal(tooLong.status, 422);
    assert.match(JSON.stringify(tooLong.body), /item/);
    const refused = await ask(app, "/collections/orders", {
      method: "POST",
      cookie,
      json: { item: "pen", qty: 101 },
    });
    assert.equal(refused.status, 422);
    assert.match(JSON.stringify(refused.body), /Too many/);
    await ask(app, `/collections/orders/${uuid}`, {
      method: "PATCH",
      cookie,
      json: { note: "locked" },
    });
    const locked = await ask(app, `/collections/orders/${uuid}`, {
      method: "DELETE",
      cookie,
    });
    assert.equal(locked.status, 409);
    assert.match(JSON.stringify(locked.body), /This order is locked/);
    // Trusted code runs the hooks too, without a user.
    const direct = await app.query("Orders").create({ item: "cup" });
    assert.ok(direct.ok);
    assert.equal(direct.record.by, "system");
    // Other collections are not the hook's.
    await ask(app, "/collections/logs", {
      method: "POST",
      cookie,
      json: { text: "x" },
    });
    const seen = hookLog().before;
    assert.deepEqual(seen.map((s) => [s.op, s.user]), [
      ["create", "admin@example.com"],
      ["update", "admin@example.com"],
      ["create", "admin@example.com"],
      ["update", "admin@example.com"],
      ["delete", "admin@example.com"],
      ["create", null],
    ]);
    assert.equal(seen[0].existing, null);
    assert.deepEqual(seen[1].input, { item: "x".repeat(21) });
    assert.equal((seen[1].existing as { item: string }).item, "PEN");
    assert.equal(seen[4].input, null);
    assert.equal((seen[4].existing as { note: string }).note, "locked");
    // Refused writes wrote nothing and logged nothing.
    assert.equal(await app.query("Orders").count(), 2);
    assert.deepEqual(
      (await logOf(app)).filter((e) => e.collection === "Orders").map((e) =>
        e.op
      ),
      ["create", "update", "create"],
    );
  },
);

eventsTest(
  "record:afterCommit runs once per change across instances, filtered, retried with backoff",
  async (h) => {
    reset();
    const one = await h.boot({ root: HOOKS_APP });
    const two = await h.boot({ root: HOOKS_APP });
    const { cookie } = await install(one);
    const uuids: string[] = [];
    for (const [app, item] of [[one, "a"], [two, "b"], [one, "c"]] as const) {
      const created = await ask(app, "/collections/orders", {
        method: "POST",
        cookie,
        json: { item },
      });
      assert.equal(created.status, 201);
      uuids.push(created.body.UUID);
    }
    await ask(one, "/collections/logs", {
      method: "POST",
      cookie,
      json: { text: "not an order" },
    });
    // A rolled-back create is never announced.
    await assert.rejects(two.data.transaction(async () => {
      await two.query("Orders").create({ item: "never" });
      throw new Error("rollback");
    }));
    await eventually(
      () => hookLog().after.length >= 3,
      5000,
      "three create runs",
    );
    await settle(one, two);
    const created = hookLog().after.filter((a) => a.hook === "created");
    assert.deepEqual(created.map((a) => a.uuid).sort(), [...uuids].sort());
    assert.equal(new Set(created.map((a) => a.seq)).size, 3);
    // An update fails twice: retried after retryBase, then twice that.
    await one.query("Orders").where({ UUID: uuids[0] }).update({ qty: 5 });
    await settle(one, two);
    await settle(one, two);
    const failures = hookLog().failures;
    assert.deepEqual([...failures.values()], [1]);
    h.clock.advance(29_000);
    await settle(one, two);
    assert.deepEqual([...failures.values()], [1]);
    h.clock.advance(1_000);
    await settle(one, two);
    assert.deepEqual([...failures.values()], [2]);
    h.clock.advance(59_000);
    await settle(one, two);
    assert.equal(hookLog().after.filter((a) => a.hook === "updated").length, 0);
    h.clock.advance(1_000);
    await settle(one, two);
    const updated = hookLog().after.filter((a) => a.hook === "updated");
    assert.deepEqual(updated.map((a) => a.uuid), [uuids[0]]);
    assert.equal(hookLog().after.length, 4);
  },
  { shared: true },
);

eventsTest(
  "record:afterCommit gives up after retryFor, and catches up on changes made while down",
  async (h) => {
    reset();
    const one = await h.boot({ root: HOOKS_APP });
    await install(one);
    const created = await one.query("Orders").create({ item: "a" });
    assert.ok(created.ok);
    await settle(one);
    const { UUID } = created.record;
    await one.query("Orders").where({ UUID }).update({ qty: 2 });
    await settle(one);
    assert.equal(hookLog().failures.size, 1);
    // Past retryFor (2m): the next failure is final.
    h.clock.advance(3 * 60_000);
    await settle(one);
    h.clock.advance(3 * 60_000);
    await settle(one);
    assert.deepEqual([...hookLog().failures.values()], [2]);
    assert.equal(hookLog().after.filter((a) => a.hook === "updated").length, 0);
    await one.close();
    // Written while no instance runs hooks: the next one to boot runs it.
    const two = await h.boot({
      root: HOOKS_APP,
      config: {
        layers: [authLayer()],
        auth: { password: { cost: 1024 } },
        dirs: { hooks: "no-hooks-here" },
      },
    });
    await two.query("Orders").create({ item: "late" });
    const three = await h.boot({ root: HOOKS_APP });
    await settle(two, three);
    assert.deepEqual(
      hookLog().after.filter((a) => a.hook === "created").length,
      2,
    );
  },
  { shared: true },
);

Deno.test("hook() checks a record hook's filter", () => {
  assert.throws(
    () => hook("query:filter", { ops: ["create"] }, () => {}),
    /takes no filter/,
  );
  assert.throws(
    () => hook("record:afterCommit", { ops: ["upsert" as "create"] }, () => {}),
    /ops must be a list of create, update, delete/,
  );
  assert.throws(
    () => hook("record:afterCommit", { when: 1 } as never, () => {}),
    /unknown filter key "when"/,
  );
  const registration = hook(
    "record:beforeWrite",
    { collections: ["A"] },
    () => {},
  );
  assert.deepEqual(registration.filter?.collections, ["A"]);
});
