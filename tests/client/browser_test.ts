// @strata/strata/client bundled (`deno bundle --platform browser`) and run in headless
// Chromium against the example app on a real socket: the browser keeps the session cookie
// itself, and errors arrive as StrataError.
import assert from "node:assert/strict";
import { chromium } from "npm:playwright-core@^1.50.0";
import { createTestApp } from "../../testing/mod.ts";
import { DEMO_PASSWORD, seedBlog } from "../../examples/blog/seed.ts";
import { CHROMIUM, CHROMIUM_ARGS, hasChromium } from "../dashboard/_browser.ts";
import { bundleClient } from "../dashboard/client_asset.ts";

const root = new URL("../../", import.meta.url).pathname;
const BLOG = `${root}examples/blog/`;

const PAGE = `<!doctype html><meta charset="utf-8"><title>client</title>
<script type="module">
import { createClient, StrataError } from "/client.js";
window.strata = { createClient, StrataError };
document.documentElement.dataset.state = "ready";
</script>`;

// A string, not a function: the tests are type-checked without the DOM library.
const SCENARIO = `(async ({ password }) => {
  const { createClient, StrataError } = window.strata;
  const client = createClient({ baseUrl: location.origin });
  const out = {};
  const posts = client.collection("Posts");
  out.count = (await posts.list()).length;
  out.page = (await posts.list({ page: 1, perPage: 2 })).records.length;
  try {
    await posts.list({ where: { nope: 1 } });
  } catch (error) {
    out.malformed = [error instanceof StrataError, error.status, error.code, error.path];
  }
  try {
    await client.auth.me();
  } catch (error) {
    out.signedOut = error.status;
  }
  const user = await client.auth.login({ email: "admin@example.com", password });
  out.email = user.email;
  out.token = client.token === undefined;
  out.me = (await client.auth.me()).email;
  const author = (await client.collection("Authors").list({ limit: 1 }))[0].UUID;
  const created = await posts.create({ title: "Browser", slug: "from-a-browser", author });
  out.created = created.slug;
  out.updated = (await posts.update(created.UUID, { title: "Browser 2" })).title;
  try {
    await posts.create({ title: "", slug: "x", author });
  } catch (error) {
    out.invalid = [error.status, Object.keys(error.errors).sort()];
  }
  await posts.delete(created.UUID);
  await client.auth.logout();
  try {
    await client.auth.me();
  } catch (error) {
    out.afterLogout = error.status;
  }
  return out;
})`;

Deno.test({
  name: "the bundled client works in Chromium with cookie sessions",
  ignore: !hasChromium,
  async fn() {
    const bundle = await bundleClient();
    const app = await createTestApp({ root: BLOG });
    await seedBlog(app);
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      (request, info) => {
        const path = new URL(request.url).pathname;
        if (path === "/client.js") {
          return new Response(bundle, {
            headers: { "content-type": "text/javascript" },
          });
        }
        if (path === "/client.html") {
          return new Response(PAGE, {
            headers: { "content-type": "text/html" },
          });
        }
        return app.fetch(request, info);
      },
    );
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${server.addr.port}/client.html`);
      await page.waitForSelector("html[data-state=ready]");
      const result = await page.evaluate(
        `${SCENARIO}(${JSON.stringify({ password: DEMO_PASSWORD })})`,
      );
      assert.deepEqual(result, {
        count: 3,
        page: 2,
        malformed: [true, 400, "invalidField", "where.nope"],
        signedOut: 401,
        email: "admin@example.com",
        token: true,
        me: "admin@example.com",
        created: "from-a-browser",
        updated: "Browser 2",
        invalid: [422, ["title"]],
        afterLogout: 401,
      });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.shutdown();
      await app.close();
    }
  },
});
