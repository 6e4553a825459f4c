// The account flows of the dashboard walked in Debian's Chromium: sign-up → the verification
// link from the captured mail → sign-in; forgot → reset; two-factor setup (QR code drawn in
// the page) → sign-in with a code computed here; API tokens created and revoked.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import type { Browser, Page } from "npm:playwright-core@^1.50.0";
import { createTestApp } from "../../testing/mod.ts";
import { authLayer } from "../../auth/mod.ts";
import { decodeBase32 } from "../../auth/totp.ts";
import {
  fixture,
  hasChromium,
  label,
  launchChromium,
  openPage,
  ready,
  serveOnLoopback,
} from "./_browser.ts";

const ADMIN = { email: "admin@example.com", password: "admin-password-1" };
const USER = { email: "ada@example.com", password: "violet-anchor-47" };

/** RFC 6238 written out here: the 6-digit SHA-1 code of `secret` at `seconds`. */
function totp(secret: string, seconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(seconds / 30)));
  const mac = createHmac("sha1", decodeBase32(secret)!).update(counter)
    .digest();
  const offset = mac[mac.length - 1] & 15;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString()
    .padStart(6, "0");
}

async function signIn(page: Page, root: string, password: string) {
  await page.goto(`${root}/sign-in`);
  await ready(page);
  await label(page, "Email").fill(USER.email);
  await label(page, "Password").fill(password);
  await page.getByTestId("sign-in-submit").click();
}

Deno.test({
  name:
    "dashboard accounts: sign-up and verify, forgot and reset, two-factor, API tokens",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const app = await createTestApp({
    root: fixture("dashboard_app"),
    config: {
      layers: [authLayer()],
      auth: {
        password: { cost: 1024 },
        signup: { requireVerifiedEmail: true },
      },
      collections: { locales: ["en", "de"], defaultLocale: "en" },
    },
  });
  const { server, origin } = serveOnLoopback(app.fetch);
  const root = `${origin}/dashboard`;
  const log = console.log;
  console.log = () => {}; // the log transport prints every mail
  const link = async (page: string) => {
    await app.mail.settle();
    const mail = [...app.mail.sent].reverse().find((m) =>
      m.to.includes(USER.email)
    );
    const match = new RegExp(`${origin}/dashboard/${page}\\?token=[\\w-]+`)
      .exec(mail?.text ?? "");
    assert.ok(match, `no ${page} link in ${mail?.text}`);
    return match[0];
  };
  let browser: Browser | undefined;
  try {
    const installed = await app.request("/auth/install", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    assert.equal(installed.status, 200);
    browser = await launchChromium();
    const { page, problems } = await openPage(browser, 1280);

    await t.step(
      "sign-up, then the verification link, then sign-in",
      async () => {
        await page.goto(`${root}/sign-in`);
        await ready(page);
        await page.getByTestId("to-sign-up").click();
        await page.waitForURL(`${root}/sign-up`);
        await ready(page);
        await label(page, "Email").fill(USER.email);
        await label(page, "Password").fill(USER.password);
        await page.getByTestId("sign-up-submit").click();
        await page.getByTestId("sign-up-done").waitFor();
        // Not verified yet: sign-in is refused with the server's message, and the link
        // can be sent again.
        await signIn(page, root, USER.password);
        await page.getByTestId("form-error").waitFor();
        await page.getByTestId("resend-verification").click();
        await page.getByTestId("verification-sent").waitFor();
        await app.mail.settle();
        assert.equal(
          app.mail.sent.filter((m) => m.to.includes(USER.email)).length,
          2,
        );
        await page.goto(await link("verify"));
        await page.getByTestId("verify-done").waitFor();
        await signIn(page, root, USER.password);
        await page.getByTestId("signed-in-as").waitFor();
        assert.equal(
          await page.getByTestId("signed-in-as").textContent(),
          `Signed in as ${USER.email}`,
        );
      },
    );

    await t.step("forgot password, then the reset link", async () => {
      await page.getByTestId("sign-out").click();
      await page.goto(`${root}/sign-in`);
      await ready(page);
      await page.getByTestId("to-forgot").click();
      await page.waitForURL(`${root}/forgot`);
      await ready(page);
      await label(page, "Email").fill(USER.email);
      await page.getByTestId("forgot-submit").click();
      await page.getByTestId("forgot-done").waitFor();
      await page.goto(await link("reset"));
      await ready(page);
      await label(page, "New password").fill("a-new-password-9");
      await page.getByTestId("reset-submit").click();
      await page.getByTestId("reset-done").waitFor();
      await signIn(page, root, "a-new-password-9");
      await page.getByTestId("signed-in-as").waitFor();
    });

    let secret = "";
    await t.step(
      "two-factor setup with the QR code drawn in the page",
      async () => {
        await page.goto(`${root}/account`);
        await ready(page);
        const section = page.getByTestId("totp-section");
        await label(section, "Current password").fill("a-new-password-9");
        await page.getByTestId("totp-setup-submit").click();
        await page.getByTestId("totp-qr").waitFor();
        secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
        const url = await page.getByTestId("totp-qr").getAttribute(
          "data-otpauth",
        );
        assert.equal(new URL(url!).searchParams.get("secret"), secret);
        const rects = await page.locator("[data-testid=totp-qr] path").count();
        assert.equal(rects, 1);
        await label(section, "Code").fill(totp(secret, Date.now() / 1000));
        await page.getByTestId("totp-enable-submit").click();
        await page.getByTestId("recovery-codes").waitFor();
        assert.equal(
          await page.locator("[data-testid=recovery-codes] li").count(),
          10,
        );
      },
    );

    await t.step("sign-in asks for the code and accepts one", async () => {
      await page.getByTestId("sign-out").click();
      await signIn(page, root, "a-new-password-9");
      await label(page, "Code").waitFor();
      // The next step's code: the current one was used to turn two-factor on.
      await label(page, "Code").fill(totp(secret, Date.now() / 1000 + 30));
      await page.getByTestId("sign-in-submit").click();
      await page.getByTestId("signed-in-as").waitFor();
    });

    await t.step(
      "API tokens: created, shown once, listed, revoked",
      async () => {
        await page.goto(`${root}/account`);
        await ready(page);
        const section = page.getByTestId("tokens-section");
        await label(section, "Name").fill("ci");
        await page.getByTestId("token-create-submit").click();
        await page.getByTestId("new-token").waitFor();
        const token = await page.getByTestId("new-token").textContent();
        assert.match(token ?? "", /^strata_[A-Za-z0-9_-]{43}$/);
        const me = await app.request("/auth/me", {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal((await me.json()).email, USER.email);
        // The list is fetched again after the token is shown: wait for it, then count.
        await page.getByTestId("token-item").first().waitFor();
        assert.equal(await page.getByTestId("token-item").count(), 1);
        await page.getByTestId("token-revoke").click();
        await page.getByTestId("token-item").waitFor({ state: "detached" });
        const after = await app.request("/auth/me", {
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(after.status, 401);
        await after.body?.cancel();
      },
    );
    assert.deepEqual(problems, []);
  } finally {
    console.log = log;
    await browser?.close();
    await server.shutdown();
    await app.close();
  }
});
