/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The filters of a collection page: one removable chip per field filter, and a small form
// that adds one (field, condition, value) — a relation's value is picked by name.
import { type Child, h, nextId } from "../dom.ts";
import type { Dashboard } from "../context.ts";
import type { Collection, Field, ListState, WireRecord } from "../types.ts";
import { fieldKind, fieldLabel, isRelation } from "../fields.ts";
import {
  type FieldFilter,
  filterCondition,
  filterOps,
  MAX_FILTERS,
  opTakesValue,
} from "../filters.ts";
import { recordName } from "../names.ts";
import { formatCell } from "../format.ts";
import { relationPicker } from "./picker.ts";

/** Names of records that relation filters point at, by UUID (for their chips). */
export type FilterNames = ReadonlyMap<string, string>;

const OP_KEYS: Readonly<Record<string, string>> = {
  contains: "opContains",
  equalsTo: "opEqualsTo",
  atLeast: "opAtLeast",
  atMost: "opAtMost",
  in: "opIn",
  includesAny: "opIncludes",
  includes: "opIncludes",
  isNull: "opIsNull",
  isNotNull: "opIsNotNull",
  empty: "opIsNull",
};

/** The fields a list may filter by: readable, not hidden, with operators. */
export function filterableFields(collection: Collection): Field[] {
  return collection.fields.filter(function (field) {
    return field.readable && !field.hidden && filterOps(field).length > 0;
  });
}

/** Looks up the names of the records relation filters name (one read each, at most ten). */
export async function filterNames(
  app: Dashboard,
  collection: Collection,
  filters: readonly FieldFilter[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const filter of filters) {
    const field = collection.fields.find(function (item) {
      return item.name === filter.field;
    });
    if (!field || !isRelation(field) || !opTakesValue(filter.op)) continue;
    const target = (app.state.collections || []).find(function (item) {
      return item.name === field.target;
    });
    if (!target || names.has(filter.value)) continue;
    const answer = await app.tryApi(
      "GET",
      "/collections/" + target.path + "/" + encodeURIComponent(filter.value),
      { auth: true },
    );
    if (answer?.ok) {
      names.set(
        filter.value,
        recordName(target, answer.data as WireRecord, app.settings()),
      );
    }
  }
  return names;
}

function valueText(
  app: Dashboard,
  field: Field,
  filter: FieldFilter,
  names: FilterNames,
): string {
  if (!opTakesValue(filter.op)) return "";
  if (isRelation(field)) return names.get(filter.value) ?? "—";
  const kind = fieldKind(field);
  if (kind === "boolean") {
    return filter.value === "true" ? app.t("yes") : app.t("no");
  }
  if (kind === "integer" || kind === "number") {
    return formatCell(field, Number(filter.value), app.settings());
  }
  if (kind === "date") return formatCell(field, filter.value, app.settings());
  return filter.value;
}

/** A filter as words: "Views at least 10". */
export function filterText(
  app: Dashboard,
  field: Field,
  filter: FieldFilter,
  names: FilterNames,
): string {
  const value = valueText(app, field, filter, names);
  const op = app.t(OP_KEYS[filter.op] ?? "opEqualsTo");
  return fieldLabel(field) + " " + op + (value ? " " + value : "");
}

/** The chips of the active filters and the form adding one. */
export function filterBar(
  app: Dashboard,
  collection: Collection,
  listState: ListState,
  names: FilterNames,
  go: (patch: Partial<ListState>, focus: string) => void,
): HTMLElement | null {
  const t = app.t;
  const fields = filterableFields(collection);
  if (fields.length === 0) return null;
  const filters = (listState.filters || []).filter(function (filter) {
    const field = fields.find(function (item) {
      return item.name === filter.field;
    });
    return field !== undefined && filterCondition(field, filter) !== undefined;
  });
  const chips = filters.map(function (filter, index) {
    const field = fields.find(function (item) {
      return item.name === filter.field;
    }) as Field;
    const text = filterText(app, field, filter, names);
    return h(
      "li",
      { class: "chip", "data-testid": "filter-chip" },
      h("span", { class: "chip-name" }, text),
      h("button", {
        type: "button",
        class: "chip-button",
        "aria-label": t("removeFilter", { filter: text }),
        "data-testid": "remove-filter",
        onclick: function () {
          go(
            {
              filters: filters.filter(function (_item, i) {
                return i !== index;
              }),
              page: 1,
            },
            "[data-testid=add-filter]",
          );
        },
      }, "×"),
    );
  });
  const builder = filters.length < MAX_FILTERS
    ? filterBuilder(app, collection, fields, function (filter) {
      go(
        { filters: filters.concat([filter]), page: 1 },
        "[data-testid=add-filter]",
      );
    })
    : null;
  return h(
    "div",
    { class: "filters", "data-testid": "filters" },
    chips.length > 0
      ? h("ul", { class: "chips", "aria-label": t("filters") }, chips)
      : null,
    builder,
  );
}

function filterBuilder(
  app: Dashboard,
  collection: Collection,
  fields: readonly Field[],
  add: (filter: FieldFilter) => void,
): HTMLElement {
  const t = app.t;
  const fieldId = nextId("filter-field-");
  const opId = nextId("filter-op-");
  const valueId = nextId("filter-value-");
  const fieldSelect = h(
    "select",
    { id: fieldId, "data-testid": "filter-field" },
    fields.map(function (field) {
      return h("option", { value: field.name }, fieldLabel(field));
    }),
  );
  const opSelect = h("select", { id: opId, "data-testid": "filter-op" });
  const valueSlot = h("div", { class: "filter-value" });
  let readValue: () => string = function () {
    return "";
  };

  function current(): Field {
    return fields.find(function (field) {
      return field.name === fieldSelect.value;
    }) ?? fields[0];
  }

  function renderOps(): void {
    opSelect.replaceChildren(
      ...filterOps(current()).map(function (op) {
        return h("option", { value: op }, t(OP_KEYS[op] ?? "opEqualsTo"));
      }),
    );
    renderValue();
  }

  function renderValue(): void {
    const field = current();
    const op = opSelect.value;
    if (!opTakesValue(op)) {
      valueSlot.replaceChildren();
      readValue = function () {
        return "";
      };
      return;
    }
    const kind = fieldKind(field);
    const label = h("label", { for: valueId }, t("filterValue"));
    let control: Child;
    if (isRelation(field)) {
      const target = (app.state.collections || []).find(function (item) {
        return item.name === field.target;
      });
      if (!target) {
        valueSlot.replaceChildren();
        return;
      }
      const picker = relationPicker(
        app,
        { ...field, kind: "record", placeholder: undefined },
        { ...target, operations: { ...target.operations, create: false } },
        null,
        "",
        { id: valueId, "data-testid": "filter-value" },
      );
      control = picker.control;
      readValue = function () {
        const read = picker.read();
        return typeof read.value === "string" ? read.value : "";
      };
    } else if (
      kind === "boolean" || kind === "select" || kind === "multiSelect"
    ) {
      const options = kind === "boolean"
        ? [{ value: "true", label: t("yes") }, {
          value: "false",
          label: t("no"),
        }]
        : (field.choices || []).map(function (choice) {
          return { value: choice, label: choice };
        });
      const select = h(
        "select",
        { id: valueId, "data-testid": "filter-value" },
        options.map(function (option) {
          return h("option", { value: option.value }, option.label);
        }),
      );
      control = select;
      readValue = function () {
        return select.value;
      };
    } else {
      const input = h("input", {
        id: valueId,
        "data-testid": "filter-value",
        type: kind === "integer" || kind === "number"
          ? "number"
          : kind === "date" || kind === "dateTime"
          ? "date"
          : kind === "time"
          ? "time"
          : "text",
        step: kind === "number" ? "any" : undefined,
      });
      control = input;
      readValue = function () {
        return input.value.trim();
      };
    }
    valueSlot.replaceChildren(
      label,
      ...(Array.isArray(control) ? control : [control as Node]),
    );
  }

  fieldSelect.addEventListener("change", renderOps);
  opSelect.addEventListener("change", renderValue);
  const error = h("p", {
    class: "field-error",
    role: "alert",
    "data-testid": "filter-error",
    hidden: true,
  });
  const form = h(
    "form",
    { class: "filter-builder", "data-testid": "filter-builder" },
    h(
      "div",
      { class: "filter-part" },
      h("label", { for: fieldId }, t("filterField")),
      fieldSelect,
    ),
    h(
      "div",
      { class: "filter-part" },
      h("label", { for: opId }, t("filterCondition")),
      opSelect,
    ),
    valueSlot,
    h("button", {
      type: "submit",
      class: "button",
      "data-testid": "apply-field-filter",
    }, t("addFilter")),
    error,
  );
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    const filter = {
      field: current().name,
      op: opSelect.value,
      value: readValue(),
    };
    if (!filterCondition(current(), filter)) {
      error.textContent = t("fieldRequired");
      error.hidden = false;
      return;
    }
    add(filter);
  });
  renderOps();
  return h(
    "details",
    { class: "add-filter", "data-collection": collection.path },
    h(
      "summary",
      { class: "button", "data-testid": "add-filter" },
      t("addFilter"),
    ),
    form,
  );
}
