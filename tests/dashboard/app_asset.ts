// Builds dashboard/assets/app_js.ts: the dashboard's client (the TypeScript modules under
// dashboard/client/) bundled for browsers, because the package never reads its own files at
// run time. `deno task dashboard-asset` rewrites it; tests/dashboard/app_asset_test.ts fails
// while the asset and dashboard/client/ disagree.
import { bundleEntry, REPO_ROOT } from "./_bundle.ts";

/** The file the asset lives in. */
export const ASSET_FILE = `${REPO_ROOT}dashboard/assets/app_js.ts`;

/** The first line of the asset: what it is generated from, and by what. */
export const GENERATED_LINE =
  "// Generated from dashboard/client by deno task dashboard-asset — do not edit";

/** dashboard/client/main.ts bundled as one ES module. */
export function bundleApp(): Promise<string> {
  return bundleEntry("dashboard/client/main.ts");
}

/** The text of dashboard/assets/app_js.ts for a bundle. */
export function assetModule(bundle: string): string {
  return `${GENERATED_LINE}
/**
 * The dashboard's client script, served at \`/dashboard/assets/app.js\`: the modules under
 * dashboard/client/ bundled into one ES module (\`deno task dashboard-asset\`), held as a
 * string because the package may be imported from a URL and can never read its own files.
 *
 * @module
 */

/** The JavaScript source of the dashboard's client module. */
export const appJs: string = ${JSON.stringify(bundle)};
`;
}

if (import.meta.main) {
  await Deno.writeTextFile(ASSET_FILE, assetModule(await bundleApp()));
  console.log(`Wrote ${ASSET_FILE}`);
}
