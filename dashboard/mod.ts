/**
 * The dashboard: a single-page app (install, sign-in, account, collections
 * browser) served under `/dashboard`. Its HTML, script and styles ship as
 * string modules because the package may be imported from a URL and can
 * never read its own files.
 *
 * @module
 */
import type { HandlerDefinition } from "../router/handler.ts";
import { appJs } from "./assets/app_js.ts";
import { stylesCss } from "./assets/styles_css.ts";
import { clientJs } from "./assets/client_js.ts";
import { assetRoute } from "./_asset.ts";
import { shellRoute } from "./_shell.ts";

export { dashboardMessageKeys } from "./message_keys.ts";
export {
  collectionsRoute,
  type DashboardCollection,
  type DashboardField,
  type DashboardOperations,
  readableCollections,
} from "./collections_route.ts";
export {
  MAX_PERMISSION_UUIDS,
  permissionsRoute,
  type RecordPermissions,
  recordPermissions,
} from "./permissions_route.ts";

/**
 * The dashboard's routes, keyed by route file path relative to the api
 * folder, for a manifest layer: the HTML shell for `/dashboard` and every
 * `/dashboard/...` page (with a strict content-security-policy and the
 * `api.basePath` injected as `<meta name="strata-base">`), and the script, the
 * bundled client (`@strata/strata/client`, through which the dashboard makes
 * every request) and the style sheet under `/dashboard/assets/` (ETag, 304 on
 * `If-None-Match`).
 * `dashboard/api/collections.get.ts` ({@link collectionsRoute}) is not among
 * them: it needs the signed-in user, so the auth layer registers it.
 *
 * @example
 * ```ts
 * import { defineLayer } from "../app/layer.ts";
 * import { dashboardRoutes } from "./mod.ts";
 * const layer = defineLayer({ name: "dashboard", routes: dashboardRoutes() });
 * ```
 */
export function dashboardRoutes(): Record<string, HandlerDefinition> {
  const app = assetRoute(appJs, "text/javascript; charset=utf-8");
  const styles = assetRoute(stylesCss, "text/css; charset=utf-8");
  const client = assetRoute(clientJs, "text/javascript; charset=utf-8");
  const shell = shellRoute({
    app: app.version,
    styles: styles.version,
    client: client.version,
  });
  return {
    "dashboard/index.get.ts": shell,
    "dashboard/[...path].get.ts": shell,
    "dashboard/assets/app.js.get.ts": app.handler,
    "dashboard/assets/styles.css.get.ts": styles.handler,
    "dashboard/assets/client.js.get.ts": client.handler,
  };
}
