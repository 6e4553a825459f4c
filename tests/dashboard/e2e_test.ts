// The dashboard end to end: Debian's Chromium (through playwright-core)
// against a real app (tests/fixtures/dashboard_app: the auth layer and a
// translatable Articles collection) on a fresh in-memory database. Every page
// is photographed into a folder the test prints. Skipped only where
// /usr/bin/chromium is missing; CI installs it.
import assert from "node:assert/strict";
import type { Browser, Locator, Page } from "npm:playwright-core@^1.50.0";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import {
  ADMIN,
  fixture,
  focusedTestId,
  hasChromium,
  label,
  launchChromium,
  noEnglishLeftovers,
  openPage,
  ready,
  screenshots,
  serveOnLoopback,
  tabUntil,
} from "./_browser.ts";

Deno.test({
  name: "dashboard e2e: install, sign-in, records, locales, German",
  ignore: !hasChromium,
  // Chromium's pipes and the server outlive single steps by design.
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const app = await createTestApp({ root: fixture("dashboard_app") });
  const { server, origin } = serveOnLoopback(app.fetch);
  const root = `${origin}/dashboard`;
  const articles = `${root}/collections/articles`;
  const shots = await screenshots("strata-dashboard-shots-");
  // Kept (and named) only when a step fails, so a passing run leaves no folder behind;
  // STRATA_KEEP_SHOTS=1 keeps them anyway.
  let passed = false;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const { page, problems } = await openPage(browser, 1280);

    await t.step("a fresh app opens the install page", async () => {
      await page.goto(root);
      await page.waitForURL(`${root}/install`);
      await ready(page);
      await shots.take(page, "install");
      // Keyboard: Tab from the top reaches every control of the form.
      const reached = await tabUntil(page, "brand", "install-submit");
      assert.deepEqual(reached, [
        "brand",
        "field-email",
        "field-password",
        "install-submit",
      ]);
      const outline = await page.evaluate<string>(
        "getComputedStyle(document.activeElement).outlineStyle",
      );
      assert.notEqual(outline, "none", "the focused button shows a ring");
      // The server's 422 lands beside its field.
      await label(page, "Email").fill("not-an-email");
      await label(page, "Password").fill("correct horse");
      await page.getByTestId("install-submit").click();
      await page.getByTestId("error-email").waitFor();
      assert.equal(
        await page.getByTestId("error-email").textContent(),
        "Must be a valid email address",
      );
      await shots.take(page, "install-422");
    });

    await t.step("install creates the administrator", async () => {
      await label(page, "Email").fill(ADMIN.email);
      await page.getByTestId("install-submit").click();
      await page.waitForURL(articles);
      await ready(page);
      assert.equal(
        await page.getByTestId("signed-in-as").textContent(),
        `Signed in as ${ADMIN.email}`,
      );
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "No records",
      );
      const installed = await app.request("/auth/install");
      assert.deepEqual(await installed.json(), { required: false });
      await shots.take(page, "articles-empty");
    });

    await t.step("sign out, then sign in remembered", async () => {
      await page.getByTestId("sign-out").click();
      await page.waitForURL(`${root}/sign-in`);
      await ready(page);
      assert.equal(await page.getByTestId("sign-out").count(), 0);
      await shots.take(page, "sign-in");
      await label(page, "Email").fill(ADMIN.email);
      await label(page, "Password").fill("wrong password");
      await page.getByTestId("sign-in-submit").click();
      await page.getByTestId("form-error").waitFor();
      assert.equal(
        await page.getByTestId("form-error").textContent(),
        "Invalid email or password",
      );
      await label(page, "Password").fill(ADMIN.password);
      await label(page, "Remember me").check();
      await page.getByTestId("sign-in-submit").click();
      await page.waitForURL(articles);
      await ready(page);
      const cookies = await page.context().cookies();
      const session = cookies.find((cookie) => cookie.name === "session");
      assert.ok(session, "the session cookie is set");
      assert.equal(session.httpOnly, true);
      // Remembered: a persistent cookie (a transient one has no expiry).
      const days = (session.expires * 1000 - Date.now()) / 86_400_000;
      assert.ok(days > 29 && days <= 30, `expires in ${days} days`);
    });

    await t.step("create: a 422 beside its field, then saved", async () => {
      await page.getByTestId("create-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(
        await label(dialog, "Title (en)").getAttribute("aria-required"),
        "true",
      );
      await dialog.getByTestId("save-record").click();
      await dialog.getByTestId("error-title").waitFor();
      assert.equal(
        await dialog.getByTestId("error-title").textContent(),
        "This field is required",
      );
      assert.equal(
        await label(dialog, "Title (en)").getAttribute("aria-invalid"),
        "true",
      );
      assert.equal(await focusedTestId(page), "field-title");
      await shots.take(page, "create-422");
      await label(dialog, "Title (en)").fill("Hello world");
      await label(dialog, "Summary (en)").fill("A first article");
      await label(dialog, "Views").fill("3");
      await label(dialog, "Rating").fill("4.5");
      await label(dialog, "Published").check();
      await label(dialog, "Status").selectOption("review");
      await label(dialog, "Published on").fill("2024-05-17");
      await dialog.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      assert.equal(await focusedTestId(page), "create-record");
      await createQuickly(page, "Second article");
      await createQuickly(page, "Third article");
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "3 records",
      );
      const stored = await app.query("Articles").where({
        title: "Hello world",
      }).findFirst();
      assert.ok(stored);
      assert.equal(stored.views, 3);
      assert.equal(stored.rating, 4.5);
      assert.equal(stored.published, true);
      assert.equal(stored.status, "review");
      assert.equal(stored.publishedOn, "2024-05-17");
      await shots.take(page, "articles-list");
    });

    await t.step("edit changes one value", async () => {
      const row = rowWith(page, "Hello world");
      await row.getByTestId("edit-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(await label(dialog, "Views").inputValue(), "3");
      assert.equal(
        await label(dialog, "Published on").inputValue(),
        "2024-05-17",
      );
      await label(dialog, "Views").fill("42");
      await shots.take(page, "edit-dialog");
      await dialog.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      assert.equal(
        await rowWith(page, "Hello world").locator("td.cell-integer")
          .textContent(),
        "42",
      );
    });

    await t.step("the filter narrows the table", async () => {
      await label(page, "Filter").fill("second");
      await page.getByTestId("apply-filter").click();
      await page.waitForURL(/q=second/);
      await ready(page);
      assert.deepEqual(await titles(page), ["Second article"]);
      assert.equal(await focusedTestId(page), "filter-input");
      await shots.take(page, "articles-filtered");
      await page.getByTestId("clear-filter").click();
      await page.waitForURL(articles);
      await ready(page);
      assert.equal(await page.getByTestId("record-row").count(), 3);
    });

    await t.step("the German translation is written at locale de", async () => {
      await label(page, "Locale").selectOption("de");
      await page.waitForURL(/locale=de/);
      await ready(page);
      // Nothing is translated yet: without a German title, each record is named by the
      // collection and its last change, and still links to its page.
      const untitled = await titles(page);
      assert.equal(untitled.length, 3);
      for (const title of untitled) assert.match(title, /^Articles · /);
      const hello = await uuidOf(app, "Hello world");
      await page.locator(
        `[data-testid=edit-record][data-uuid="${hello}"]`,
      ).click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(await label(dialog, "Title (de)").inputValue(), "");
      assert.equal(await label(dialog, "Views").inputValue(), "42");
      await label(dialog, "Title (de)").fill("Hallo Welt");
      await dialog.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      assert.ok((await titles(page)).includes("Hallo Welt"));
      await shots.take(page, "articles-locale-de");
      const german = await app.query("Articles").locale("de").where({
        title: "Hallo Welt",
      }).findFirst();
      assert.equal(german?.UUID, hello);
      const english = await app.query("Articles").locale("en").where({
        UUID: hello,
      }).findFirst();
      assert.equal(english?.title, "Hello world");
      assert.deepEqual(english?._translations, ["en", "de"]);
    });

    await t.step("delete asks, then removes the record", async () => {
      await page.goto(articles);
      await ready(page);
      const third = await uuidOf(app, "Third article");
      await rowWith(page, "Third article").getByTestId("delete-record")
        .click();
      await page.getByTestId("confirm-dialog").waitFor();
      await shots.take(page, "confirm-delete");
      await page.getByTestId("confirm-delete").click();
      await page.getByTestId("confirm-dialog").waitFor({ state: "detached" });
      await page.getByText("2 records").waitFor();
      assert.deepEqual((await titles(page)).sort(), [
        "Hello world",
        "Second article",
      ]);
      assert.equal(
        await app.query("Articles").where({ UUID: third }).count(),
        0,
      );
    });

    await t.step("the Users collection lists the administrator", async () => {
      await page.getByTestId("collection-link-users").click();
      await page.waitForURL(`${root}/collections/users`);
      await ready(page);
      const headers = await page.locator("[data-testid=records-table] th")
        .allTextContents();
      assert.ok(headers.includes("Email"));
      assert.ok(!headers.includes("Password"), "write-only stays hidden");
      assert.equal(await page.getByTestId("record-row").count(), 1);
      await shots.take(page, "users");
    });

    await t.step(
      "the account page switches the dashboard to German",
      async () => {
        await page.getByTestId("nav-account").click();
        await page.waitForURL(`${root}/account`);
        await ready(page);
        await shots.take(page, "account");
        await label(page, "Language").selectOption("de");
        await page.getByTestId("save-account").click();
        await page.getByTestId("sign-out").getByText("Abmelden").waitFor();
        assert.equal(await page.getAttribute("html", "lang"), "de");
        assert.equal(
          await page.getByTestId("saved-status").textContent(),
          "Gespeichert",
        );
        assert.equal(await label(page, "Sprache").inputValue(), "de");
        await shots.take(page, "account-de");
        await noEnglishLeftovers(page, app);
      },
    );

    await t.step("the dashboard speaks German throughout", async () => {
      await page.getByTestId("nav-collections").click();
      await page.waitForURL(articles);
      await ready(page);
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "2 Datensätze",
      );
      assert.equal(
        await page.getByTestId("create-record").textContent(),
        "Erstellen",
      );
      assert.equal(
        await page.getByTestId("collection-nav").locator("h2").textContent(),
        "Sammlungen",
      );
      await noEnglishLeftovers(page, app);
      await shots.take(page, "articles-de");
      // The server's 422 follows the dashboard language, not the browser's.
      await page.getByTestId("create-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      await dialog.getByTestId("save-record").click();
      await dialog.getByTestId("error-title").waitFor();
      assert.equal(
        await dialog.getByTestId("error-title").textContent(),
        "Dieses Feld ist erforderlich",
      );
      await noEnglishLeftovers(page, app);
      await shots.take(page, "create-422-de");
      await dialog.getByTestId("cancel-record").click();
      await dialog.waitFor({ state: "detached" });
    });

    await t.step("keyboard reaches the main controls", async () => {
      const reached = await tabUntil(page, "brand", "edit-record");
      for (
        const testid of [
          "nav-collections",
          "nav-account",
          "sign-out",
          "collection-link-articles",
          "filter-input",
          "apply-filter",
          "locale-select",
          "create-record",
          "edit-record",
        ]
      ) {
        assert.ok(reached.includes(testid), `Tab reaches ${testid}`);
      }
    });

    await t.step("a 375 px screen needs no sideways scrolling", async () => {
      await page.setViewportSize({ width: 375, height: 740 });
      for (
        const [path, name] of [
          ["/collections/articles", "phone-articles"],
          ["/account", "phone-account"],
          ["/collections/users", "phone-users"],
        ]
      ) {
        await page.goto(root + path);
        await ready(page);
        const width = await page.evaluate<number>(
          "document.documentElement.scrollWidth",
        );
        assert.ok(width <= 375, `${path} is ${width} px wide`);
        await shots.take(page, name);
      }
      await page.goto(articles);
      await ready(page);
      assert.ok(await page.getByTestId("create-record").isVisible());
      await page.getByTestId("create-record").click();
      await page.getByTestId("record-dialog").waitFor();
      const width = await page.evaluate<number>(
        "document.documentElement.scrollWidth",
      );
      assert.ok(width <= 375, `the record dialog is ${width} px wide`);
      await shots.take(page, "phone-create-dialog");
    });

    assert.deepEqual(problems, []);
    passed = true;
  } finally {
    await browser?.close();
    await server.shutdown();
    await app.close();
    if (passed && Deno.env.get("STRATA_KEEP_SHOTS") !== "1") {
      await Deno.remove(shots.dir, { recursive: true });
    } else console.log(`Dashboard screenshots: ${shots.dir}`);
  }
});

async function uuidOf(app: TestApp, title: string): Promise<string> {
  const found = await app.query("Articles").locale("en").where({ title })
    .findFirst();
  assert.ok(found, `${title} exists`);
  return String(found.UUID);
}

function rowWith(page: Page, text: string): Locator {
  return page.locator("[data-testid=record-row]", { hasText: text });
}

/** The title column (the first) of every row. */
async function titles(page: Page): Promise<string[]> {
  return await page.locator("[data-testid=record-row] td:first-child")
    .allTextContents();
}

async function createQuickly(page: Page, title: string): Promise<void> {
  await page.getByTestId("create-record").click();
  const dialog = page.getByTestId("record-dialog");
  await dialog.waitFor();
  await dialog.getByRole("textbox").first().fill(title);
  await dialog.getByRole("textbox").first().press("Enter");
  await dialog.waitFor({ state: "detached" });
  await ready(page);
}
