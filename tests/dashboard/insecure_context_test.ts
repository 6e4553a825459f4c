// Over plain HTTP on a host other than localhost the browser drops the Secure session cookie
// and a sign-in would seem to bounce: the sign-in page says why. The page is made an insecure
// context by overriding `window.isSecureContext` (a real one needs a non-loopback origin); a
// sign-in whose cookie the browser refused says so.
import assert from "node:assert/strict";
import type { Browser } from "npm:playwright-core@^1.50.0";
import { createTestApp } from "../../testing/mod.ts";
import {
  fixture,
  hasChromium,
  launchChromium,
  openPage,
  ready,
  serveOnLoopback,
} from "./_browser.ts";

Deno.test({
  name:
    "dashboard: the sign-in page explains why an insecure context cannot sign in",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const app = await createTestApp({ root: fixture("dashboard_app") });
  const { server, origin } = serveOnLoopback(app.fetch);
  let browser: Browser | undefined;
  try {
    await app.request("/auth/install", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@example.com", password: "long enough" }),
    });
    browser = await launchChromium();
    const secure = await openPage(browser, 1024);
    await secure.page.goto(`${origin}/dashboard/sign-in`);
    await ready(secure.page);
    assert.equal(await secure.page.getByTestId("insecure-context").count(), 0);
    const insecure = await openPage(browser, 1024);
    await insecure.page.addInitScript(
      "Object.defineProperty(window, 'isSecureContext', { value: false })",
    );
    await insecure.page.goto(`${origin}/dashboard/sign-in`);
    await ready(insecure.page);
    const text = await insecure.page.getByTestId("insecure-context")
      .textContent();
    assert.match(text ?? "", /HTTPS/);
    assert.match(text ?? "", /localhost/);

    // The sign-in succeeds but the browser keeps no cookie (here: the answer's Set-Cookie is
    // taken away, as a browser does on plain HTTP): the page says why instead of bouncing.
    const refused = await openPage(browser, 1024);
    await refused.page.route("**/auth/login", async (route) => {
      const response = await route.fetch();
      // route.fetch keeps the cookie in the context's jar: drop it again.
      await refused.page.context().clearCookies();
      const headers = { ...response.headers() };
      delete headers["set-cookie"];
      await route.fulfill({ response, headers });
    });
    await refused.page.goto(`${origin}/dashboard/sign-in`);
    await ready(refused.page);
    await refused.page.locator("input[type=email]").fill("a@example.com");
    await refused.page.locator("input[type=password]").fill("long enough");
    await refused.page.getByTestId("sign-in-submit").click();
    await refused.page.getByTestId("form-error").waitFor();
    const message = await refused.page.getByTestId("form-error").textContent();
    assert.match(message ?? "", /refused the session cookie/);
    assert.match(message ?? "", /HTTPS/);
    assert.ok(refused.page.url().endsWith("/dashboard/sign-in"));
    assert.equal((await refused.page.context().cookies()).length, 0);
  } finally {
    await browser?.close();
    await server.shutdown();
    await app.close();
  }
});
