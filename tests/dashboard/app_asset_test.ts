// The served dashboard script is the bundle of dashboard/client/: CI fails while the
// checked-in asset is stale (run `deno task dashboard-asset`).
import assert from "node:assert/strict";
import { appJs } from "../../dashboard/assets/app_js.ts";
import { ASSET_FILE, bundleApp, GENERATED_LINE } from "./app_asset.ts";

Deno.test("the dashboard script asset matches dashboard/client (run deno task dashboard-asset)", async () => {
  assert.equal(appJs, await bundleApp());
});

Deno.test("the asset's first line says it is generated, from what and by which task", async () => {
  const text = await Deno.readTextFile(ASSET_FILE);
  assert.equal(text.split("\n")[0], GENERATED_LINE);
});
