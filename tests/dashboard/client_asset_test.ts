// The dashboard makes its requests through @strata/strata/client: the bundled client it
// serves matches client/ (`deno task client-asset` rewrites it), the shell names it, and
// the app script imports it.
import assert from "node:assert/strict";
import { clientJs } from "../../dashboard/assets/client_js.ts";
import { appJs } from "../../dashboard/assets/app_js.ts";
import { renderShell } from "../../dashboard/_shell.ts";
import { dashboardRoutes } from "../../dashboard/mod.ts";
import { bundleClient } from "./client_asset.ts";

Deno.test("the bundled client asset matches client/ (run deno task client-asset)", async () => {
  assert.equal(clientJs, await bundleClient());
});

Deno.test("the client asset is served as JavaScript and is an ES module with createClient", async () => {
  const route = dashboardRoutes()["dashboard/assets/client.js.get.ts"];
  assert.ok(route);
  const module = await import(
    "data:text/javascript," + encodeURIComponent(clientJs)
  );
  assert.equal(typeof module.createClient, "function");
  assert.equal(typeof module.StrataError, "function");
});

Deno.test("the shell names the client and the app script imports it", () => {
  const html = renderShell("/base", { app: "a", styles: "s", client: "c" });
  assert.match(
    html,
    /<meta name="strata-client" content="\/base\/dashboard\/assets\/client\.js\?v=c">/,
  );
  assert.match(appJs, /await import\(clientSrc\)/);
  assert.match(appJs, /strata\.createClient\(/);
  assert.ok(
    !/\bfetch\(/.test(appJs),
    "the app script calls fetch only through the client",
  );
});
