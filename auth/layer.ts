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
import { ensureSessionVersion } from "./_session_version.ts";
import { authFieldTypes } from "./field_types.ts";
import { usersDefinition } from "./users.ts";
import { sessionsDefinition } from "./sessions.ts";
import {
  authMiddleware,
  csrfMiddleware,
  requireAuthMiddleware,
} from "./middleware.ts";
import { defaultAccountFields } from "./account_fields.ts";
import {
  actorHook,
  principalHook,
  streamAliveHook,
  streamSubjectHook,
} from "./principal.ts";
import {
  USER_LANGUAGE_MIDDLEWARE_NAME,
  userLanguageHook,
  userLanguageMiddleware,
} from "./user_language.ts";
import { loginRoute } from "./routes/login.ts";
import { logoutOthersRoute, logoutRoute } from "./routes/logout.ts";
import { meRoute, updateMeRoute } from "./routes/me.ts";
import {
  ADMIN_ROLE,
  installRoute,
  installStatusRoute,
} from "./routes/install.ts";
import {
  collectionsRoute,
  dashboardRoutes,
  permissionsRoute,
} from "../dashboard/mod.ts";
import { signupRoute, signupStatusRoute } from "./routes/signup.ts";
import { verifyRequestRoute, verifyRoute } from "./routes/verify.ts";
import { forgotRoute, resetRoute } from "./routes/password.ts";
import { emailChangeRoute, emailConfirmRoute } from "./routes/email.ts";
import { registerAccountMails } from "./_mails.ts";
import { createTokenRoute } from "./routes/tokens.ts";
import {
  totpDisableRoute,
  totpEnableRoute,
  totpSetupRoute,
  totpStatusRoute,
} from "./routes/totp.ts";
import { apiTokensDefinition } from "./api_tokens.ts";
import type { ResolvedConfig } from "../app/config.ts";

/** The types of the auth layer's collections in the registry `strata types` writes. */
export const AUTH_COLLECTION_TYPES: Readonly<Record<string, string>> = Object
  .freeze({
    Users: 'typeof import("@strata/strata/auth").usersDefinition',
    Sessions: 'typeof import("@strata/strata/auth").sessionsDefinition',
    ApiTokens: 'typeof import("@strata/strata/auth").apiTokensDefinition',
  });

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
  if (settings.signup !== false) {
    for (const role of settings.signup.roles) {
      if (!app.layers.roles.has(role)) {
        throw new Error(
          `Invalid config: auth.signup.roles names the role "${role}", which no layer defines`,
        );
      }
    }
  }
  registerApp(app, settings);
  await ensureAuthTables(app);
  await ensureSessionVersion(app);
  registerAccountMails(app);
}

const SIGNUP_ROUTES = ["auth/signup.post.ts", "auth/signup.get.ts"];

/** Sign-up exists only when `auth.signup` turns it on. */
function omitRoutes(config: ResolvedConfig): string[] {
  return resolveAuthSettings(config.auth).signup === false ? SIGNUP_ROUTES : [];
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
      "auth/signup.post.ts": signupRoute,
      "auth/signup.get.ts": signupStatusRoute,
      "auth/verify/request.post.ts": verifyRequestRoute,
      "auth/verify.post.ts": verifyRoute,
      "auth/password/forgot.post.ts": forgotRoute,
      "auth/password/reset.post.ts": resetRoute,
      "auth/email/change.post.ts": emailChangeRoute,
      "auth/email/confirm.post.ts": emailConfirmRoute,
      "auth/tokens.post.ts": createTokenRoute,
      "auth/totp.get.ts": totpStatusRoute,
      "auth/totp/setup.post.ts": totpSetupRoute,
      "auth/totp/enable.post.ts": totpEnableRoute,
      "auth/totp/disable.post.ts": totpDisableRoute,
      ...dashboardRoutes(),
      "dashboard/api/collections.get.ts": collectionsRoute,
      "dashboard/api/collections/[collection]/permissions.get.ts":
        permissionsRoute,
    },
    collections: {
      Users: usersDefinition,
      Sessions: sessionsDefinition,
      ApiTokens: apiTokensDefinition,
    },
    collectionTypes: AUTH_COLLECTION_TYPES,
    middleware: {
      auth: authMiddleware,
      "require-auth": requireAuthMiddleware,
    },
    globalMiddleware: {
      [CSRF_MIDDLEWARE_NAME]: csrfMiddleware,
      [USER_LANGUAGE_MIDDLEWARE_NAME]: userLanguageMiddleware,
    },
    roles: { [ADMIN_ROLE]: defineRole({ capabilities: ["*"] }) },
    hooks: [
      defaultAccountFields,
      principalHook,
      actorHook,
      streamAliveHook,
      streamSubjectHook,
      userLanguageHook,
    ],
    fieldTypes: authFieldTypes,
    omitRoutes,
    setup,
  });
}
