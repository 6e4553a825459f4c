// Which app the auth helpers act for: the app handling the current request, else the app
// that most recently set the auth layer up (field types also run in seed scripts and tests,
// outside any request, and still need the app's password options and roles).
import { currentEvent } from "../router/event.ts";
import type { App } from "../app/create_app.ts";
import { type AuthSettings, resolveAuthSettings } from "./settings.ts";

const settingsByApp = new WeakMap<App, AuthSettings>();
let lastApp: WeakRef<App> | undefined;

/** Records the validated settings of an app whose auth layer was set up. */
export function registerApp(app: App, settings: AuthSettings): void {
  settingsByApp.set(app, settings);
  lastApp = new WeakRef(app);
}

/** The app handling the current request, or `undefined` outside one. */
export function ambientApp(): App | undefined {
  return (currentEvent() as { owner?: unknown } | undefined)?.owner as
    | App
    | undefined;
}

/** The ambient app, else the app set up last; `undefined` when there is none. */
export function currentApp(): App | undefined {
  return ambientApp() ?? lastApp?.deref();
}

/** The ambient app, else the app set up last; throws when there is none. */
export function requireApp(): App {
  const app = currentApp();
  if (!app) {
    throw new Error(
      "No app with the auth layer is running: call this inside a request",
    );
  }
  return app;
}

/** The auth settings of `app` (validated once at boot). */
export function settingsOf(app: App): AuthSettings {
  let settings = settingsByApp.get(app);
  if (!settings) {
    settings = resolveAuthSettings(app.config.auth);
    settingsByApp.set(app, settings);
  }
  return settings;
}
