/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The account page: dashboard language, content language, time zone, date and time formats,
// and a new password.
import { h, nextId } from "../dom.ts";
import { type Dashboard, Redirected, type View } from "../context.ts";
import type { Collection, User } from "../types.ts";
import { fieldErrors } from "../values.ts";
import { formatSample } from "../format.ts";
import { securitySections } from "./security.ts";
import {
  clearErrors,
  type FieldRow,
  fieldRow,
  formAlert,
  onSubmit,
  showErrors,
} from "../forms.ts";
import {
  DATE_PATTERNS,
  TIME_PATTERNS,
} from "../../../auth/types/date_formats.ts";

/** Dashboard languages offered on the account page (more may be configured). */
export const dashboardLanguages: readonly string[] = Object.freeze([
  "en",
  "de",
]);

/** The formats an account accepts: the field type that validates them lists them. */
export const FORMAT_CHOICES: Readonly<
  Record<"date" | "time", readonly string[]>
> = Object.freeze({ date: DATE_PATTERNS, time: TIME_PATTERNS });

/** `/dashboard/account`. */
export async function viewAccount(app: Dashboard): Promise<View | null> {
  const t = app.t;
  if (!(await app.requireSignedIn())) return null;
  const user = app.signedInUser();
  let collections: Collection[] = [];
  try {
    collections = await app.loadCollections();
  } catch (error) {
    if (error instanceof Redirected) throw error;
  }
  const languages = dashboardLanguages.slice();
  if (user.dashboardLanguage && !languages.includes(user.dashboardLanguage)) {
    languages.push(user.dashboardLanguage);
  }
  const base = app.state.language.split("-")[0];
  const shownLanguage = user.dashboardLanguage ||
    (languages.includes(base) ? base : "en");
  const language = fieldRow({
    name: "dashboardLanguage",
    label: t("language"),
    control: "select",
    value: shownLanguage,
    options: languages.map(function (code) {
      return { value: code, label: languageName(code) };
    }),
  });
  const locales: string[] = [];
  for (const collection of collections) {
    for (const code of collection.locales || []) {
      if (!locales.includes(code)) locales.push(code);
    }
  }
  const listId = nextId("content-locales-");
  const contentLanguage = fieldRow({
    name: "contentLanguage",
    label: t("contentLanguage"),
    value: user.contentLanguage || "",
    list: listId,
    spellcheck: "false",
    extra: h(
      "datalist",
      { id: listId },
      locales.map(function (code) {
        return h("option", { value: code });
      }),
    ),
  });
  const zones = timeZones();
  if (user.timezone && !zones.includes(user.timezone)) {
    zones.unshift(user.timezone);
  }
  const timezone = fieldRow({
    name: "timezone",
    label: t("timezone"),
    control: "select",
    value: user.timezone || "UTC",
    options: zones.map(function (zone) {
      return { value: zone, label: zone };
    }),
  });
  const now = new Date();
  // The formats the account accepts, each shown as it renders now (a select: no format the
  // server would refuse can be typed).
  const formatRow = function (
    name: string,
    kind: "date" | "time",
    value: string,
  ): FieldRow {
    const choices = FORMAT_CHOICES[kind].slice();
    if (value && !choices.includes(value)) choices.unshift(value);
    return fieldRow({
      name: name,
      label: t(name),
      control: "select",
      value: value,
      options: choices.map(function (pattern) {
        return {
          value: pattern,
          label: pattern + " (" +
            formatSample(kind, pattern, now, app.settings()) + ")",
        };
      }),
    });
  };
  const dateFormat = formatRow("dateFormat", "date", user.dateFormat || "LL");
  const timeFormat = formatRow("timeFormat", "time", user.timeFormat || "LTS");
  const password = fieldRow({
    name: "password",
    label: t("newPassword"),
    type: "password",
    autocomplete: "new-password",
  });
  const rows = [
    language,
    contentLanguage,
    timezone,
    dateFormat,
    timeFormat,
    password,
  ];
  const initial = new Map(rows.map(function (row) {
    return [row.name, readAccountRow(row)];
  }));
  const savedText = app.state.flash === "saved" ? t("saved") : "";
  app.state.flash = null;
  const savedStatus = h("p", {
    class: "saved",
    role: "status",
    "data-testid": "saved-status",
  }, savedText);
  const form = h(
    "form",
    { class: "form", "data-testid": "account-form" },
    rows.map(function (row) {
      return row.element;
    }),
    formAlert(),
    h(
      "div",
      { class: "actions" },
      savedStatus,
      h("button", {
        type: "submit",
        class: "button button-primary",
        "data-testid": "save-account",
      }, t("save")),
    ),
  );
  onSubmit(app, form, async function () {
    savedStatus.textContent = "";
    const body: Record<string, unknown> = {};
    for (const row of rows) {
      const value = readAccountRow(row);
      if (row.name === "password" && value === "") continue;
      if (value !== initial.get(row.name)) body[row.name] = value;
    }
    if (Object.keys(body).length === 0) {
      clearErrors(form);
      savedStatus.textContent = t("saved");
      return;
    }
    const response = await app.api("PATCH", "/auth/me", {
      body: body,
      auth: true,
    });
    if (response.status === 200 && response.data) {
      app.state.user = response.data as User;
      app.state.flash = "saved";
      app.state.focus = "[data-testid=save-account]";
      app.render();
    } else {
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  return {
    title: t("account"),
    content: [
      h(
        "section",
        { class: "card card-medium" },
        h("h1", { tabindex: "-1" }, t("account")),
        h("p", { class: "intro", "data-testid": "account-email" }, user.email),
        form,
      ),
      ...await securitySections(app, user),
    ],
  };
}

function readAccountRow(row: FieldRow): string | boolean | null {
  const input = row.input;
  if (input instanceof HTMLInputElement && input.type === "checkbox") {
    return input.checked;
  }
  if (row.name === "contentLanguage") return input.value.trim() || null;
  if (row.name === "password") return input.value;
  return input.value.trim();
}

function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name && name !== code ? name + " (" + code + ")" : code;
  } catch {
    return code;
  }
}

function timeZones(): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf("timeZone").slice();
  } catch {
    zones = [];
  }
  if (!zones.includes("UTC")) zones.unshift("UTC");
  return zones;
}
