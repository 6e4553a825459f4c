// A `files` field in the dashboard, walked in Debian's Chromium: its files reorder with the
// keyboard (move earlier / later buttons, the focus kept, the move announced) and by drag,
// the page stays axe-clean, saving writes the new order, and an upload running meanwhile
// keeps its progress.
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Browser, Locator } from "npm:playwright-core@^1.50.0";
import { createTestApp } from "../../testing/mod.ts";
import { filesConfig, form, PG_URL, png } from "../files/_helpers.ts";
import { install } from "../auth/_helpers.ts";
import {
  ADMIN,
  fixture,
  focusedTestId,
  hasChromium,
  launchChromium,
  openPage,
  ready,
  seriousViolations,
  serveOnLoopback,
} from "./_browser.ts";

/** The file names of a drop zone's list, in order. */
async function names(zone: Locator): Promise<string[]> {
  return await zone.getByTestId("file").locator(".chip-name").allTextContents();
}

for (const database of [":memory:", PG_URL]) {
  Deno.test({
    name:
      `dashboard: the files of a files field reorder by keyboard and by drag, axe-clean, and save in order [${
        database === ":memory:" ? "sqlite" : "postgres"
      }]`,
    ignore: !hasChromium || database === undefined,
    sanitizeResources: false,
    sanitizeOps: false,
  }, async (t) => {
    const dir = await Deno.makeTempDir({ prefix: "strata_files_dashboard_" });
    const app = await createTestApp({
      root: fixture("files_app"),
      config: filesConfig(dir),
      database,
    });
    const { server, origin } = serveOnLoopback(app.fetch);
    let browser: Browser | undefined;
    try {
      await install(app, ADMIN);
      const created = await app.request("/collections/photos", {
        method: "POST",
        body: form([
          { name: "data", json: { title: "Trip" } },
          { name: "gallery", file: await png(3, 2), filename: "one.png" },
          { name: "gallery", file: await png(2, 3), filename: "two.png" },
          { name: "gallery", file: await png(4, 4), filename: "three.png" },
        ]),
      });
      const record = await created.json();
      assert.equal(created.status, 201, JSON.stringify(record));
      browser = await launchChromium();
      const { page, problems } = await openPage(browser, 1280);
      page.setDefaultTimeout(20_000);
      await page.goto(`${origin}/dashboard/sign-in`);
      await ready(page);
      await page.locator("input[type=email]").fill(ADMIN.email);
      await page.locator("input[type=password]").fill(ADMIN.password);
      await page.locator("input[type=password]").press("Enter");
      await page.waitForURL((url) => !url.pathname.endsWith("/sign-in"));
      await page.goto(`${origin}/dashboard/collections/photos/${record.UUID}`);
      await ready(page);
      const zone = page.getByTestId("dropzone-gallery");
      await zone.getByTestId("thumbnail").nth(2).waitFor();
      assert.deepEqual(await names(zone), ["one.png", "two.png", "three.png"]);

      await t.step(
        "keyboard: move later and earlier, focus kept, announced",
        async () => {
          // Presses `key`, waits for one.png at `at`, checks the order.
          const press = async (key: string, at: number, order: string[]) => {
            await page.keyboard.press(key);
            await zone.getByTestId("file").nth(at).getByText("one.png")
              .waitFor();
            assert.deepEqual(await names(zone), order);
          };
          const first = zone.getByTestId("file").first();
          // At the ends, the move that goes nowhere is disabled.
          assert.equal(
            await first.getByTestId("file-earlier").isDisabled(),
            true,
          );
          await first.getByTestId("file-later").focus();
          await press("Enter", 1, ["two.png", "one.png", "three.png"]);
          // The focus followed the file: pressing again moves it once more.
          assert.equal(await focusedTestId(page), "file-later");
          await press("Space", 2, ["two.png", "three.png", "one.png"]);
          // At the end, its later button is disabled: the focus moves to its earlier one.
          assert.equal(await focusedTestId(page), "file-earlier");
          assert.equal(
            await zone.getByRole("status").textContent(),
            "one.png moved to position 3 of 3",
          );
          await press("Enter", 1, ["two.png", "one.png", "three.png"]);
          assert.equal(
            await zone.getByRole("button", { name: "Move three.png later" })
              .isDisabled(),
            true,
          );
          assert.deepEqual(await seriousViolations(page), []);
        },
      );

      await t.step(
        "drag: a file dropped on another takes its place",
        async () => {
          await zone.getByTestId("file").nth(2).dragTo(
            zone.getByTestId("file").first(),
          );
          await zone.getByTestId("file").first().getByText("three.png")
            .waitFor();
          assert.deepEqual(await names(zone), [
            "three.png",
            "two.png",
            "one.png",
          ]);
        },
      );

      await t.step("saving writes the files in the new order", async () => {
        await page.getByTestId("save-record").click();
        await page.getByTestId("toast").first().waitFor();
        const stored = await app.query("Photos").where({ UUID: record.UUID })
          .findFirst();
        const gallery = stored?.gallery as { name: string }[];
        assert.deepEqual(gallery.map((file) => file.name), [
          "three.png",
          "two.png",
          "one.png",
        ]);
        await page.reload();
        await ready(page);
        await zone.getByTestId("thumbnail").nth(2).waitFor();
        assert.deepEqual(await names(zone), [
          "three.png",
          "two.png",
          "one.png",
        ]);
        assert.deepEqual(await seriousViolations(page), []);
      });

      await t.step(
        "an upload running while the files move keeps its progress",
        async () => {
          // The upload is held at the server's door until the move is done.
          let release = () => {};
          const held = new Promise<void>((resolve) => release = resolve);
          await page.route("**/files?**", async (route) => {
            await held;
            await route.continue();
          });
          await page.getByTestId("field-gallery").setInputFiles({
            name: "four.png",
            mimeType: "image/png",
            buffer: Buffer.from(await png(2, 2)),
          });
          await zone.getByTestId("upload-progress").waitFor();
          await zone.getByRole("button", { name: "Move one.png earlier" })
            .click();
          await zone.getByTestId("file").nth(1).getByText("one.png").waitFor();
          assert.equal(await zone.getByTestId("upload-progress").count(), 1);
          release();
          await zone.getByTestId("file").nth(3).getByText("four.png").waitFor();
          assert.equal(await zone.getByTestId("upload-progress").count(), 0);
          await page.unroute("**/files?**");
        },
      );
      assert.deepEqual(problems, []);
    } finally {
      await browser?.close();
      await server.shutdown();
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
