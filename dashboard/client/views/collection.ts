/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The collections browser: the sidebar of collections, a collection's records as a sortable,
// filterable, paged table, and deleting a record.
import { type Child, h, nextId } from "../dom.ts";
import { type Dashboard, Redirected, type View } from "../context.ts";
import type {
  Answer,
  Collection,
  ErrorBody,
  Field,
  ListEnvelope,
  ListState,
  Route,
  WireRecord,
} from "../types.ts";
import {
  fieldKind,
  fieldLabel,
  isRelation,
  isSortable,
  listColumns,
  searchableFields,
} from "../fields.ts";
import { recordName, relationText } from "../names.ts";
import {
  listQuery,
  listSearch,
  nextOrder,
  pickLocale,
  readListState,
} from "../routes.ts";
import { formatCell } from "../format.ts";
import { errorBox } from "../forms.ts";
import { confirmDialog } from "../dialogs.ts";
import { openRecordDialog } from "./record_form.ts";
import { filterBar, filterNames } from "./filter_bar.ts";

/** `/dashboard`: the first readable collection, or a note that there is none. */
export async function viewHome(app: Dashboard): Promise<View | null> {
  if (!(await app.requireSignedIn())) return null;
  const collections = await app.loadCollections();
  if (collections.length > 0) {
    // The server lists the app's own collections first.
    app.navigate(collectionUrl(app, collections[0]), { replace: true });
    return null;
  }
  return {
    title: app.t("collections"),
    content: collectionsLayout(app, collections, null, [
      h("h1", { tabindex: "-1" }, app.t("collections")),
      h("p", { class: "empty", "data-testid": "no-access" }, app.t("noAccess")),
    ]),
  };
}

export function collectionUrl(app: Dashboard, collection: Collection): string {
  return app.root + "/collections/" + encodeURIComponent(collection.path);
}

/** The URL of a record's page. */
export function recordUrl(
  app: Dashboard,
  collection: Collection,
  uuid: string,
): string {
  return collectionUrl(app, collection) + "/" + encodeURIComponent(uuid);
}

export function collectionsLayout(
  app: Dashboard,
  collections: readonly Collection[],
  active: Collection | null,
  content: Child,
): HTMLElement {
  const nav = h(
    "nav",
    {
      class: "sidebar",
      "aria-labelledby": "collections-heading",
      "data-testid": "collection-nav",
    },
    h(
      "h2",
      { id: "collections-heading", class: "sidebar-title" },
      app.t("collections"),
    ),
    h(
      "ul",
      {},
      collections.map(function (collection) {
        return h(
          "li",
          {},
          h("a", {
            href: collectionUrl(app, collection),
            "aria-current": collection === active ? "page" : null,
            "data-testid": "collection-link-" + collection.path,
          }, collection.label),
        );
      }),
    ),
  );
  return h(
    "div",
    { class: "layout" },
    nav,
    h("section", { class: "content" }, content),
  );
}

/** `/dashboard/collections/<path>`: one collection's records. */
export async function viewCollection(
  app: Dashboard,
  route: Route,
  current: () => boolean,
): Promise<View | null> {
  if (!(await app.requireSignedIn())) return null;
  const collections = await app.loadCollections();
  const collection = route.name === "collection"
    ? collections.find(function (item) {
      return item.path === route.path;
    })
    : undefined;
  if (!collection) {
    return {
      title: app.t("noAccess"),
      content: collectionsLayout(app, collections, null, [
        h("h1", { tabindex: "-1" }, app.t("noAccess")),
      ]),
    };
  }
  const listState = readListState(location.search);
  const locale = collection.translatable
    ? pickLocale(
      collection,
      listState.locale,
      app.signedInUser().contentLanguage,
    )
    : "";
  const columns = chosenColumns(app, collection);
  const response = await app.api("GET", "/collections/" + collection.path, {
    query: listQuery(
      collection,
      listState,
      locale,
      populated(collections, columns),
    ),
    auth: true,
  });
  if (!current()) return null;
  const data = response.data as ListEnvelope | null;
  const envelope = response.status === 200 && data &&
      Array.isArray(data.records)
    ? data
    : null;
  if (
    envelope && envelope.records.length === 0 && listState.page > 1 &&
    envelope.lastPage < listState.page
  ) {
    const last = { ...listState, page: Math.max(1, envelope.lastPage) };
    app.navigate(location.pathname + listSearch(last), { replace: true });
    return null;
  }
  const allowed = envelope
    ? await recordPermissions(app, collection, envelope.records)
    : new Map<string, Allowed>();
  const names = await filterNames(app, collection, listState.filters || []);
  if (!current()) return null;
  const flash = app.state.flash;
  app.state.flash = null;
  const content = [
    h(
      "h1",
      { tabindex: "-1", "data-testid": "collection-title" },
      collection.label,
    ),
    collection.description
      ? h(
        "p",
        { class: "intro", "data-testid": "collection-description" },
        collection.description,
      )
      : null,
    flash ? errorBox(flash) : null,
    collectionToolbar(app, collection, listState, locale),
    filterBar(app, collection, listState, names, function (patch, focus) {
      goList(app, listState, patch, focus);
    }),
    envelope
      ? recordsTable(
        app,
        collection,
        envelope,
        listState,
        locale,
        allowed,
        columns,
      )
      : errorBox(app.errorText(response)),
    envelope ? pagination(app, envelope, listState) : null,
  ];
  return {
    title: collection.label,
    content: collectionsLayout(app, collections, collection, content),
  };
}

/** Whether the user may update and delete one record. */
interface Allowed {
  readonly update: boolean;
  readonly delete: boolean;
}

// Edit and Delete follow the permissions of each record (guard and access scope), asked of
// the server in one request per page.
async function recordPermissions(
  app: Dashboard,
  collection: Collection,
  records: readonly WireRecord[],
): Promise<Map<string, Allowed>> {
  const out = new Map<string, Allowed>();
  const ops = collection.operations;
  if (records.length === 0 || (!ops.update && !ops.delete)) return out;
  const uuids = records.map(function (record) {
    return String(record.UUID);
  });
  const response = await app.api(
    "GET",
    "/dashboard/api/collections/" + collection.path + "/permissions",
    { query: { uuids: uuids.join(",") }, auth: true },
  );
  const answer = response.ok
    ? response.data as Record<string, Allowed> | null
    : null;
  for (const uuid of uuids) {
    const entry = answer?.[uuid];
    out.set(uuid, {
      update: Boolean(ops.update && entry?.update),
      delete: Boolean(ops.delete && entry?.delete),
    });
  }
  return out;
}

// The relation columns whose targets the user may read: populated, so that cells show the
// target's display value.
function populated(
  collections: readonly Collection[],
  columns: readonly Field[],
): string[] {
  return columns.filter(function (field) {
    return isRelation(field) && targetOf(collections, field) !== undefined;
  }).map(function (field) {
    return field.name;
  });
}

function targetOf(
  collections: readonly Collection[],
  field: Field,
): Collection | undefined {
  return collections.find(function (item) {
    return item.name === field.target;
  });
}

function goList(
  app: Dashboard,
  listState: ListState,
  patch: Partial<ListState>,
  focus: string,
): void {
  const next = { ...listState, ...patch };
  app.navigate(location.pathname + listSearch(next), { focus: focus });
}

function collectionToolbar(
  app: Dashboard,
  collection: Collection,
  listState: ListState,
  locale: string,
): HTMLElement {
  const t = app.t;
  const parts: HTMLElement[] = [];
  if (
    collection.search || searchableFields(collection.fields || []).length > 0
  ) {
    const id = nextId("filter-");
    const input = h("input", {
      id: id,
      type: "search",
      value: listState.q,
      "data-testid": "filter-input",
    });
    const form = h(
      "form",
      { class: "filter", role: "search", "data-testid": "filter-form" },
      h("label", { for: id }, t("filter")),
      h(
        "div",
        { class: "filter-row" },
        input,
        h("button", {
          type: "submit",
          class: "button",
          "data-testid": "apply-filter",
        }, t("applyFilter")),
        listState.q
          ? h("button", {
            type: "button",
            class: "button button-quiet",
            "data-testid": "clear-filter",
            onclick: function () {
              goList(
                app,
                listState,
                { q: "", page: 1 },
                "[data-testid=filter-input]",
              );
            },
          }, t("clearFilter"))
          : null,
      ),
    );
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      goList(
        app,
        listState,
        { q: input.value.trim(), page: 1 },
        "[data-testid=filter-input]",
      );
    });
    parts.push(form);
  }
  if (collection.translatable && (collection.locales || []).length > 0) {
    const id = nextId("locale-");
    const select = h(
      "select",
      { id: id, "data-testid": "locale-select" },
      collection.locales.map(function (code) {
        return h("option", { value: code, selected: code === locale }, code);
      }),
    );
    select.addEventListener("change", function () {
      goList(
        app,
        listState,
        { locale: select.value, page: 1 },
        "[data-testid=locale-select]",
      );
    });
    parts.push(
      h(
        "div",
        { class: "locale" },
        h("label", { for: id }, t("locale")),
        select,
      ),
    );
  }
  if (collection.operations && collection.operations.create) {
    parts.push(
      h("button", {
        type: "button",
        class: "button button-primary",
        "data-testid": "create-record",
        onclick: function () {
          openRecordDialog(app, collection, null, locale);
        },
      }, t("create")),
    );
  }
  parts.push(columnChooser(app, collection));
  return h("div", { class: "toolbar" }, parts);
}

// The key under which a user's column choice for a collection is remembered.
function columnsKey(app: Dashboard, collection: Collection): string {
  const user = app.state.user;
  return "strata.dashboard.columns." + (user?.UUID ?? user?.email ?? "") +
    "." + collection.path;
}

function readableColumns(collection: Collection): Field[] {
  return collection.fields.filter(function (field) {
    return field.readable && !field.hidden;
  });
}

// The columns a user chose for a collection (remembered in localStorage per user), else the
// collection's listFields.
function chosenColumns(app: Dashboard, collection: Collection): Field[] {
  let stored: unknown = null;
  try {
    stored = JSON.parse(
      globalThis.localStorage?.getItem(columnsKey(app, collection)) ?? "null",
    );
  } catch {
    stored = null;
  }
  if (Array.isArray(stored)) {
    const fields = readableColumns(collection);
    const chosen = stored.map(function (name) {
      return fields.find(function (field) {
        return field.name === name;
      });
    }).filter(function (field): field is Field {
      return field !== undefined;
    });
    if (chosen.length > 0) return chosen;
  }
  return listColumns(collection);
}

function columnChooser(app: Dashboard, collection: Collection): HTMLElement {
  const shown = new Set(
    chosenColumns(app, collection).map(function (field) {
      return field.name;
    }),
  );
  const fields = readableColumns(collection);
  const boxes = fields.map(function (field) {
    const id = nextId("column-", field.name);
    const box = h("input", {
      type: "checkbox",
      id,
      checked: shown.has(field.name),
      "data-testid": "column-choice-" + field.name,
      "data-name": field.name,
      onchange: function () {
        const inputs = box.closest("fieldset")?.querySelectorAll<
          HTMLInputElement
        >("input[type=checkbox]") ?? [];
        const names = [...inputs].filter(function (input) {
          return input.checked;
        }).map(function (input) {
          return String(input.dataset.name);
        });
        if (names.length === 0) {
          box.checked = true;
          return;
        }
        try {
          globalThis.localStorage?.setItem(
            columnsKey(app, collection),
            JSON.stringify(names),
          );
        } catch {
          // Storage refused (private mode): the choice lasts for this page only.
        }
        app.state.focus = '[data-testid="column-choice-' + field.name + '"]';
        app.state.keepOpen = "columns";
        app.render();
      },
    });
    return h(
      "div",
      { class: "choice" },
      box,
      h("label", { for: id }, fieldLabel(field)),
    );
  });
  const open = app.state.keepOpen === "columns";
  app.state.keepOpen = null;
  return h(
    "details",
    { class: "columns-chooser", open },
    h(
      "summary",
      { class: "button", "data-testid": "choose-columns" },
      app.t("columns"),
    ),
    h(
      "fieldset",
      { class: "choices" },
      h("legend", { class: "visually-hidden" }, app.t("columns")),
      boxes,
    ),
  );
}

// No records: a call to create the first (when allowed), or, when filtered, a way back.
function emptyState(
  app: Dashboard,
  collection: Collection,
  listState: ListState,
  locale: string,
): HTMLElement {
  const t = app.t;
  const filtered = listState.q !== "" || (listState.filters || []).length > 0;
  if (filtered) {
    return h(
      "div",
      { class: "empty-state", "data-testid": "empty-state" },
      h("p", {}, t("noMatches")),
      h("button", {
        type: "button",
        class: "button",
        "data-testid": "clear-filters",
        onclick: function () {
          goList(
            app,
            listState,
            { q: "", filters: [], page: 1 },
            "[data-testid=add-filter]",
          );
        },
      }, t("clearFilter")),
    );
  }
  return h(
    "div",
    { class: "empty-state", "data-testid": "empty-state" },
    h("p", {}, t("emptyCollection", { collection: collection.label })),
    collection.operations.create
      ? h("button", {
        type: "button",
        class: "button button-primary",
        "data-testid": "create-first",
        onclick: function () {
          openRecordDialog(app, collection, null, locale);
        },
      }, t("createFirst"))
      : null,
  );
}

function recordsTable(
  app: Dashboard,
  collection: Collection,
  envelope: ListEnvelope,
  listState: ListState,
  locale: string,
  allowed: ReadonlyMap<string, Allowed>,
  columns: readonly Field[],
): Child {
  const t = app.t;
  const collections = app.state.collections || [];
  const recordActions = collection.actions ?? [];
  const hasActions = recordActions.length > 0 ||
    [...allowed.values()].some(function (entry) {
      return entry.update || entry.delete;
    });
  const order = listState.order || (collection.defaultOrder[0] ?? "");
  const headers = columns.map(function (field) {
    if (!isSortable(field)) {
      return h(
        "th",
        { scope: "col", "data-testid": "column-" + field.name },
        fieldLabel(field),
      );
    }
    const ascending = order === field.name;
    const descending = order === "-" + field.name;
    const sort = ascending ? "ascending" : descending ? "descending" : null;
    return h(
      "th",
      {
        scope: "col",
        "aria-sort": sort,
        "data-testid": "column-" + field.name,
      },
      h(
        "button",
        {
          type: "button",
          class: "sort",
          title: ascending ? t("sortDescending") : t("sortAscending"),
          "data-testid": "sort-" + field.name,
          onclick: function () {
            goList(
              app,
              listState,
              { order: nextOrder(order, field.name), page: 1 },
              '[data-testid="sort-' + field.name + '"]',
            );
          },
        },
        fieldLabel(field),
        h("span", {
          class: "sort-mark" + (sort ? " sort-" + sort : ""),
          "aria-hidden": "true",
        }),
      ),
    );
  });
  if (hasActions) {
    headers.push(
      h(
        "th",
        { scope: "col", class: "actions-head" },
        h("span", { class: "visually-hidden" }, t("actions")),
      ),
    );
  }
  const ctx = app.settings();
  const rows = envelope.records.map(function (record) {
    const uuid = String(record.UUID);
    const label = recordName(collection, record, ctx);
    const may = allowed.get(uuid) ?? { update: false, delete: false };
    // The cell that names the record links to its page.
    const naming = columns.find(function (field) {
      return field.name === collection.displayField;
    }) ?? columns[0];
    const cells = columns.map(function (field) {
      const text = isRelation(field)
        ? relationText(targetOf(collections, field), record[field.name], ctx)
        : formatCell(field, record[field.name], ctx);
      return h(
        "td",
        {
          class: "cell-" + fieldKind(field),
          title: text,
          "data-label": fieldLabel(field),
        },
        field === naming
          ? h("a", {
            href: recordUrl(app, collection, uuid),
            "data-testid": "record-link",
          }, text || label)
          : text,
      );
    });
    if (hasActions) {
      cells.push(
        h(
          "td",
          { class: "row-actions" },
          may.update
            ? h("button", {
              type: "button",
              class: "button button-small",
              "data-testid": "edit-record",
              "data-uuid": uuid,
              "aria-label": t("edit") + ": " + label,
              onclick: function () {
                openRecordDialog(app, collection, uuid, locale);
              },
            }, t("edit"))
            : null,
          may.delete
            ? h("button", {
              type: "button",
              class: "button button-small button-danger",
              "data-testid": "delete-record",
              "data-uuid": uuid,
              "aria-label": t("delete") + ": " + label,
              onclick: function () {
                deleteRecord(app, collection, record);
              },
            }, t("delete"))
            : null,
          recordActions.filter(function (action) {
            return !action.when ||
              action.when.values.includes(String(record[action.when.field]));
          }).map(function (action) {
            return h("button", {
              type: "button",
              class: "button button-small",
              "data-testid": "action-" + action.name,
              "data-uuid": uuid,
              "aria-label": t(action.label) + ": " + label,
              onclick: function () {
                runRecordAction(app, collection, uuid, action.name);
              },
            }, t(action.label));
          }),
        ),
      );
    }
    return h("tr", { "data-testid": "record-row", "data-uuid": uuid }, cells);
  });
  const count = h(
    "p",
    { class: "count", "data-testid": "record-count" },
    t("records", { count: envelope.total }),
  );
  if (envelope.records.length === 0) {
    return [count, emptyState(app, collection, listState, locale)];
  }
  return [
    count,
    h(
      "div",
      {
        class: "table-wrap",
        role: "region",
        tabindex: "0",
        "aria-labelledby": "table-caption",
      },
      h(
        "table",
        { class: "records", "data-testid": "records-table" },
        h(
          "caption",
          { id: "table-caption", class: "visually-hidden" },
          collection.label,
        ),
        h("thead", {}, h("tr", {}, headers)),
        h("tbody", {}, rows),
      ),
    ),
  ];
}

function pagination(
  app: Dashboard,
  envelope: ListEnvelope,
  listState: ListState,
): HTMLElement {
  const t = app.t;
  const page = envelope.page || listState.page;
  const lastPage = Math.max(1, envelope.lastPage || 1);
  return h(
    "nav",
    {
      class: "pagination",
      "aria-label": t("pageOf", { page: page, lastPage: lastPage }),
    },
    h("button", {
      type: "button",
      class: "button",
      "data-testid": "previous-page",
      disabled: page <= 1,
      onclick: function () {
        goList(
          app,
          listState,
          { page: page - 1 },
          "[data-testid=previous-page]",
        );
      },
    }, t("previous")),
    h(
      "span",
      { class: "page-status", "data-testid": "page-status" },
      t("pageOf", { page: page, lastPage: lastPage }),
    ),
    h("button", {
      type: "button",
      class: "button",
      "data-testid": "next-page",
      disabled: page >= lastPage,
      onclick: function () {
        goList(app, listState, { page: page + 1 }, "[data-testid=next-page]");
      },
    }, t("next")),
  );
}

/** POSTs a layer's record action (`/collections/<path>/<uuid>/<name>`), then reloads. */
async function runRecordAction(
  app: Dashboard,
  collection: Collection,
  uuid: string,
  name: string,
): Promise<void> {
  try {
    const response = await app.api(
      "POST",
      "/collections/" + collection.path + "/" + encodeURIComponent(uuid) +
        "/" + encodeURIComponent(name),
      { auth: true },
    );
    if (!response.ok) app.state.flash = app.errorText(response);
  } catch (error) {
    if (error instanceof Redirected) return;
    app.state.flash = app.t("error");
  }
  app.state.focus = "[data-testid=create-record]";
  app.render();
}

async function deleteRecord(
  app: Dashboard,
  collection: Collection,
  record: WireRecord,
): Promise<void> {
  const uuid = String(record.UUID);
  const name = recordName(collection, record, app.settings());
  const selector = '[data-testid=delete-record][data-uuid="' + uuid + '"]';
  if (!(await confirmDialog(app, app.t("confirmDelete")))) {
    const button = app.main.querySelector<HTMLElement>(selector);
    if (button) button.focus();
    return;
  }
  try {
    const response = await app.api(
      "DELETE",
      "/collections/" + collection.path + "/" + encodeURIComponent(uuid),
      { auth: true },
    );
    if (response.ok) {
      app.toast(app.t("deleted", { name }));
    } else if (response.status === 409) {
      app.state.flash = await explainConflict(app, response, uuid, name);
    } else {
      app.state.flash = app.errorText(response);
    }
  } catch (error) {
    if (error instanceof Redirected) return;
    app.state.flash = app.t("error");
  }
  app.state.focus = "[data-testid=create-record]";
  app.render();
}

/**
 * A restricted delete explained: how many records the user may read still reference this
 * one ("3 Comments still reference “Hello”"), else that other records do.
 */
async function explainConflict(
  app: Dashboard,
  response: Answer,
  uuid: string,
  name: string,
): Promise<string> {
  const data = (response.data as ErrorBody | null)?.data;
  const source = (app.state.collections || []).find(function (item) {
    return item.name === data?.collection;
  });
  const field = source?.fields.find(function (item) {
    return item.name === data?.field && item.readable;
  });
  if (source && field) {
    const where = field.kind === "records"
      ? { [field.name]: { includes: uuid } }
      : { [field.name]: uuid };
    const count = await app.tryApi("GET", "/collections/" + source.path, {
      query: { perPage: "1", where: JSON.stringify(where) },
      auth: true,
    });
    const total = (count?.data as ListEnvelope | null)?.total;
    if (count?.ok && typeof total === "number" && total > 0) {
      return app.t("referencedBy", {
        count: total,
        source: source.label,
        name,
      });
    }
  }
  return app.t("referencedByOthers", { name });
}
