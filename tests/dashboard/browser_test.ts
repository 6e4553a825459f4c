// The collections browser in Debian's Chromium against a real, seeded app
// mounted under `api.basePath` (tests/fixtures/dashboard_browse_app):
// paging, sorting, per-locale filtering, a delete the database refuses (409),
// edits that send only what changed, the account page, an ended session and
// a role that may only read. The first-run flow lives in e2e_test.ts.
import assert from "node:assert/strict";
import type { Browser, Page, Request } from "npm:playwright-core@^1.50.0";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import {
  ADMIN,
  fixture,
  focusedTestId,
  hasChromium,
  label,
  launchChromium,
  openPage,
  ready,
  serveOnLoopback,
} from "./_browser.ts";

const READER = { email: "reader@example.com", password: "reader password" };

interface Sent {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** Records the API requests a page sends, with their JSON bodies. */
function recordRequests(page: Page, origin: string): Sent[] {
  const sent: Sent[] = [];
  page.on("request", (request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== origin || request.resourceType() !== "fetch") return;
    const text = request.postData();
    sent.push({
      method: request.method(),
      path: url.pathname,
      query: url.searchParams,
      body: text ? JSON.parse(text) : undefined,
    });
  });
  return sent;
}

function last(sent: Sent[], method: string, path: string): Sent {
  const found = sent.findLast((request) =>
    request.method === method && request.path === path
  );
  assert.ok(found, `${method} ${path} was sent`);
  return found;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** 25 articles (views i * 10, German titles), and one a comment pins. */
async function seed(app: TestApp): Promise<void> {
  for (
    const user of [{ ...ADMIN, roles: ["admin"] }, {
      ...READER,
      roles: ["reader"],
    }]
  ) {
    const created = await app.query("Users").create(user);
    assert.ok(created.ok, JSON.stringify(created));
  }
  for (let i = 1; i <= 25; i++) {
    const created = await app.query("Articles").create({
      title: `Post ${pad(i)}`,
      views: i * 10,
      status: i % 2 === 0 ? "published" : "draft",
    });
    assert.ok(created.ok, JSON.stringify(created));
    const german = await app.query("Articles").locale("de")
      .where({ UUID: created.record.UUID })
      .update({ title: `Beitrag ${pad(i)}` });
    assert.ok(german.ok, JSON.stringify(german));
  }
  const locked = await app.query("Articles").create({ title: "Locked" });
  assert.ok(locked.ok);
  const comment = await app.query("Comments").create({
    text: "Pins the locked article",
    article: locked.record.UUID,
  });
  assert.ok(comment.ok, JSON.stringify(comment));
  for (const body of ["Café au lait", "Deno routes", "Routing tables"]) {
    assert.ok((await app.query("Notes").create({ body })).ok);
  }
}

async function rowTitles(page: Page): Promise<string[]> {
  return await page.locator("[data-testid=record-row] td:first-child")
    .allTextContents();
}

async function signIn(
  page: Page,
  credentials: { email: string; password: string },
): Promise<void> {
  await label(page, "Email").fill(credentials.email);
  await label(page, "Password").fill(credentials.password);
  await label(page, "Password").press("Enter");
}

Deno.test({
  name: "dashboard browser: paging, sorting, 409, account, roles",
  ignore: !hasChromium,
  // Chromium's pipes and the server outlive single steps by design.
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const app = await createTestApp({ root: fixture("dashboard_browse_app") });
  await seed(app);
  const { server, origin } = serveOnLoopback(app.fetch);
  const root = `${origin}/api/dashboard`;
  const articles = `${root}/collections/articles`;
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const { page, problems } = await openPage(browser, 1200);
    const sent = recordRequests(page, origin);

    await t.step(
      "signed out, a page leads to sign-in, then back to it",
      async () => {
        await page.goto(`${root}/account`);
        await page.waitForURL(
          `${root}/sign-in?next=%2Fapi%2Fdashboard%2Faccount`,
        );
        await ready(page);
        await signIn(page, ADMIN);
        await page.waitForURL(`${root}/account`);
        await ready(page);
        await page.goto(root);
        await page.waitForURL(articles);
        await ready(page);
        assert.deepEqual(last(sent, "POST", "/api/auth/login").body, {
          email: ADMIN.email,
          password: ADMIN.password,
          remember: false,
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
      await page.getByTestId("next-page").click();
      await page.waitForURL(`${articles}?page=2`);
      await ready(page);
      assert.equal(
        await page.getByTestId("page-status").textContent(),
        "Page 2 of 2",
      );
      assert.equal(await page.getByTestId("record-row").count(), 6);
      assert.ok(await page.getByTestId("next-page").isDisabled());
      const list = last(sent, "GET", "/api/collections/articles");
      assert.equal(list.query.get("page"), "2");
      assert.equal(list.query.get("perPage"), "20");
      await page.getByTestId("previous-page").click();
      await page.waitForURL(articles);
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
      assert.deepEqual((await rowTitles(page)).slice(0, 2), [
        "Locked",
        "Post 01",
      ]);
      await page.getByTestId("sort-views").click();
      await page.waitForURL(/order=-views/);
      await ready(page);
      assert.equal(
        await page.getByTestId("column-views").getAttribute("aria-sort"),
        "descending",
      );
      assert.equal((await rowTitles(page))[0], "Post 25");
      assert.equal(
        last(sent, "GET", "/api/collections/articles").query.get("order"),
        '["-views"]',
      );
      // Focus stays on the header button for keyboard users.
      assert.equal(await focusedTestId(page), "sort-views");
    });

    await t.step("the filter matches at the chosen locale", async () => {
      await page.goto(`${articles}?locale=de&order=title`);
      await ready(page);
      await label(page, "Filter").fill("beitrag 2");
      await page.getByTestId("apply-filter").click();
      await page.waitForURL(/q=beitrag/);
      await ready(page);
      assert.deepEqual(await rowTitles(page), [
        "Beitrag 20",
        "Beitrag 21",
        "Beitrag 22",
        "Beitrag 23",
        "Beitrag 24",
        "Beitrag 25",
      ]);
      const list = last(sent, "GET", "/api/collections/articles");
      assert.equal(list.query.get("locale"), "de");
      // Every readable text field is searched.
      assert.deepEqual(JSON.parse(list.query.get("where")!), {
        or: [
          { title: { contains: "beitrag 2" } },
          { summary: { contains: "beitrag 2" } },
        ],
      });
      await page.getByTestId("clear-filter").click();
      await page.waitForURL(/\?order=title&locale=de$/);
      await ready(page);
      assert.equal(await page.getByTestId("record-row").count(), 20);
    });

    await t.step(
      "a searchable collection's filter searches with search=",
      async () => {
        await page.goto(`${root}/collections/notes`);
        await ready(page);
        await label(page, "Filter").fill("CAFE");
        await page.getByTestId("apply-filter").click();
        await page.waitForURL(/q=CAFE/);
        await ready(page);
        assert.deepEqual(await rowTitles(page), ["Café au lait"]);
        const list = last(sent, "GET", "/api/collections/notes");
        assert.equal(list.query.get("search"), "CAFE");
        assert.equal(list.query.get("where"), null);
        await label(page, "Filter").fill("rout*");
        await page.getByTestId("apply-filter").click();
        await page.waitForURL(/q=rout/);
        await ready(page);
        assert.deepEqual((await rowTitles(page)).sort(), [
          "Deno routes",
          "Routing tables",
        ]);
        await page.goto(`${articles}?order=title&locale=de`);
        await ready(page);
      },
    );

    await t.step("edit sends only the changed fields", async () => {
      const row = page.locator("[data-testid=record-row]", {
        hasText: "Beitrag 01",
      });
      const uuid = await row.getAttribute("data-uuid");
      await row.getByTestId("edit-record").click();
      const dialog = page.getByTestId("record-dialog");
      await dialog.waitFor();
      assert.equal(
        await label(dialog, "Title (de)").inputValue(),
        "Beitrag 01",
      );
      await label(dialog, "Views").fill("11");
      await dialog.getByTestId("save-record").click();
      await dialog.waitFor({ state: "detached" });
      await ready(page);
      const patch = last(sent, "PATCH", `/api/collections/articles/${uuid}`);
      assert.deepEqual(patch.body, { views: 11 });
      assert.equal(patch.query.get("locale"), "de");
      assert.equal(
        await page.locator(`[data-uuid="${uuid}"] td.cell-integer`)
          .textContent(),
        "11",
      );
      const stored = await app.query("Articles").where({ UUID: uuid! })
        .findFirst();
      assert.equal(stored?.title, "Post 01");
      assert.equal(stored?.views, 11);
    });

    await t.step("delete asks first; a 409 is shown", async () => {
      await page.goto(`${articles}?order=title`);
      await ready(page);
      const locked = page.locator("[data-testid=record-row]", {
        hasText: "Locked",
      });
      await locked.getByTestId("delete-record").click();
      await page.getByTestId("confirm-dialog").waitFor();
      await page.getByTestId("cancel-delete").click();
      await page.getByTestId("confirm-dialog").waitFor({ state: "detached" });
      assert.equal(await focusedTestId(page), "delete-record");
      await locked.getByTestId("delete-record").click();
      const answer = page.waitForResponse((response) =>
        response.request().method() === "DELETE"
      );
      await page.getByTestId("confirm-delete").click();
      assert.equal((await answer).status(), 409);
      // Explained: how many records the user may read still point at it.
      await page.getByTestId("form-error").waitFor();
      const message = await page.getByTestId("form-error").textContent();
      assert.equal(message, "One record of Comments still references “Locked”");
      assert.equal(
        await app.query("Articles").where({ title: "Locked" }).count(),
        1,
      );
    });

    await t.step("links are real and work from the keyboard", async () => {
      await page.getByTestId("collection-link-comments").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(`${root}/collections/comments`);
      await ready(page);
      assert.equal(
        await page.getByTestId("collection-title").textContent(),
        "Comments",
      );
      // A link shows its target's display value, never a UUID.
      const cell = page.locator("[data-testid=record-row] td.cell-record");
      assert.equal(await cell.textContent(), "Locked");
      const text = await page.locator("main").textContent() ?? "";
      assert.doesNotMatch(text, /[0-9a-f]{8}(-[0-9a-f]{4})?/);
      await page.goBack();
      await page.waitForURL(/\/collections\/articles\?order=title$/);
      await ready(page);
      await page.getByTestId("nav-account").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(`${root}/account`);
      await ready(page);
    });

    await t.step("account: 422 beside the field, then saved", async () => {
      // Formats are chosen among those the server accepts, each with a preview.
      const formats = await label(page, "Date format").locator("option")
        .allTextContents();
      assert.ok(
        formats.some((f) => /^YYYY-MM-DD \(\d{4}-\d\d-\d\d\)$/.test(f)),
        formats.join(),
      );
      assert.ok(formats.some((f) => f.startsWith("LL (")), formats.join());
      await label(page, "Content language").fill("xx-nope");
      await page.getByTestId("save-account").click();
      await page.getByTestId("error-contentLanguage").waitFor();
      assert.notEqual(
        (await page.getByTestId("error-contentLanguage").textContent())?.trim(),
        "",
      );
      await label(page, "Content language").fill("");
      await label(page, "Time zone").selectOption("Europe/Berlin");
      await page.getByTestId("save-account").click();
      await page.getByTestId("saved-status").getByText("Saved").waitFor();
      assert.deepEqual(last(sent, "PATCH", "/api/auth/me").body, {
        timezone: "Europe/Berlin",
      });
      await label(page, "New password").fill("a new password");
      await page.getByTestId("save-account").click();
      await page.getByTestId("saved-status").getByText("Saved").waitFor();
      assert.deepEqual(last(sent, "PATCH", "/api/auth/me").body, {
        password: "a new password",
      });
      assert.equal(await label(page, "New password").inputValue(), "");
    });

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
      await page.waitForURL(`${root}/sign-in`);
      await ready(page);
      assert.equal(await page.getByTestId("sign-out").count(), 0);
      await signIn(page, { email: ADMIN.email, password: "a new password" });
      await page.waitForURL(articles);
      await ready(page);
    });

    await t.step("a reader browses without write controls", async () => {
      await page.getByTestId("sign-out").click();
      await page.waitForURL(`${root}/sign-in`);
      await ready(page);
      await signIn(page, READER);
      await page.waitForURL(articles);
      await ready(page);
      const links = await page.locator("[data-testid=collection-nav] a")
        .allTextContents();
      assert.deepEqual(links, ["Articles", "Api tokens", "Sessions"]);
      assert.equal(await page.getByTestId("record-row").count(), 20);
      assert.equal(await page.getByTestId("create-record").count(), 0);
      assert.equal(await page.getByTestId("edit-record").count(), 0);
      assert.equal(await page.getByTestId("delete-record").count(), 0);
      await page.goto(`${root}/collections/comments`);
      await ready(page);
      assert.equal(await page.getByTestId("records-table").count(), 0);
    });

    assert.deepEqual(problems, []);
  } finally {
    await browser?.close();
    await server.shutdown();
    await app.close();
  }
});
