/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The record dialog: create or edit one record, a control per writable field.
import { h } from "../dom.ts";
import { type Dashboard, Redirected } from "../context.ts";
import type { Answer, Collection, Field, WireRecord } from "../types.ts";
import { fieldKind, fieldLabel, isRelation } from "../fields.ts";
import { recordName } from "../names.ts";
import {
  emptyValue,
  fieldErrors,
  fromInputValue,
  type InputValue,
  toInputValue,
} from "../values.ts";
import { openDialog } from "../dialogs.ts";
import { type Picker, relationPicker } from "./picker.ts";
import { type FileControl, fileControl } from "./file_input.ts";
import { type ChoiceChips, choiceChips } from "./choice_chips.ts";
import {
  type FieldRow,
  fieldRow,
  type FieldSpec,
  formAlert,
  onSubmit,
  type Option,
  showErrors,
} from "../forms.ts";

/** A field's control in the record form, reading back its value. */
interface RecordRow extends FieldRow {
  readonly field: Field;
  read(): InputValue;
  /** The value it showed first, as JSON: an edit sends only what changed. */
  readonly initial: string;
}

// The collection a link points to, when the user may read it (and so search it).
function targetOf(app: Dashboard, field: Field): Collection | undefined {
  return (app.state.collections || []).find(function (item) {
    return item.name === field.target;
  });
}

/** The control of one field in the record form. */
function recordControl(
  app: Dashboard,
  collection: Collection,
  field: Field,
  record: WireRecord | null,
  isEdit: boolean,
  locale: string,
): RecordRow {
  const kind = fieldKind(field);
  const readable = field.readable !== false;
  const value = record && readable ? record[field.name] : undefined;
  const label = fieldLabel(field);
  let spec: FieldSpec = {
    name: field.name,
    label: field.translatable && locale ? label + " (" + locale + ")" : label,
    disabled: isEdit && field.immutable,
    required: field.required === true,
    hint: field.description || null,
    placeholder: field.placeholder,
  };
  const choices = Array.isArray(field.choices) ? field.choices : null;
  const target = isRelation(field) ? targetOf(app, field) : undefined;
  let picker: Picker | FileControl | ChoiceChips | null = null;
  const asOption = function (choice: string): Option {
    return { value: choice, label: choice };
  };
  if (kind === "file" || kind === "files") {
    spec = {
      ...spec,
      render: function (attributes) {
        picker = fileControl(app, collection, field, value, attributes);
        return picker;
      },
    };
  } else if (target) {
    spec = {
      ...spec,
      render: function (attributes) {
        picker = relationPicker(
          app,
          field,
          target,
          value,
          target.translatable ? locale : "",
          attributes,
        );
        return picker;
      },
    };
  } else if (kind === "boolean") {
    spec = {
      ...spec,
      control: field.display === "switch" ? "switch" : "checkbox",
      value: value === true,
    };
  } else if (kind === "select" && choices) {
    spec = {
      ...spec,
      control: "select",
      value: value === undefined || value === null ? "" : String(value),
      options: (field.nullable || !isEdit ? [{ value: "", label: "" }] : [])
        .concat(choices.map(asOption)),
    };
  } else if (kind === "multiSelect" && choices) {
    spec = {
      ...spec,
      render: function (attributes) {
        picker = choiceChips(app, field, value, attributes);
        return picker;
      },
    };
  } else if (kind === "text" && field.display === "textarea") {
    spec = {
      ...spec,
      control: "textarea",
      value: toInputValue(field, value),
      minlength: typeof field.min === "number" ? field.min : undefined,
      maxlength: typeof field.max === "number" ? field.max : undefined,
    };
  } else {
    const type = kind === "integer" || kind === "number"
      ? "number"
      : kind === "date"
      ? "date"
      : kind === "time"
      ? "time"
      : kind === "dateTime"
      ? "datetime-local"
      : field.type === "password" || !readable
      ? "password"
      : field.type === "email" || field.display === "email"
      ? "email"
      : field.display === "url"
      ? "url"
      : field.display === "color"
      ? "color"
      : "text";
    const bounded = kind === "integer" || kind === "number" ||
      kind === "date" || kind === "time";
    const lengths = kind === "text";
    const zone = kind === "dateTime" ? app.settings().timezone || "UTC" : null;
    spec = {
      ...spec,
      value: toInputValue(field, value, zone),
      type,
      step: kind === "integer"
        ? "1"
        : kind === "number"
        ? "any"
        : kind === "time" || kind === "dateTime"
        ? "1"
        : undefined,
      autocomplete: type === "password" ? "new-password" : undefined,
      spellcheck: isRelation(field) ? "false" : undefined,
      min: bounded && field.min !== undefined ? String(field.min) : undefined,
      max: bounded && field.max !== undefined ? String(field.max) : undefined,
      hint: zone
        ? [field.description, app.t("timezone") + ": " + zone].filter(Boolean)
          .join(" · ")
        : spec.hint,
      minlength: lengths && typeof field.min === "number"
        ? field.min
        : undefined,
      maxlength: lengths && typeof field.max === "number"
        ? field.max
        : undefined,
    };
  }
  const row = fieldRow(spec);
  const read = function (): InputValue {
    if (picker) return picker.read();
    const input = row.input;
    if (input instanceof HTMLInputElement && input.type === "checkbox") {
      return { empty: false, value: input.checked };
    }
    if (spec.multiple && input instanceof HTMLSelectElement) {
      const selected = [...input.options].filter(function (option) {
        return option.selected;
      }).map(function (option) {
        return option.value;
      });
      return { empty: selected.length === 0, value: selected };
    }
    return fromInputValue(
      field,
      input.value,
      kind === "dateTime" ? app.settings().timezone || "UTC" : null,
    );
  };
  return { ...row, field, read, initial: JSON.stringify(read()) };
}

/** Reads one record for its form: links whose target the user may read arrive populated. */
export async function loadRecord(
  app: Dashboard,
  collection: Collection,
  uuid: string,
  locale: string,
): Promise<Answer> {
  const populate = (collection.fields || []).filter(function (field) {
    return isRelation(field) && field.readable !== false &&
      targetOf(app, field) !== undefined;
  }).map(function (field) {
    return field.name;
  });
  return await app.api(
    "GET",
    "/collections/" + collection.path + "/" + encodeURIComponent(uuid),
    {
      query: {
        locale: collection.translatable && locale ? locale : undefined,
        populate: populate.length > 0 ? JSON.stringify(populate) : undefined,
      },
      auth: true,
    },
  );
}

/** A record form: its element, whether it holds unsaved changes, and what saving did. */
export interface RecordForm {
  readonly form: HTMLFormElement;
  /** Whether an input differs from what the form showed first. */
  dirty(): boolean;
}

/**
 * The form creating (uuid null) or editing a record of collection at locale. `done` runs
 * after a save (with the saved record) or a cancel (with null); `beside` adds, per translatable
 * field, the default locale's value next to its input.
 */
export function recordForm(
  app: Dashboard,
  collection: Collection,
  record: WireRecord | null,
  uuid: string | null,
  locale: string,
  done: (saved: WireRecord | null) => void,
  beside?: WireRecord | null,
): RecordForm {
  const t = app.t;
  const path = "/collections/" + collection.path;
  const localeQuery = collection.translatable && locale
    ? { locale: locale }
    : undefined;
  const isEdit = uuid !== null;
  const rows = (collection.fields || []).filter(function (field) {
    return field.writable !== false && field.name !== "UUID" && !field.hidden;
  }).map(function (field) {
    return recordControl(
      app,
      collection,
      field,
      record,
      isEdit,
      collection.translatable ? locale : "",
    );
  });
  if (beside) {
    for (const row of rows) {
      if (!row.field.translatable) continue;
      const value = beside[row.field.name];
      row.element.append(h("p", {
        class: "hint default-value",
        "data-testid": "default-" + row.field.name,
      }, typeof value === "string" && value !== "" ? value : "—"));
    }
  }
  const submit = h("button", {
    type: "submit",
    class: "button button-primary",
    "data-testid": "save-record",
  }, isEdit ? t("save") : t("create"));
  const cancel = h("button", {
    type: "button",
    class: "button",
    "data-testid": "cancel-record",
    onclick: function () {
      done(null);
    },
  }, t("cancel"));
  const form = h(
    "form",
    { class: "form", "data-testid": "record-form" },
    rows.map(function (row) {
      return row.element;
    }),
    formAlert(),
    h("div", { class: "actions" }, cancel, submit),
  );
  const dirty = function (): boolean {
    return rows.some(function (row) {
      return !row.input.disabled && JSON.stringify(row.read()) !== row.initial;
    });
  };
  onSubmit(app, form, async function () {
    if (
      rows.some(function (row) {
        return row.read().busy;
      })
    ) {
      showErrors(form, {}, t("uploadsPending"));
      return;
    }
    const body: Record<string, unknown> = {};
    for (const row of rows) {
      if (row.input.disabled) continue;
      const current = row.read();
      if (isEdit) {
        if (JSON.stringify(current) === row.initial) continue;
        if (row.field.readable === false && current.empty) continue;
        body[row.name] = current.empty ? emptyValue(row.field) : current.value;
      } else if (!current.empty) {
        body[row.name] = current.value;
      }
    }
    if (isEdit && Object.keys(body).length === 0) {
      done(record);
      return;
    }
    const response = await app.api(
      isEdit ? "PATCH" : "POST",
      isEdit ? path + "/" + encodeURIComponent(String(uuid)) : path,
      { query: localeQuery, body: body, auth: true },
    );
    if (response.status === 200 || response.status === 201) {
      const saved = response.data as WireRecord;
      app.toast(
        t(isEdit ? "updated" : "created", {
          name: recordName(collection, saved, app.settings()),
        }),
      );
      done(saved);
    } else {
      showErrors(
        form,
        fieldErrors(response.data),
        response.status === 422 ? "" : app.errorText(response),
      );
    }
  });
  return { form, dirty };
}

/** Opens the dialog creating (uuid null) or editing a record of collection. */
export async function openRecordDialog(
  app: Dashboard,
  collection: Collection,
  uuid: string | null,
  locale: string,
): Promise<void> {
  const t = app.t;
  let record: WireRecord | null = null;
  if (uuid) {
    let response: Answer | null;
    try {
      response = await loadRecord(app, collection, uuid, locale);
    } catch (error) {
      if (error instanceof Redirected) return;
      response = null;
    }
    if (!response || response.status !== 200) {
      app.state.flash = app.errorText(response);
      app.render();
      return;
    }
    record = response.data as WireRecord;
  }
  const isEdit = uuid !== null;
  const returnFocus = isEdit
    ? '[data-testid=edit-record][data-uuid="' + uuid + '"]'
    : "[data-testid=create-record]";
  let saved = false;
  const { form } = recordForm(
    app,
    collection,
    record,
    uuid,
    locale,
    function (result) {
      saved = result !== null;
      dialog.close();
    },
  );
  const dialog = openDialog(
    app,
    "record-dialog",
    (isEdit ? t("edit") : t("create")) + " · " + collection.label,
    form,
    function () {
      if (saved) {
        app.state.focus = returnFocus;
        app.render();
      } else {
        const button = app.main.querySelector<HTMLElement>(returnFocus);
        if (button) button.focus();
      }
    },
  );
  const firstInput = form.querySelector<HTMLElement>(
    "input:not([disabled]), select:not([disabled]), textarea:not([disabled])",
  );
  if (firstInput) firstInput.focus();
}
