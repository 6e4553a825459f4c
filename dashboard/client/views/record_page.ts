/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// A record's own page (`/dashboard/collections/<path>/<uuid>`): linkable, reloadable, its full
// UUID shown and copyable, a locale selector kept in the URL (`?locale=de`) with the default
// locale's values beside each translatable input on request, and a guard against leaving with
// unsaved changes.
import { h, nextId } from "../dom.ts";
import type { Dashboard, View } from "../context.ts";
import type { Collection, Route, WireRecord } from "../types.ts";
import { pickLocale } from "../routes.ts";
import { recordName } from "../names.ts";
import { errorBox } from "../forms.ts";
import { collectionsLayout, collectionUrl } from "./collection.ts";
import { loadRecord, recordForm } from "./record_form.ts";

/** `/dashboard/collections/<path>/<uuid>`. */
export async function viewRecord(
  app: Dashboard,
  route: Route,
  current: () => boolean,
): Promise<View | null> {
  const t = app.t;
  if (!(await app.requireSignedIn())) return null;
  const collections = await app.loadCollections();
  if (route.name !== "record") return null;
  const collection = collections.find(function (item) {
    return item.path === route.path;
  });
  if (!collection) {
    return {
      title: t("noAccess"),
      content: collectionsLayout(app, collections, null, [
        h("h1", { tabindex: "-1" }, t("noAccess")),
      ]),
    };
  }
  const params = new URLSearchParams(location.search);
  const locale = collection.translatable
    ? pickLocale(
      collection,
      params.get("locale") || "",
      app.signedInUser().contentLanguage,
    )
    : "";
  const defaultLocale = collection.locales[0] ?? "";
  const showDefault = params.get("beside") === "1" && locale !== defaultLocale;
  const response = await loadRecord(app, collection, route.uuid, locale);
  const beside = showDefault && response.ok
    ? await loadRecord(app, collection, route.uuid, defaultLocale)
    : null;
  if (!current()) return null;
  const back = h("a", {
    href: collectionUrl(app, collection),
    class: "back",
    "data-testid": "back-to-list",
  }, t("backTo", { collection: collection.label }));
  if (!response.ok) {
    return {
      title: collection.label,
      content: collectionsLayout(app, collections, collection, [
        back,
        h("h1", { tabindex: "-1" }, t("notFound")),
        errorBox(app.errorText(response)),
      ]),
    };
  }
  const record = response.data as WireRecord;
  const name = recordName(collection, record, app.settings());
  const uuid = String(record.UUID);
  const editable = collection.operations.update;
  const { form, dirty } = recordForm(
    app,
    collection,
    record,
    uuid,
    locale,
    function (saved) {
      app.state.dirty = null;
      if (saved) {
        app.state.focus = "h1";
        app.render();
      } else {
        app.navigate(collectionUrl(app, collection));
      }
    },
    beside?.ok ? beside.data as WireRecord : null,
  );
  if (!editable) {
    for (
      const element of form.querySelectorAll<HTMLInputElement>(
        "input, select, textarea, button[type=submit]",
      )
    ) {
      element.disabled = true;
    }
  }
  app.state.dirty = dirty;
  const copyId = nextId("uuid-");
  const copyStatus = h("span", { class: "saved", role: "status" });
  const idRow = h(
    "div",
    { class: "record-id" },
    h("span", { class: "record-id-label", id: copyId }, t("recordId")),
    h(
      "code",
      { "data-testid": "record-uuid", "aria-labelledby": copyId },
      uuid,
    ),
    h("button", {
      type: "button",
      class: "button button-small",
      "data-testid": "copy-uuid",
      onclick: async function () {
        try {
          await navigator.clipboard.writeText(uuid);
          copyStatus.textContent = t("copied");
        } catch {
          // No clipboard (plain HTTP): select the text so that a copy shortcut takes it.
          const code = idRow.querySelector("code");
          if (code) getSelection()?.selectAllChildren(code);
        }
      },
    }, t("copy")),
    copyStatus,
  );
  const localeBar = collection.translatable && collection.locales.length > 1
    ? localeControls(app, collection, locale, defaultLocale, showDefault)
    : null;
  return {
    title: name + " · " + collection.label,
    content: collectionsLayout(app, collections, collection, [
      back,
      h("h1", { tabindex: "-1", "data-testid": "record-title" }, name),
      idRow,
      localeBar,
      h("section", { class: "card record-card" }, form),
    ]),
  };
}

function localeControls(
  app: Dashboard,
  collection: Collection,
  locale: string,
  defaultLocale: string,
  showDefault: boolean,
): HTMLElement {
  const t = app.t;
  const go = function (patch: Record<string, string | null>): void {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    app.navigate(location.pathname + (search ? "?" + search : ""), {
      focus: "[data-testid=record-locale]",
    });
  };
  const selectId = nextId("record-locale-");
  const select = h(
    "select",
    { id: selectId, "data-testid": "record-locale" },
    collection.locales.map(function (code) {
      return h("option", { value: code, selected: code === locale }, code);
    }),
  );
  select.addEventListener("change", function () {
    go({ locale: select.value });
  });
  const besideId = nextId("beside-");
  return h(
    "div",
    { class: "toolbar record-locale" },
    h(
      "div",
      { class: "locale" },
      h("label", { for: selectId }, t("locale")),
      select,
    ),
    locale !== defaultLocale
      ? h(
        "div",
        { class: "field field-check" },
        h("input", {
          type: "checkbox",
          role: "switch",
          class: "switch",
          id: besideId,
          checked: showDefault,
          "data-testid": "show-default",
          onchange: function (event: Event) {
            go({
              beside: (event.target as HTMLInputElement).checked ? "1" : null,
            });
          },
        }),
        h(
          "label",
          { for: besideId },
          t("showDefault", { locale: defaultLocale }),
        ),
      )
      : null,
  );
}
