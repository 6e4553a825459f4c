// The dashboard as a reviewer walks it: Debian's Chromium (one launch) through every screen at
// 1280 and 375 px, in English and German, light and dark, each screen photographed into
// tests/dashboard/screenshots/ (git-ignored; STRATA_SCREENS_DIR moves it) and checked by
// axe-core with no serious or critical violation. Then, with the keyboard alone: create a post,
// pick its author, save, filter, delete; an author sees Edit and Delete only on their own post;
// links show their target's name and no UUID; a filtered view's URL reloads to the same view.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type {
  Browser,
  BrowserContext,
  Page,
} from "npm:playwright-core@^1.50.0";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import { authLayer } from "../../auth/mod.ts";
import {
  ADMIN,
  fixture,
  focusedTestId,
  hasChromium,
  launchChromium,
  ready,
  seriousViolations,
  serveOnLoopback,
} from "./_browser.ts";

const SCREENS = Deno.env.get("STRATA_SCREENS_DIR") ||
  new URL("./screenshots/", import.meta.url).pathname;
const PASSWORD = "correct horse";
const UUID_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}|\b[0-9a-f]{8}\b/i;

interface Look {
  readonly width: number;
  readonly language: "en" | "de";
  readonly scheme: "light" | "dark";
}

const LOOKS: readonly Look[] = [1280, 375].flatMap((width) =>
  (["en", "de"] as const).flatMap((language) =>
    (["light", "dark"] as const).map((scheme) => ({ width, language, scheme }))
  )
);

/**
 * Waits until `expression` holds in the page. Polled through page.evaluate (the DevTools
 * protocol), since the page's CSP forbids the eval that waitForFunction uses.
 */
async function until(page: Page, expression: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > deadline) assert.fail(`Never true: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function screenshotOnly(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENS}/${name}.png`, fullPage: true });
}

async function seed(app: TestApp): Promise<Record<string, string>> {
  const install = await app.request("/auth/install", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  assert.equal(install.status, 200);
  const ids: Record<string, string> = {};
  for (const email of ["ann@example.com", "bob@example.com"]) {
    const user = await app.query("Users").create({
      email,
      password: PASSWORD,
      roles: ["author"],
    });
    assert.ok(user.ok);
    ids[email] = String(user.record.UUID);
  }
  for (const name of ["deno", "web"]) {
    const tag = await app.query("BlogTags").create({ name });
    assert.ok(tag.ok);
    ids[name] = String(tag.record.UUID);
  }
  for (
    const [title, author, views, tags] of [
      ["Ann's draft", "ann@example.com", 3, ["deno"]],
      ["Bob's news", "bob@example.com", 12, ["web", "deno"]],
    ] as const
  ) {
    const post = await app.query("Posts").create({
      title,
      author: ids[author],
      views,
      tags: tags.map((name) => ids[name]),
    });
    assert.ok(post.ok, JSON.stringify(post));
    ids[title] = String(post.record.UUID);
  }
  const comment = await app.query("Comments").create({
    text: "Nice",
    post: ids["Bob's news"],
  });
  assert.ok(comment.ok);
  return ids;
}

async function signIn(
  page: Page,
  root: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${root}/sign-in`);
  await ready(page);
  await page.locator("input[type=email]").fill(email);
  await page.locator("input[type=password]").fill(password);
  await page.locator("input[type=password]").press("Enter");
  await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
  await page.goto(`${root}/collections/posts`);
  await ready(page);
}

Deno.test({
  name:
    "dashboard walk: every screen at 1280 and 375 px, en and de, light and dark, axe-clean; keyboard only",
  ignore: !hasChromium,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const uploads = await Deno.makeTempDir({ prefix: "strata_walk_uploads_" });
  const app = await createTestApp({
    root: fixture("dashboard_admin_app"),
    // The fixture's config, with uploads in a folder of this test.
    config: {
      layers: [authLayer()],
      // Sign-up on, so its page is walked too.
      auth: { password: { cost: 1024 }, signup: true },
      collections: { locales: ["en", "de"], defaultLocale: "en" },
      uploads: { storage: { driver: "fs", dir: uploads } },
    },
  });
  const ids = await seed(app);
  const { server, origin } = serveOnLoopback(app.fetch);
  const root = `${origin}/dashboard`;
  const posts = `${root}/collections/posts`;
  await Deno.mkdir(SCREENS, { recursive: true });
  for await (const entry of Deno.readDir(SCREENS)) {
    if (entry.name.endsWith(".png")) {
      await Deno.remove(`${SCREENS}/${entry.name}`);
    }
  }
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();

    await t.step(
      "every screen, every look: photographed, axe-clean",
      async () => {
        const problems: string[] = [];
        for (const look of LOOKS) {
          const context: BrowserContext = await browser!.newContext({
            viewport: { width: look.width, height: 800 },
            locale: look.language === "de" ? "de-DE" : "en-US",
            colorScheme: look.scheme,
          });
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          page.on("pageerror", (error) => problems.push(error.message));
          const prefix = `${look.width}-${look.language}-${look.scheme}`;
          let count = 0;
          const screen = async (name: string) => {
            const file = `${SCREENS}/${prefix}-${
              String(++count).padStart(2, "0")
            }-${name}.png`;
            await page.screenshot({ path: file, fullPage: true });
            const violations = await seriousViolations(page);
            assert.deepEqual(violations, [], `${prefix} ${name}`);
            if (look.width === 375) {
              const wide = await page.evaluate<boolean>(
                "document.documentElement.scrollWidth > document.documentElement.clientWidth",
              );
              assert.equal(wide, false, `${prefix} ${name} scrolls sideways`);
            }
          };
          await page.goto(`${root}/forgot`);
          await ready(page);
          await screen("forgot-password");
          await page.goto(`${root}/sign-up`);
          await page.getByTestId("sign-up-form").waitFor();
          await ready(page);
          await screen("sign-up");
          // The pages of mailed links, with a link that is not valid (any more).
          await page.goto(`${root}/reset?token=walk`);
          await ready(page);
          await screen("reset-password");
          await page.goto(`${root}/verify?token=walk`);
          await page.getByTestId("verify-done-failed").waitFor();
          await ready(page);
          await screen("verify-email");
          await page.goto(`${root}/email?token=walk`);
          await page.getByTestId("email-done-failed").waitFor();
          await ready(page);
          await screen("confirm-email-change");
          await page.goto(`${root}/sign-in`);
          await ready(page);
          await screen("sign-in");
          await page.locator("input[type=email]").fill(ADMIN.email);
          await page.locator("input[type=password]").fill(ADMIN.password);
          await page.locator("input[type=password]").press("Enter");
          await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
          await page.goto(posts);
          await ready(page);
          assert.equal(
            await page.getByTestId("collection-title").textContent(),
            look.language === "de" ? "Beiträge" : "Posts",
          );
          await screen("posts");
          await page.getByTestId("create-record").click();
          await page.getByTestId("record-dialog").waitFor();
          await screen("create");
          await page.getByTestId("field-author").click();
          await page.getByTestId("picker-option").first().waitFor();
          await screen("create-picker");
          await page.keyboard.press("Escape");
          await page.getByTestId("cancel-record").click();
          await page.getByTestId("record-dialog").waitFor({
            state: "detached",
          });
          await page.getByTestId("add-filter").click();
          await page.getByTestId("filter-builder").waitFor();
          await screen("filter");
          await page.getByTestId("choose-columns").click();
          await screen("columns");
          await page.getByTestId("choose-columns").click();
          await page.locator("[data-testid=record-row]", {
            hasText: "Bob's news",
          })
            .getByTestId("delete-record").click();
          await page.getByTestId("confirm-dialog").waitFor();
          await screen("confirm-delete");
          await page.getByTestId("confirm-delete").click();
          await page.getByTestId("form-error").waitFor();
          await screen("delete-409");
          await page.locator("[data-testid=record-row]", {
            hasText: "Ann's draft",
          }).getByTestId("record-link").click();
          await page.getByTestId("record-uuid").waitFor();
          await ready(page);
          await screen("record");
          await page.getByTestId("collection-link-ratings").click();
          await page.getByTestId("empty-state").waitFor();
          await ready(page);
          await screen("empty");
          await page.getByTestId("nav-account").click();
          await page.waitForURL(`${root}/account`);
          await ready(page);
          await screen("account");
          await context.close();
        }
        assert.deepEqual(problems, []);
      },
    );

    await t.step(
      "the axe check can fail: a planted violation is found",
      async () => {
        const context = await browser!.newContext();
        const page = await context.newPage();
        await page.goto(`${root}/sign-in`);
        await ready(page);
        await page.evaluate(
          `document.querySelector("main").append(Object.assign(
          document.createElement("button"), { className: "planted" }))`,
        );
        const found = await seriousViolations(page);
        assert.ok(
          found.some((v) =>
            v.startsWith("button-name") && v.includes(".planted")
          ),
          found.join("; "),
        );
        await context.close();
      },
    );

    await t.step("links name their target; no UUID is shown", async () => {
      const context = await browser!.newContext({
        viewport: { width: 1280, height: 800 },
        locale: "en-US",
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signIn(page, root, ADMIN.email, ADMIN.password);
      const bob = page.locator("[data-testid=record-row]", {
        hasText: "Bob's news",
      });
      assert.equal(
        await bob.locator("td.cell-record").textContent(),
        "bob@example.com",
      );
      assert.equal(
        await bob.locator("td.cell-records").textContent(),
        "web, deno",
      );
      assert.doesNotMatch(await page.locator("main").innerText(), UUID_LIKE);
      // Default order from the collection: most viewed first.
      const titles = await page.locator(
        "[data-testid=record-row] td:first-child",
      )
        .allTextContents();
      assert.deepEqual(titles, ["Bob's news", "Ann's draft"]);
      await context.close();
    });

    await t.step(
      "a record's page: linkable, its UUID, locales side by side, a guard",
      async () => {
        const context = await browser!.newContext({
          viewport: { width: 1280, height: 800 },
          locale: "en-US",
        });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(page, root, ADMIN.email, ADMIN.password);
        const uuid = ids["Ann's draft"];
        await page.locator("[data-testid=record-row]", {
          hasText: "Ann's draft",
        })
          .getByTestId("record-link").click();
        await page.waitForURL(`${posts}/${uuid}`);
        await ready(page);
        assert.equal(
          await page.getByTestId("record-title").textContent(),
          "Ann's draft",
        );
        assert.equal(await page.getByTestId("record-uuid").textContent(), uuid);
        // Another locale, with the default locale's values beside: both kept in the URL.
        await page.getByTestId("record-locale").selectOption("de");
        await page.waitForURL(`${posts}/${uuid}?locale=de`);
        await ready(page);
        const title = page.getByLabel("Title (de)", { exact: true });
        assert.equal(await title.inputValue(), "");
        await page.getByTestId("show-default").check();
        await page.waitForURL(`${posts}/${uuid}?locale=de&beside=1`);
        await ready(page);
        assert.equal(
          await page.getByTestId("default-title").textContent(),
          "Ann's draft",
        );
        // A reload shows the same record at the same locale.
        await page.reload();
        await ready(page);
        assert.equal(
          await page.getByTestId("default-title").textContent(),
          "Ann's draft",
        );
        // Unsaved changes: leaving asks; refusing stays, accepting leaves.
        await title.fill("Anns Entwurf");
        const answers = ["dismiss", "accept"];
        const asked: string[] = [];
        page.on("dialog", (dialog) => {
          const answer = answers[asked.length];
          asked.push(dialog.message());
          return answer === "accept" ? dialog.accept() : dialog.dismiss();
        });
        await page.getByTestId("back-to-list").click();
        assert.equal(asked.length, 1);
        assert.equal(asked[0], "Leave without saving your changes?");
        assert.equal(page.url(), `${posts}/${uuid}?locale=de&beside=1`);
        await page.getByTestId("back-to-list").click();
        await page.waitForURL(posts);
        await ready(page);
        assert.equal(asked.length, 2);
        // The back button returns to the record's page.
        await page.goBack();
        await page.waitForURL(`${posts}/${uuid}?locale=de&beside=1`);
        await ready(page);
        // Saving stays on the page and writes the German title.
        await title.fill("Anns Entwurf");
        await page.getByTestId("save-record").click();
        await page.getByTestId("toast").getByText("“Anns Entwurf” saved")
          .waitFor();
        const german = await app.query("Posts").locale("de").where({
          UUID: uuid,
        })
          .findFirst();
        assert.equal(german?.title, "Anns Entwurf");
        await context.close();
      },
    );

    await t.step(
      "a file field: chosen, uploaded with progress, shown as a thumbnail, saved",
      async () => {
        const context = await browser!.newContext({
          viewport: { width: 1280, height: 800 },
          locale: "en-US",
        });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(page, root, ADMIN.email, ADMIN.password);
        const uuid = ids["Bob's news"];
        await page.goto(`${posts}/${uuid}`);
        await ready(page);
        // A 1×1 PNG.
        const png = Uint8Array.from(
          atob(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
          ),
          (c) => c.charCodeAt(0),
        );
        await page.getByTestId("field-cover").setInputFiles({
          name: "dot.png",
          mimeType: "image/png",
          buffer: Buffer.from(png),
        });
        await page.getByTestId("dropzone-cover").getByTestId("thumbnail")
          .waitFor();
        await screenshotOnly(page, "1280-en-light-11-file");
        await page.getByTestId("save-record").click();
        await page.getByTestId("toast").getByText("“Bob's news” saved")
          .waitFor();
        const stored = await app.query("Posts").where({ UUID: uuid })
          .findFirst();
        const cover = stored?.cover as { name?: string; type?: string } | null;
        assert.equal(cover?.name, "dot.png");
        assert.equal(cover?.type, "image/png");
        // The list names the file; the page shows its thumbnail after a reload.
        await page.reload();
        await ready(page);
        await page.getByTestId("dropzone-cover").getByTestId("thumbnail")
          .waitFor();
        assert.deepEqual(await seriousViolations(page), []);
        await context.close();
      },
    );

    await t.step(
      "an author sees Edit and Delete only on their own post",
      async () => {
        const context = await browser!.newContext({
          viewport: { width: 1280, height: 800 },
          locale: "en-US",
        });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(page, root, "ann@example.com", PASSWORD);
        const own = page.locator(`[data-uuid="${ids["Ann's draft"]}"]`).first();
        const other = page.locator("[data-testid=record-row]", {
          hasText: "Bob's news",
        });
        await own.waitFor();
        assert.equal(await own.getByTestId("edit-record").count(), 1);
        assert.equal(await own.getByTestId("delete-record").count(), 1);
        assert.equal(await other.getByTestId("edit-record").count(), 0);
        assert.equal(await other.getByTestId("delete-record").count(), 0);
        assert.doesNotMatch(await page.locator("main").innerText(), UUID_LIKE);
        await context.close();
      },
    );

    await t.step(
      "keyboard only: create, pick the author, save, filter, delete",
      async () => {
        const context = await browser!.newContext({
          viewport: { width: 1280, height: 800 },
          locale: "en-US",
        });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signIn(page, root, ADMIN.email, ADMIN.password);
        const keys = page.keyboard;
        const tabTo = async (testid: string) => {
          for (let i = 0; i < 80; i++) {
            if ((await focusedTestId(page)) === testid) return;
            await keys.press("Tab");
          }
          assert.fail(`Tab never reached ${testid}`);
        };
        await tabTo("create-record");
        await keys.press("Enter");
        await page.getByTestId("record-dialog").waitFor();
        // Focus starts in the first input: the title.
        assert.equal(await focusedTestId(page), "field-title");
        await keys.type("Typed by keyboard");
        await tabTo("field-author");
        await keys.type("ann");
        // Results of the searches typed before may show first: wait for the last one's.
        await until(
          page,
          `(() => {
            const options = document.querySelectorAll("[data-testid=picker-option]");
            return options.length === 1 && options[0].textContent === "ann@example.com";
          })()`,
        );
        await keys.press("ArrowDown");
        await keys.press("Enter");
        await page.getByTestId("picker-author").getByTestId("chip").waitFor();
        assert.equal(
          await page.getByTestId("picker-author").getByTestId("chip")
            .textContent(),
          "ann@example.com×",
        );
        // A multiSelect as chips: choose in the dropdown, then Add.
        await tabTo("field-audiences");
        await keys.press("ArrowDown");
        await tabTo("add-choice-audiences");
        await keys.press("Enter");
        await page.getByTestId("choices-audiences").getByTestId("chip")
          .waitFor();
        assert.equal(
          await page.getByTestId("choices-audiences").getByTestId("chip")
            .textContent(),
          "readers×",
        );
        await tabTo("save-record");
        await keys.press("Enter");
        await page.getByTestId("record-dialog").waitFor({ state: "detached" });
        await page.getByTestId("toast").getByText("“Typed by keyboard” created")
          .waitFor();
        await ready(page);
        const stored = await app.query("Posts").where({
          title: "Typed by keyboard",
        }).findFirst();
        assert.equal(stored?.author, ids["ann@example.com"]);
        assert.deepEqual(stored?.audiences, ["readers"]);

        // Filter: title contains "keyboard", from the keyboard.
        await tabTo("add-filter");
        await keys.press("Enter");
        await page.getByTestId("filter-builder").waitFor();
        await tabTo("filter-value");
        await keys.type("keyboard");
        await keys.press("Enter");
        await page.waitForURL(/f=title%3Acontains%3Akeyboard/);
        await ready(page);
        const rows = page.locator("[data-testid=record-row]");
        assert.equal(await rows.count(), 1);
        assert.equal(
          await page.getByTestId("filter-chip").textContent(),
          "Title contains keyboard×",
        );
        // The filtered view's URL reloads to the same view.
        const url = page.url();
        await page.reload();
        await ready(page);
        assert.equal(page.url(), url);
        assert.equal(await rows.count(), 1);
        assert.equal(await page.getByTestId("filter-chip").count(), 1);

        // Delete it: the confirmation starts on Cancel; Tab to Delete.
        await tabTo("delete-record");
        await keys.press("Enter");
        await page.getByTestId("confirm-dialog").waitFor();
        assert.equal(await focusedTestId(page), "cancel-delete");
        await keys.press("Tab");
        assert.equal(await focusedTestId(page), "confirm-delete");
        await keys.press("Enter");
        await page.getByTestId("toast").getByText("“Typed by keyboard” deleted")
          .waitFor();
        await ready(page);
        await page.getByTestId("empty-state").waitFor();
        assert.equal(
          await app.query("Posts").where({ title: "Typed by keyboard" })
            .count(),
          0,
        );
        await context.close();
      },
    );
  } finally {
    await browser?.close();
    await server.shutdown();
    await app.close();
    await Deno.remove(uploads, { recursive: true });
  }
  console.log(`Screenshots: ${SCREENS}`);
});
