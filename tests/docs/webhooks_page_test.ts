// docs/webhooks.md runs: its app files are written twice, as a receiving app and a sending
// app (separate folders, so each imports its own webhooks/orders.ts and config with the
// environment of its boot). The receiver serves on a real socket; the sender's webhook is
// aimed at the receiver's route, which verifies each delivery with verifyWebhook and records
// it once. Run in a subprocess with the import map `strata new --strata <checkout>` writes.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { strataImportMap } from "../../cli/import_map.ts";
import { extractSamples } from "./_samples.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PAGE = "docs/webhooks.md";

const BOOT = `
import { createApp } from "@strata/strata";
const root = import.meta.dirname!;
const receiver = await createApp({ root: root + "/receiver", database: ":memory:" });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, receiver.fetch);
const hook = "http://127.0.0.1:" + server.addr.port + "/hooks/orders";
Deno.env.set("ORDERS_WEBHOOK_URL", hook);
Deno.env.set("WEBHOOKS_PRIVATE", "1");
const sender = await createApp({ root: root + "/sender", database: ":memory:" });
const created = await sender.query("Orders").create({ item: "pen", qty: 2, internalNote: "x" });
if (!created.ok) throw new Error(JSON.stringify(created.errors));
const UUID = created.record.UUID;
await sender.query("Orders").where({ UUID }).update({ qty: 3 });
await sender.query("Orders").where({ UUID }).delete();
const deadline = Date.now() + 30_000;
let events: Record<string, unknown>[] = [];
let deliveries: Record<string, unknown>[] = [];
// The receiver records an event before it answers, and the sender marks the delivery after
// the answer: wait for both.
while (Date.now() < deadline) {
  events = await receiver.query("ReceivedEvents").order("eventId").findMany();
  deliveries = await sender.query("WebhookDeliveries").order("seq").findMany();
  if (events.length >= 3 && deliveries.every((d) => d.status === "delivered")) break;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
const forged = await fetch(hook, {
  method: "POST",
  headers: { "content-type": "application/json", "strata-signature": "t=1,v1=" + "0".repeat(64) },
  body: JSON.stringify({ id: 1, op: "create", collection: "Orders", record: null, at: 1 }),
});
await forged.body?.cancel();
await sender.close();
await server.shutdown();
await receiver.close();
console.log(JSON.stringify({
  events: events.map(({ eventId, op, item }) => ({ eventId, op, item })),
  deliveries: deliveries.map(({ seq, status, attempts, lastError }) => ({ seq, status, attempts, lastError })),
  forged: forged.status,
}));
`;

Deno.test("docs/webhooks.md: a sender's deliveries reach the page's receiver, verified", async () => {
  const text = await Deno.readTextFile(join(REPO_ROOT, PAGE));
  const files = new Map<string, string>();
  for (const sample of extractSamples(text, PAGE)) {
    const path =
      /^\/\/ ((?:api|collections|webhooks)\/\S+\.ts|strata\.config\.ts)$/
        .exec(sample.code.split("\n", 1)[0])?.[1];
    if (path) files.set(path, sample.code);
  }
  assert.deepEqual([...files.keys()].sort(), [
    "api/hooks/orders.post.ts",
    "collections/Orders.ts",
    "collections/ReceivedEvents.ts",
    "strata.config.ts",
    "webhooks/orders.ts",
  ]);
  const root = await Deno.makeTempDir({ prefix: "strata_docs_webhooks_" });
  try {
    for (const app of ["receiver", "sender"]) {
      for (const [path, code] of files) {
        await Deno.mkdir(join(root, app, path, ".."), { recursive: true });
        await Deno.writeTextFile(join(root, app, path), code);
      }
    }
    await Deno.writeTextFile(
      join(root, "deno.json"),
      JSON.stringify({ imports: strataImportMap(REPO_ROOT) }),
    );
    await Deno.writeTextFile(join(root, "boot.ts"), BOOT);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", "boot.ts"],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 0, `the page's apps did not run:\n${err}`);
    const out = new TextDecoder().decode(stdout).trim().split("\n").at(-1)!;
    const report = JSON.parse(out);
    assert.deepEqual(
      report.events.map((e: { op: string; item: string }) => [e.op, e.item]),
      [["create", "pen"], ["update", "pen"], ["delete", "pen"]],
    );
    assert.deepEqual(
      report.deliveries.map((d: { status: string }) => d.status),
      ["delivered", "delivered", "delivered"],
    );
    assert.deepEqual(
      report.events.map((e: { eventId: number }) => e.eventId),
      report.deliveries.map((d: { seq: number }) => d.seq),
    );
    assert.equal(report.forged, 400);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
