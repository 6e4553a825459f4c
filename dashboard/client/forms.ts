/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// Labelled controls, inline errors and submit handling shared by every form.
import { type Child, h, nextId, type Props } from "./dom.ts";
import { ApiError, type Dashboard, Redirected } from "./context.ts";

/** One option of a select. */
export interface Option {
  readonly value: string;
  readonly label: string;
}

/** What fieldRow builds. */
export interface FieldSpec {
  readonly name: string;
  readonly label: string;
  /** "input" (default), "select", "checkbox", "switch" (a checkbox shown as a switch) or "textarea". */
  readonly control?: "input" | "select" | "checkbox" | "switch" | "textarea";
  readonly value?: unknown;
  readonly type?: string;
  readonly hint?: string | null;
  readonly disabled?: boolean;
  readonly required?: boolean;
  readonly multiple?: boolean;
  readonly size?: number;
  readonly options?: readonly Option[];
  readonly autocomplete?: string;
  readonly step?: string;
  readonly list?: string;
  readonly inputmode?: string;
  readonly spellcheck?: string;
  readonly placeholder?: string;
  readonly min?: string;
  readonly max?: string;
  readonly minlength?: number;
  readonly maxlength?: number;
  readonly extra?: Child;
  /**
   * A control of its own (a relation picker): given the input's attributes (id, name,
   * aria-describedby, …), the element to place and the input the label names.
   */
  readonly render?: (attributes: Props) => {
    readonly control: HTMLElement;
    readonly input: HTMLInputElement | HTMLSelectElement;
  };
}

/** A labelled control: its row element, its input and its field name. */
export interface FieldRow {
  readonly element: HTMLDivElement;
  readonly input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  readonly name: string;
}

/** One labelled control with its hint and error slot. */
export function fieldRow(spec: FieldSpec): FieldRow {
  const id = nextId("f", spec.name);
  const errorId = id + "-error";
  const hintId = spec.hint ? id + "-hint" : null;
  const describedBy = [errorId, hintId].filter(Boolean).join(" ");
  const common = {
    id: id,
    name: spec.name,
    "data-testid": "field-" + spec.name,
    "aria-describedby": describedBy,
    disabled: spec.disabled,
    "aria-required": spec.required ? "true" : null,
  };
  let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  let control: HTMLElement | null = null;
  const checkbox = spec.control === "checkbox" || spec.control === "switch";
  if (spec.render) {
    const built = spec.render(common);
    input = built.input;
    control = built.control;
  } else if (checkbox) {
    input = h("input", {
      type: "checkbox",
      role: spec.control === "switch" ? "switch" : null,
      class: spec.control === "switch" ? "switch" : null,
      checked: Boolean(spec.value),
      ...common,
    });
  } else if (spec.control === "textarea") {
    input = h("textarea", {
      rows: 5,
      value: spec.value === undefined ? "" : spec.value,
      placeholder: spec.placeholder,
      minlength: spec.minlength,
      maxlength: spec.maxlength,
      ...common,
    });
  } else if (spec.control === "select") {
    input = h(
      "select",
      { multiple: spec.multiple, size: spec.size, ...common },
      (spec.options || []).map(function (option) {
        const selected = spec.multiple
          ? Array.isArray(spec.value) && spec.value.includes(option.value)
          : option.value === spec.value;
        return h(
          "option",
          { value: option.value, selected: selected },
          option.label,
        );
      }),
    );
  } else {
    input = h("input", {
      type: spec.type || "text",
      value: spec.value === undefined ? "" : spec.value,
      autocomplete: spec.autocomplete,
      step: spec.step,
      list: spec.list,
      inputmode: spec.inputmode,
      spellcheck: spec.spellcheck,
      placeholder: spec.placeholder,
      min: spec.min,
      max: spec.max,
      minlength: spec.minlength,
      maxlength: spec.maxlength,
      ...common,
    });
  }
  const label = h("label", { for: id }, spec.label);
  const error = h("p", {
    class: "field-error",
    id: errorId,
    "data-testid": "error-" + spec.name,
    "data-error-for": spec.name,
    hidden: true,
  });
  const hint = spec.hint
    ? h("p", { class: "hint", id: hintId }, spec.hint)
    : null;
  const element = checkbox
    ? h("div", { class: "field field-check" }, input, label, hint, error)
    : h(
      "div",
      { class: "field" },
      label,
      control || input,
      hint,
      error,
      spec.extra,
    );
  return { element, input, name: spec.name };
}

/**
 * The email and password rows of the sign-in, install and sign-up forms; `password` is the
 * password's autocomplete hint (a new one, or the current one).
 */
export function credentialRows(
  t: Dashboard["t"],
  password: "new-password" | "current-password",
): { email: FieldRow; password: FieldRow } {
  return {
    email: fieldRow({
      name: "email",
      label: t("email"),
      type: "email",
      autocomplete: "username",
      required: true,
    }),
    password: fieldRow({
      name: "password",
      label: t("password"),
      type: "password",
      autocomplete: password,
      required: true,
    }),
  };
}

/** Whether a row's checkbox is ticked. */
export function isChecked(row: FieldRow): boolean {
  return row.input instanceof HTMLInputElement && row.input.checked;
}

/** An alert box. */
export function errorBox(text: string): HTMLParagraphElement {
  return h("p", {
    class: "alert alert-error",
    role: "alert",
    "data-testid": "form-error",
  }, text);
}

/** Where a form shows errors no field owns. */
export function formAlert(): HTMLDivElement {
  return h("div", { class: "form-alert" });
}

/** Hides every error of form. */
export function clearErrors(form: HTMLFormElement): void {
  for (
    const element of form.querySelectorAll<HTMLElement>("[data-error-for]")
  ) {
    element.textContent = "";
    element.hidden = true;
  }
  for (const element of form.querySelectorAll("[aria-invalid]")) {
    element.removeAttribute("aria-invalid");
  }
  const general = form.querySelector(".form-alert");
  if (general) general.replaceChildren();
}

/** Shows messages beside their fields; the rest above the buttons. */
export function showErrors(
  form: HTMLFormElement,
  errors: Readonly<Record<string, string>>,
  generalText?: string,
): void {
  clearErrors(form);
  const general: string[] = [];
  if (generalText) general.push(generalText);
  let first: HTMLElement | null = null;
  const slots = [...form.querySelectorAll<HTMLElement>("[data-error-for]")];
  for (const name of Object.keys(errors)) {
    const slot = slots.find(function (element) {
      return element.getAttribute("data-error-for") === name;
    });
    if (!slot) {
      general.push(name + ": " + errors[name]);
      continue;
    }
    slot.textContent = errors[name];
    slot.hidden = false;
    const input = slot.parentElement?.querySelector<HTMLElement>(
      "input, select, textarea",
    );
    if (input) {
      input.setAttribute("aria-invalid", "true");
      if (!first) first = input;
    }
  }
  const alert = form.querySelector(".form-alert");
  if (alert && general.length > 0) {
    alert.replaceChildren(errorBox(general.join(" ")));
  }
  if (first) first.focus();
}

/** Wires a submit handler that cannot run twice at once. */
export function onSubmit(
  app: Dashboard,
  form: HTMLFormElement,
  handler: () => Promise<void>,
): void {
  form.setAttribute("novalidate", "");
  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (form.dataset.busy === "true") return;
    form.dataset.busy = "true";
    form.setAttribute("aria-busy", "true");
    const buttons = form.querySelectorAll<HTMLButtonElement>(
      "button[type=submit]",
    );
    for (const button of buttons) button.disabled = true;
    try {
      await handler();
    } catch (error) {
      if (!(error instanceof Redirected)) {
        showErrors(
          form,
          {},
          error instanceof ApiError ? error.message : app.t("error"),
        );
      }
    } finally {
      form.dataset.busy = "false";
      form.removeAttribute("aria-busy");
      for (const button of buttons) button.disabled = false;
    }
  });
}

/** Client-side check of required fields: names of the empty ones. */
export function requireFilled(
  app: Dashboard,
  rows: readonly FieldRow[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const row of rows) {
    if (row.input.value.trim() === "") {
      errors[row.name] = app.t("fieldRequired");
    }
  }
  return errors;
}

/** A narrow card with a heading, an intro and a body. */
export function card(
  title: string,
  intro: string | null,
  body: Child,
): HTMLElement {
  return h(
    "section",
    { class: "card card-narrow" },
    h("h1", { tabindex: "-1" }, title),
    intro ? h("p", { class: "intro" }, intro) : null,
    body,
  );
}
