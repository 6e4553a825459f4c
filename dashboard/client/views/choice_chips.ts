/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// A multiSelect field as chips: the chosen values as removable chips in the order chosen, and a
// dropdown of the others with an Add button. Adding takes a separate button, not the dropdown's
// change event: with the keyboard, each arrow press on a closed select fires a change.
import { h, type Props } from "../dom.ts";
import type { Dashboard } from "../context.ts";
import type { Field } from "../types.ts";
import type { InputValue } from "../values.ts";

/** The control's element, the dropdown the label names, and how to read what it holds. */
export interface ChoiceChips {
  readonly control: HTMLElement;
  readonly input: HTMLSelectElement;
  read(): InputValue;
}

/** The chips control of a multiSelect `field` holding `value`. */
export function choiceChips(
  app: Dashboard,
  field: Field,
  value: unknown,
  attributes: Props,
): ChoiceChips {
  const t = app.t;
  const choices = Array.isArray(field.choices) ? field.choices.map(String) : [];
  let picked = (Array.isArray(value) ? value : []).map(String);
  const chips = h("ul", {
    class: "chips",
    "data-testid": "chips-" + field.name,
  });
  const input = h("select", { ...attributes }) as HTMLSelectElement;
  const add = h("button", {
    type: "button",
    class: "button",
    "data-testid": "add-choice-" + field.name,
    disabled: attributes.disabled,
    onclick: function () {
      if (input.value === "") return;
      picked = picked.concat([input.value]);
      render();
      input.focus();
    },
  }, t("addChoice"));

  function render(): void {
    chips.replaceChildren(...picked.map(function (choice) {
      return h(
        "li",
        { class: "chip", "data-testid": "chip" },
        h("span", { class: "chip-name" }, choice),
        h("button", {
          type: "button",
          class: "chip-button",
          "aria-label": t("remove", { name: choice }),
          "data-testid": "chip-remove",
          disabled: attributes.disabled,
          onclick: function () {
            picked = picked.filter((item) => item !== choice);
            render();
            input.focus();
          },
        }, "×"),
      );
    }));
    chips.hidden = picked.length === 0;
    const left = choices.filter((choice) => !picked.includes(choice));
    input.replaceChildren(
      h("option", { value: "" }, ""),
      ...left.map((choice) => h("option", { value: choice }, choice)),
    );
    input.value = "";
    add.hidden = left.length === 0;
    input.hidden = left.length === 0;
  }

  render();
  return {
    control: h(
      "div",
      { class: "choice-chips", "data-testid": "choices-" + field.name },
      chips,
      h("div", { class: "choice-add" }, input, add),
    ),
    input,
    read(): InputValue {
      return { empty: picked.length === 0, value: picked.slice() };
    },
  };
}
