/**
 * The `auth:account-fields` hook: which fields `PATCH /auth/me` accepts. Each registered
 * function receives the list so far and returns the new list; the auth layer's own
 * function (the furthest) adds the defaults, so an app's hook sees them:
 *
 * ```ts
 * // hooks/account_fields.ts: let users edit their nickname, but not the clipboard setting
 * import { hook } from "@strata/strata";
 * export default hook("auth:account-fields", (fields: string[]) =>
 *   [...fields.filter((f) => f !== "smartClipboard"), "nickname"]
 * );
 * ```
 *
 * `email` and `roles` are refused whatever the hooks return: they are changed by an
 * administrator through `/collections/users`.
 *
 * @module
 */
import type { App } from "../app/create_app.ts";
import { hook, type HookRegistration } from "../app/hooks.ts";

/** The hook's name. */
export const ACCOUNT_FIELDS_HOOK = "auth:account-fields";

/** A function registered on {@link ACCOUNT_FIELDS_HOOK}. */
export type AccountFieldsHook = (fields: string[]) => string[];

/** What `PATCH /auth/me` accepts by default. */
export const DEFAULT_ACCOUNT_FIELDS: readonly string[] = Object.freeze([
  "dashboardLanguage",
  "contentLanguage",
  "timezone",
  "dateFormat",
  "timeFormat",
  "smartClipboard",
  "password",
]);

/** Never accepted by `PATCH /auth/me`. */
export const FORBIDDEN_ACCOUNT_FIELDS: ReadonlySet<string> = new Set([
  "email",
  "roles",
]);

/**
 * The auth layer's registration: appends the defaults.
 *
 * @example
 * ```ts ignore
 * defineLayer({ name: "auth", hooks: [defaultAccountFields] });
 * ```
 */
export const defaultAccountFields: HookRegistration = hook(
  ACCOUNT_FIELDS_HOOK,
  ((fields: string[]) => [
    ...fields,
    ...DEFAULT_ACCOUNT_FIELDS.filter((f) => !fields.includes(f)),
  ]) as AccountFieldsHook,
);

const cache = new WeakMap<App, ReadonlySet<string>>();

/**
 * The fields `PATCH /auth/me` accepts in `app`: the hooks applied in layer order.
 *
 * @example
 * ```ts ignore
 * accountFields(app).has("timezone"); // true
 * ```
 */
export function accountFields(app: App): ReadonlySet<string> {
  let fields = cache.get(app);
  if (!fields) {
    let list: string[] = [];
    for (const fn of app.hooks(ACCOUNT_FIELDS_HOOK)) {
      const next = (fn as unknown as AccountFieldsHook)([...list]);
      if (!Array.isArray(next) || next.some((f) => typeof f !== "string")) {
        throw new TypeError(
          `A "${ACCOUNT_FIELDS_HOOK}" hook must return an array of field names`,
        );
      }
      list = next;
    }
    fields = new Set(list.filter((f) => !FORBIDDEN_ACCOUNT_FIELDS.has(f)));
    cache.set(app, fields);
  }
  return fields;
}
