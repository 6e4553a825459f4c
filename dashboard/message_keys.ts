/**
 * The message keys the dashboard renders, fetched from
 * `GET {base}/messages/dashboard/{language}`. Every catalog that translates
 * the dashboard should define each of them.
 *
 * @module
 */

/**
 * Every key the dashboard looks up, as the messages route names them. The
 * placeholders: `pageOf` takes `{page}` and `{lastPage}`, `records` takes
 * `{count}` (plural), `signedInAs` takes `{email}`.
 *
 * @example
 * ```ts
 * import { dashboardMessageKeys } from "./message_keys.ts";
 * const missing = dashboardMessageKeys.filter((key) => !(key in {}));
 * ```
 */
export const dashboardMessageKeys: readonly string[] = Object.freeze([
  "dashboard.signIn",
  "dashboard.signOut",
  "dashboard.email",
  "dashboard.password",
  "dashboard.rememberMe",
  "dashboard.installTitle",
  "dashboard.installIntro",
  "dashboard.installSubmit",
  "dashboard.account",
  "dashboard.language",
  "dashboard.contentLanguage",
  "dashboard.timezone",
  "dashboard.dateFormat",
  "dashboard.timeFormat",
  "dashboard.smartClipboard",
  "dashboard.newPassword",
  "dashboard.save",
  "dashboard.saved",
  "dashboard.create",
  "dashboard.edit",
  "dashboard.delete",
  "dashboard.confirmDelete",
  "dashboard.filter",
  "dashboard.applyFilter",
  "dashboard.clearFilter",
  "dashboard.previous",
  "dashboard.next",
  "dashboard.pageOf",
  "dashboard.records",
  "dashboard.collections",
  "dashboard.noAccess",
  "dashboard.locale",
  "dashboard.signedInAs",
  "dashboard.loading",
  "dashboard.error",
  "dashboard.sortAscending",
  "dashboard.sortDescending",
  "dashboard.cancel",
  "dashboard.fieldRequired",
  "dashboard.close",
  "dashboard.notFound",
  "dashboard.actions",
]);
