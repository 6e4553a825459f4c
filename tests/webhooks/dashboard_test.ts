// The dashboard's deliveries, in Debian's Chromium: an administrator sees a failed delivery
// with a Retry button, presses it, and the delivery goes out; the button is only on
// deliveries still pending or failed. Skipped only where /usr/bin/chromium is missing.
import assert from "node:assert/strict";
import type { Browser } from "npm:playwright-core@^1.50.0";
import { createApp } from "../../mod.ts";
import {
  hasChromium,
  label,
  launchChromium,
  openPage,
  ready,
  serveOnLoopback,
} from "../dashboard/_browser.ts";
import {
  ADMIN,
  deliveries,
  eventually,
  install,
  settle,
  startReceiver,
  webhookConfig,
  WEBHOOKS_APP,
} from "./_helpers.ts";

Deno.test({
  name:
    "dashboard: deliveries are listed and a failed one is retried with its button",
  ignore: !hasChromium,
  // Chromium's pipes outlive the test's own steps by design.
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  let failing = true;
  const receiver = startReceiver(() => failing ? 500 : 200);
  const app = await createApp({
    root: WEBHOOKS_APP,
    config: webhookConfig(receiver.url),
    database: ":memory:",
  });
  const { server, origin } = serveOnLoopback(app.fetch);
  let browser: Browser | undefined;
  try {
    await install(app);
    await app.query("Orders").create({ item: "pen" });
    await settle(app);
    const [pending] = await deliveries(app);
    assert.equal(pending.status, "pending");
    assert.equal(pending.lastStatus, 500);

    browser = await launchChromium();
    const { page, problems } = await openPage(browser, 1280);
    const list = `${origin}/dashboard/collections/webhook-deliveries`;
    await page.goto(list);
    await page.waitForURL(/\/sign-in/);
    await ready(page);
    await label(page, "Email").fill(ADMIN.email);
    await label(page, "Password").fill(ADMIN.password);
    await page.getByTestId("sign-in-submit").click();
    await page.waitForURL(/\/dashboard\/collections\//);
    await page.goto(list);
    await ready(page);
    const row = page.locator(
      `[data-testid=record-row][data-uuid="${pending.UUID}"]`,
    );
    await row.waitFor();
    assert.match(await row.textContent() ?? "", /pending/);
    const retry = row.getByTestId("action-retry");
    assert.equal(await retry.textContent(), "Retry");

    failing = false;
    await retry.click();
    await eventually(
      () => receiver.received.length === 2,
      15_000,
      "the retried delivery",
    );
    await settle(app);
    assert.equal((await deliveries(app))[0].status, "delivered");
    // Reloaded, the delivered row has no Retry button any more.
    await page.reload();
    await ready(page);
    await row.waitFor();
    assert.match(await row.textContent() ?? "", /delivered/);
    assert.equal(await row.getByTestId("action-retry").count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server.shutdown();
    await app.close();
    await receiver.close();
  }
});
