/**
 * `authLayer()`: the base layer that adds users, sessions, the `/auth` endpoints, the
 * `admin` role, the `auth` and `require-auth` middleware, the CSRF check and the auth
 * field types. Without it none of these exist.
 *
 * @module
 */
import { defineLayer, type Layer } from "../app/layer.ts";
import type { App } from "../app/create_app.ts";
import { defineRole } from "./capabilities.ts";
import { resolveAuthSettings } from "./settings.ts";
import { registerApp } from "./_state.ts";
import { ensureAuthTables } from "./_tables.ts";
import { authFieldTypes } from "./field_types.ts";
import { usersDefinition } from "./users.ts";
import { sessionsDefinition } from "./sessions.ts";
import {
  authMiddleware,
  csrfMiddleware,
  requireAuthMiddleware,
} from "./middleware.ts";
import { defaultAccountFields } from "./account_fields.ts";
import { principalHook } from "./principal.ts";
import { userLanguageHook } from "./user_language.ts";
import { loginRoute } from "./routes/login.ts";
import { logoutOthersRoute, logoutRoute } from "./routes/logout.ts";
import { meRoute, updateMeRoute } from "./routes/me.ts";
import {
  ADMIN_ROLE,
  installRoute,
  installStatusRoute,
} from "./routes/install.ts";
import { collectionsRoute, dashboardRoutes } from "../dashboard/mod.ts";

/**
 * Name of the global CSRF middleware. Global middleware run sorted by name; `~` sorts
 * after letters and digits, so a CORS middleware with an ordinary name (`cors`) has
 * already admitted credentialed origins when the check runs.
 */
export const CSRF_MIDDLEWARE_NAME = "~auth-csrf";

async function setup(app: App): Promise<void> {
  const settings = resolveAuthSettings(app.config.auth);
  for (const name of ["Users", "Sessions"]) {
    if (!app.data.collections.has(name)) {
      throw new Error(`The auth layer needs the ${name} collection`);
    }
  }
  registerApp(app, settings);
  await ensureAuthTables(app);
}

/**
 * The auth layer. Stack it in `strata.config.ts`; its `auth` config section is validated
 * at boot (a bad value fails the boot with a message naming the key).
 *
 * @example
 * ```ts
 * // strata.config.ts
 * import { defineConfig } from "@strata/strata";
 * import { authLayer } from "@strata/strata/auth";
 * export default defineConfig({
 *   layers: [authLayer()],
 *   auth: { sessionMaxAge: "14d", cookieName: "sid" },
 * });
 * ```
 */
export function authLayer(): Layer {
  return defineLayer({
    name: "auth",
    routes: {
      "auth/login.post.ts": loginRoute,
      "auth/logout.post.ts": logoutRoute,
      "auth/logout/others.post.ts": logoutOthersRoute,
      "auth/me.get.ts": meRoute,
      "auth/me.patch.ts": updateMeRoute,
      "auth/install.get.ts": installStatusRoute,
      "auth/install.post.ts": installRoute,
      ...dashboardRoutes(),
      "dashboard/api/collections.get.ts": collectionsRoute,
    },
    collections: { Users: usersDefinition, Sessions: sessionsDefinition },
    middleware: {
      auth: authMiddleware,
      "require-auth": requireAuthMiddleware,
    },
    globalMiddleware: { [CSRF_MIDDLEWARE_NAME]: csrfMiddleware },
    roles: { [ADMIN_ROLE]: defineRole({ capabilities: ["*"] }) },
    hooks: [defaultAccountFields, principalHook, userLanguageHook],
    fieldTypes: authFieldTypes,
    setup,
  });
}
