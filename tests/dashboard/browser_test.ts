// The dashboard in headless Chromium against an in-memory stand-in for the
// back end (tests/dashboard/_mock_backend.ts): install, sign-in, the
// collections browser, the account page, a 375 px screen. Skipped where
// Debian's Chromium is not installed (CI installs it).
import assert from "node:assert/strict";
import {
  type Browser,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { type MockBackend, startMockBackend } from "./_mock_backend.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** Opens a page that records script errors and CSP violations. */
async function openPage(
  browser: Browser,
  width = 1200,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  // Generous: the suite runs in parallel on two cores.
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    // Failed fetches (401 from /auth/me when signed out, 422, 409) are logged
    // by the browser; they are answers the app handles, not faults.
    if (message.type() === "error" && !/status of \d{3}/.test(message.text())) {
      problems.push(message.text());
    }
  });
  return { page, problems };
}

/** The control with exactly this label. */
function label(scope: Page | Locator, text: string): Locator {
  return scope.getByLabel(text, { exact: true });
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector("html[data-state=ready]");
}

function lastRequest(backend: MockBackend, method: string, path: string) {
  const found = backend.requests.findLast((request) =>
    request.method === method && request.path === path
  );
  assert.ok(found, `${method} ${path} was requested`);
  return found;
}

// Strings, not functions: the test is type-checked without the DOM library.
function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(
    "document.activeElement && document.activeElement.getAttribute('data-testid')",
  );
}

async function rowTitles(page: Page): Promise<string[]> {
  return await page.locator("[data-testid=record-row] td:first-child")
    .allTextContents();
}

Deno.test({
  name: "the dashboard drives install, sign-in, collections and account",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const backend = startMockBackend({ base: "/api" });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const { page, problems } = await openPage(browser);
  const root = backend.origin + "/api/dashboard";
  try {
    await t.step(
      "install: required fields, 422 beside fields, success",
      async () => {
        await page.goto(root);
        await page.waitForURL(root + "/install");
        await ready(page);
        await page.getByTestId("install-submit").click();
        assert.equal(
          await page.getByTestId("error-email").textContent(),
          "This field is required",
        );
        await label(page, "Email").fill("not-an-email");
        await label(page, "Password").fill("short");
        await page.getByTestId("install-submit").click();
        await page.getByText("Must be a valid email address").waitFor();
        assert.equal(
          await page.getByTestId("error-password").textContent(),
          "Must be at least 8 characters long",
        );
        assert.equal(
          await label(page, "Email").getAttribute("aria-invalid"),
          "true",
        );
        // Sign-in sends to install while install is required.
        await page.goto(root + "/sign-in");
        await page.waitForURL(root + "/install");
        await ready(page);
        await label(page, "Email").fill("Admin@Example.com");
        await label(page, "Password").fill("correct horse");
        await page.getByTestId("install-submit").click();
        await page.waitForURL(root + "/collections/posts");
        await ready(page);
        assert.equal(
          await page.getByTestId("signed-in-as").textContent(),
          "Signed in as admin@example.com",
        );
        assert.deepEqual(lastRequest(backend, "POST", "/auth/install").body, {
          email: "Admin@Example.com",
          password: "correct horse",
        });
      },
    );

    await t.step(
      "sign-out, install closed, wrong password, sign-in",
      async () => {
        await page.getByTestId("sign-out").click();
        await page.waitForURL(root + "/sign-in");
        await ready(page);
        await page.goto(root + "/install");
        await page.waitForURL(root + "/sign-in");
        await ready(page);
        await label(page, "Email").fill("admin@example.com");
        await label(page, "Password").fill("wrong password");
        await page.getByTestId("sign-in-submit").click();
        await page.getByTestId("form-error").waitFor();
        assert.equal(
          await page.getByTestId("form-error").textContent(),
          "Invalid email or password",
        );
        await label(page, "Password").fill("correct horse");
        await label(page, "Remember me").check();
        await page.getByTestId("sign-in-submit").click();
        await page.waitForURL(root + "/collections/posts");
        await ready(page);
        assert.deepEqual(lastRequest(backend, "POST", "/auth/login").body, {
          email: "admin@example.com",
          password: "correct horse",
          remember: true,
        });
      },
    );

    await t.step("the table pages through records", async () => {
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "26 records",
      );
      assert.equal(await page.getByTestId("record-row").count(), 20);
      assert.equal(
        await page.getByTestId("page-status").textContent(),
        "Page 1 of 2",
      );
      assert.ok(await page.getByTestId("previous-page").isDisabled());
      const headers = await page.locator("[data-testid=records-table] th")
        .allTextContents();
      assert.ok(!headers.some((text) => text.includes("secret")));
      assert.equal(
        await page.locator("[data-testid=record-row] td.cell-record").first()
          .textContent(),
        "0f0e0d0c",
      );
      await page.getByTestId("next-page").click();
      await page.waitForURL(root + "/collections/posts?page=2");
      await ready(page);
      assert.equal(
        await page.getByTestId("page-status").textContent(),
        "Page 2 of 2",
      );
      assert.equal(await page.getByTestId("record-row").count(), 6);
      assert.ok(await page.getByTestId("next-page").isDisabled());
      const list = lastRequest(backend, "GET", "/collections/posts");
      assert.equal(list.query.get("page"), "2");
      assert.equal(list.query.get("perPage"), "20");
      await page.getByTestId("previous-page").click();
      await page.waitForURL(root + "/collections/posts");
      await ready(page);
    });

    await t.step("a header click sorts, a second click reverses", async () => {
      await page.getByTestId("sort-views").click();
      await page.waitForURL(/order=views/);
      await ready(page);
      assert.equal(
        await page.getByTestId("column-views").getAttribute("aria-sort"),
        "ascending",
      );
      assert.equal(
        lastRequest(backend, "GET", "/collections/posts").query.get("order"),
        '["views"]',
      );
      await page.getByTestId("sort-views").click();
      await page.waitForURL(/order=-views/);
      await ready(page);
      assert.equal(
        await page.getByTestId("column-views").getAttribute("aria-sort"),
        "descending",
      );
      assert.equal((await rowTitles(page))[0], "Post 25");
      // Focus stays on the header button for keyboard users.
      assert.equal(
        await focusedTestId(page),
        "sort-views",
      );
    });

    await t.step("the filter searches text fields; clear resets", async () => {
      await page.goto(root + "/collections/posts");
      await ready(page);
      await label(page, "Filter").fill("post 2");
      await page.getByTestId("apply-filter").click();
      await page.waitForURL(/q=post/);
      await ready(page);
      assert.deepEqual(await rowTitles(page), [
        "Post 20",
        "Post 21",
        "Post 22",
        "Post 23",
        "Post 24",
        "Post 25",
      ]);
      assert.equal(
        lastRequest(backend, "GET", "/collections/posts").query.get("where"),
        '{"title":{"contains":"post 2"}}',
      );
      await page.getByTestId("clear-filter").click();
      await page.waitForURL(root + "/collections/posts");
      await ready(page);
      assert.equal(await page.getByTestId("record-row").count(), 20);
    });

    await t.step("the locale switch re-reads at that locale", async () => {
      await label(page, "Locale").selectOption("de");
      await page.waitForURL(/locale=de/);
      await ready(page);
      assert.equal((await rowTitles(page))[0], "Beitrag 01");
      assert.equal(
        lastRequest(backend, "GET", "/collections/posts").query.get("locale"),
        "de",
      );
    });

    await t.step("create shows 422 beside fields, then saves", async () => {
      await page.getByTestId("create-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(
        await dialog.getByText("title (de)", { exact: true }).count(),
        1,
      );
      await page.getByTestId("save-record").click();
      await dialog.getByTestId("error-title").getByText(
        "This field is required",
      ).waitFor();
      await label(dialog, "title (de)").fill("Neuer Beitrag");
      await label(dialog, "views").fill("7");
      await label(dialog, "published").check();
      await label(dialog, "status").selectOption("published");
      await label(dialog, "tags").selectOption([
        "news",
        "life",
      ]);
      await page.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      const create = lastRequest(backend, "POST", "/collections/posts");
      assert.equal(create.query.get("locale"), "de");
      assert.deepEqual(create.body, {
        title: "Neuer Beitrag",
        views: 7,
        published: true,
        status: "published",
        tags: ["news", "life"],
      });
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "27 records",
      );
      assert.equal(
        await focusedTestId(page),
        "create-record",
      );
    });

    await t.step("edit sends only the changed fields", async () => {
      const row = page.getByTestId("record-row").first();
      const uuid = await row.getAttribute("data-uuid");
      await row.getByTestId("edit-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(
        await label(dialog, "title (de)").inputValue(),
        "Beitrag 01",
      );
      await label(dialog, "views").fill("11");
      await page.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      const patch = lastRequest(backend, "PATCH", `/collections/posts/${uuid}`);
      assert.deepEqual(patch.body, { views: 11 });
      assert.equal(patch.query.get("locale"), "de");
      assert.equal(
        await page.locator(`[data-uuid="${uuid}"] td.cell-integer`)
          .textContent(),
        "11",
      );
    });

    await t.step("delete asks first; a 409 is shown", async () => {
      const before = backend.posts.length;
      const row = page.getByTestId("record-row").first();
      await row.getByTestId("delete-record").click();
      await page.getByTestId("confirm-dialog").waitFor();
      await page.getByTestId("cancel-delete").click();
      await page.getByTestId("confirm-dialog").waitFor({ state: "detached" });
      assert.equal(backend.posts.length, before);
      await row.getByTestId("delete-record").click();
      await page.getByTestId("confirm-delete").click();
      await page.getByText("26 records").waitFor();
      assert.equal(backend.posts.length, before - 1);
      // "Locked" sorts first in English; another record refers to it.
      await page.goto(root + "/collections/posts?order=title&locale=en");
      await ready(page);
      const locked = page.locator("[data-testid=record-row]", {
        hasText: "Locked",
      });
      await locked.getByTestId("delete-record").click();
      await page.getByTestId("confirm-delete").click();
      await page.getByTestId("form-error").getByText(
        "This record cannot be deleted because other records refer to it",
      ).waitFor();
      assert.equal(backend.posts.length, before - 1);
    });

    await t.step("links are real and work from the keyboard", async () => {
      await page.getByTestId("collection-link-authors").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(root + "/collections/authors");
      await ready(page);
      assert.equal(
        await page.getByTestId("collection-title").textContent(),
        "Authors",
      );
      assert.equal(await page.getByTestId("create-record").count(), 0);
      await page.goBack();
      await page.waitForURL(/\/collections\/posts\?/);
      await ready(page);
      await page.getByTestId("nav-account").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(root + "/account");
      await ready(page);
    });

    await t.step(
      "account: 422 beside the field, then a language change re-renders",
      async () => {
        await label(page, "Date format").fill("   ");
        await page.getByTestId("save-account").click();
        await page.getByTestId("error-dateFormat").getByText(
          "Must not be empty",
        )
          .waitFor();
        await label(page, "Date format").fill("LL");
        await label(page, "Time zone").selectOption("Europe/Berlin");
        await page.getByTestId("save-account").click();
        await page.getByTestId("saved-status").getByText("Saved").waitFor();
        assert.deepEqual(lastRequest(backend, "PATCH", "/auth/me").body, {
          timezone: "Europe/Berlin",
        });
        await label(page, "Language").selectOption("de");
        await page.getByTestId("save-account").click();
        await page.getByTestId("sign-out").getByText("Abmelden").waitFor();
        assert.deepEqual(lastRequest(backend, "PATCH", "/auth/me").body, {
          dashboardLanguage: "de",
        });
        assert.equal(await page.getAttribute("html", "lang"), "de");
        assert.equal(
          await page.getByTestId("saved-status").textContent(),
          "Gespeichert",
        );
        assert.equal(
          await page.getByTestId("nav-account").textContent(),
          "Konto",
        );
        await label(page, "New password").fill("a new password");
        await page.getByTestId("save-account").click();
        await page.getByTestId("saved-status").getByText("Gespeichert")
          .waitFor();
        assert.deepEqual(lastRequest(backend, "PATCH", "/auth/me").body, {
          password: "a new password",
        });
        assert.equal(
          await label(page, "New password").inputValue(),
          "",
        );
      },
    );

    await t.step("focus is visible on keyboard navigation", async () => {
      await page.getByTestId("save-account").focus();
      await page.keyboard.press("Shift+Tab");
      // The style sheet's ring, not the browser's thinner default.
      const outline = await page.evaluate<string>(
        "getComputedStyle(document.activeElement).outline",
      );
      assert.match(outline, /solid 3px/);
    });

    await t.step("an ended session leads back to sign-in", async () => {
      await page.context().clearCookies();
      await page.getByTestId("nav-collections").click();
      await page.waitForURL(root + "/sign-in");
      await ready(page);
      assert.equal(await page.getByTestId("sign-out").count(), 0);
      await label(page, "Email").fill("admin@example.com");
      await label(page, "Password").fill("a new password");
      await page.getByTestId("sign-in-submit").click();
      await page.waitForURL(root + "/collections/posts");
      await ready(page);
    });

    await t.step("a 375 px screen needs no horizontal scrolling", async () => {
      await page.setViewportSize({ width: 375, height: 700 });
      await page.goto(root + "/collections/posts");
      await ready(page);
      assert.equal(
        await page.getByTestId("record-count").textContent(),
        "26 Einträge",
      );
      const width = await page.evaluate<number>(
        "document.documentElement.scrollWidth",
      );
      assert.ok(width <= 375, `page is ${width} px wide`);
      assert.ok(await page.getByTestId("create-record").isVisible());
    });

    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await backend.close();
  }
});

Deno.test({
  name: "the dashboard works without a base path",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const backend = startMockBackend({ base: "", installed: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const { page, problems } = await openPage(browser, 375);
  try {
    await page.goto(backend.origin + "/dashboard/account");
    await page.waitForURL(backend.origin + "/dashboard/sign-in");
    await ready(page);
    await label(page, "Email").fill("admin@example.com");
    await label(page, "Password").fill("correct horse");
    await label(page, "Password").press("Enter");
    await page.waitForURL(backend.origin + "/dashboard/collections/posts");
    await ready(page);
    assert.equal(await page.getByTestId("record-row").count(), 20);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await backend.close();
  }
});
