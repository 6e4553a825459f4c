/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// A relation picker: type to search the target collection by its display field (through the
// collections API, under the user's scope), pick with the keyboard or the mouse; a `records`
// field holds its picks as removable, reorderable chips; "create" adds a target record inline
// when the user may create one.
import { h, nextId, type Props } from "../dom.ts";
import { type Dashboard, Redirected } from "../context.ts";
import type { Collection, Field, ListEnvelope, WireRecord } from "../types.ts";
import { recordName } from "../names.ts";
import type { InputValue } from "../values.ts";

/** One picked record: its UUID and the name it is shown by. */
interface Pick {
  readonly uuid: string;
  readonly name: string;
}

/** A picker's element, its text input, and how to read what it holds. */
export interface Picker {
  readonly control: HTMLElement;
  readonly input: HTMLInputElement;
  read(): InputValue;
}

/** How many matches a search shows. */
const MATCHES = 8;

/** The picks a stored value stands for (populated links carry their target's record). */
export function initialPicks(
  target: Collection,
  value: unknown,
  app: Dashboard,
): Pick[] {
  const items = Array.isArray(value) ? value : value ? [value] : [];
  const out: Pick[] = [];
  for (const item of items) {
    if (item && typeof item === "object") {
      const record = item as WireRecord;
      out.push({
        uuid: String(record.UUID),
        name: recordName(target, record, app.settings()),
      });
    }
  }
  return out;
}

/** Builds the picker of `field` (its target readable as `target`). */
export function relationPicker(
  app: Dashboard,
  field: Field,
  target: Collection,
  value: unknown,
  locale: string,
  attributes: Props,
): Picker {
  const t = app.t;
  const multiple = field.kind === "records";
  let picks = initialPicks(target, value, app);
  let matches: Pick[] = [];
  let active = -1;
  let searchId = 0;
  const listId = nextId("picker-list-");
  const chips = h("ul", {
    class: "chips",
    "data-testid": "chips-" + field.name,
  });
  const input = h("input", {
    ...attributes,
    type: "text",
    role: "combobox",
    autocomplete: "off",
    spellcheck: "false",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": listId,
    placeholder: field.placeholder ||
      t("searchTarget", { target: target.label }),
  });
  const list = h("ul", {
    id: listId,
    role: "listbox",
    class: "picker-list",
    "aria-label": target.label,
    "data-testid": "picker-list-" + field.name,
    hidden: true,
  });
  const control = h(
    "div",
    { class: "picker", "data-testid": "picker-" + field.name },
    chips,
    input,
    list,
  );

  function renderChips(): void {
    chips.replaceChildren(...picks.map(function (pick, index) {
      return h(
        "li",
        { class: "chip", "data-testid": "chip", "data-uuid": pick.uuid },
        h("span", { class: "chip-name" }, pick.name),
        multiple && index > 0
          ? h("button", {
            type: "button",
            class: "chip-button",
            "aria-label": t("moveEarlier", { name: pick.name }),
            "data-testid": "chip-earlier",
            onclick: function () {
              const moved = picks.slice();
              moved.splice(index - 1, 0, ...moved.splice(index, 1));
              picks = moved;
              renderChips();
              const buttons = chips.querySelectorAll<HTMLElement>(
                "[data-testid=chip-earlier]",
              );
              (buttons[index - 2] || input).focus();
            },
          }, "←")
          : null,
        h("button", {
          type: "button",
          class: "chip-button",
          "aria-label": t("remove", { name: pick.name }),
          "data-testid": "chip-remove",
          onclick: function () {
            picks = picks.filter(function (item) {
              return item.uuid !== pick.uuid;
            });
            renderChips();
            input.focus();
          },
        }, "×"),
      );
    }));
    chips.hidden = picks.length === 0;
  }

  function close(): void {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function choose(pick: Pick): void {
    picks = multiple
      ? picks.filter(function (item) {
        return item.uuid !== pick.uuid;
      }).concat([pick])
      : [pick];
    input.value = "";
    renderChips();
    close();
    input.focus();
  }

  function highlight(index: number): void {
    const options = list.querySelectorAll<HTMLElement>("[role=option]");
    if (options.length === 0) return;
    active = (index + options.length) % options.length;
    options.forEach(function (option, i) {
      option.setAttribute("aria-selected", i === active ? "true" : "false");
    });
    input.setAttribute("aria-activedescendant", options[active].id);
    options[active].scrollIntoView({ block: "nearest" });
  }

  function showMatches(text: string): void {
    // A later answer keeps the highlighted match highlighted.
    const activeUuid = active >= 0
      ? list.querySelectorAll<HTMLElement>("[role=option]")[active]?.dataset
        .uuid
      : undefined;
    const options: HTMLElement[] = matches.map(function (pick) {
      return h("li", {
        id: nextId("option-"),
        role: "option",
        class: "picker-option",
        "aria-selected": "false",
        "data-testid": "picker-option",
        "data-uuid": pick.uuid,
        onmousedown: function (event: Event) {
          event.preventDefault();
          choose(pick);
        },
      }, pick.name);
    });
    const creatable = target.operations.create && target.displayField &&
      text !== "" && !matches.some(function (pick) {
        return pick.name === text;
      });
    if (creatable) {
      options.push(h("li", {
        id: nextId("option-"),
        role: "option",
        class: "picker-option picker-create",
        "aria-selected": "false",
        "data-testid": "picker-create",
        onmousedown: function (event: Event) {
          event.preventDefault();
          createTarget(text);
        },
      }, t("createNamed", { name: text })));
    }
    if (options.length === 0) {
      options.push(h("li", {
        class: "picker-empty",
        "aria-disabled": "true",
        "data-testid": "picker-empty",
      }, t("noMatches")));
    }
    list.replaceChildren(...options);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    active = -1;
    input.removeAttribute("aria-activedescendant");
    const kept = matches.findIndex(function (pick) {
      return pick.uuid === activeUuid;
    });
    if (kept >= 0) highlight(kept);
  }

  async function search(): Promise<void> {
    const id = ++searchId;
    const text = input.value.trim();
    const query: Record<string, string> = {
      perPage: String(MATCHES),
      order: JSON.stringify(
        target.displayField ? [target.displayField] : ["-_updatedAt"],
      ),
    };
    if (text !== "" && target.displayField) {
      query.where = JSON.stringify({
        [target.displayField]: { contains: text },
      });
    }
    if (locale && target.translatable) query.locale = locale;
    let response;
    try {
      response = await app.api("GET", "/collections/" + target.path, {
        query,
        auth: true,
      });
    } catch (error) {
      if (error instanceof Redirected) return;
      throw error;
    }
    if (id !== searchId) return;
    const envelope = response.data as ListEnvelope | null;
    matches = response.ok && envelope && Array.isArray(envelope.records)
      ? envelope.records.map(function (record) {
        return {
          uuid: String(record.UUID),
          name: recordName(target, record, app.settings()),
        };
      }).filter(function (pick) {
        return !picks.some(function (item) {
          return item.uuid === pick.uuid;
        });
      })
      : [];
    showMatches(text);
  }

  async function createTarget(text: string): Promise<void> {
    if (!target.displayField) return;
    const response = await app.api("POST", "/collections/" + target.path, {
      body: { [target.displayField]: text },
      query: locale && target.translatable ? { locale } : undefined,
      auth: true,
    });
    if (response.ok && response.data && typeof response.data === "object") {
      const record = response.data as WireRecord;
      choose({
        uuid: String(record.UUID),
        name: recordName(target, record, app.settings()),
      });
      app.toast(t("created", { name: text }));
    } else {
      close();
      app.toast(app.errorText(response), "error");
    }
  }

  input.addEventListener("input", function () {
    search();
  });
  input.addEventListener("focus", function () {
    if (list.hidden && !input.disabled) search();
  });
  input.addEventListener("blur", function () {
    close();
  });
  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (list.hidden) {
        search();
        return;
      }
      highlight(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter") {
      if (list.hidden || active < 0) return;
      event.preventDefault();
      const option =
        list.querySelectorAll<HTMLElement>("[role=option]")[active];
      option?.dispatchEvent(new MouseEvent("mousedown", { cancelable: true }));
    } else if (event.key === "Escape" && !list.hidden) {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (
      event.key === "Backspace" && input.value === "" && picks.length > 0
    ) {
      picks = picks.slice(0, -1);
      renderChips();
    }
  });
  renderChips();
  return {
    control,
    input,
    read(): InputValue {
      const uuids = picks.map(function (pick) {
        return pick.uuid;
      });
      return multiple
        ? { empty: uuids.length === 0, value: uuids }
        : { empty: uuids.length === 0, value: uuids[0] ?? null };
    },
  };
}
