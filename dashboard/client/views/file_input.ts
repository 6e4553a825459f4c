/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// File fields as a drop zone: choose or drop files, each uploaded first (`POST /files`) with
// its progress shown, images as thumbnails, every file removable, the files of a `files`
// field reordered by drag or by their move earlier / later buttons; the record write then
// names the uploads' UUIDs in that order.
import { h, type Props } from "../dom.ts";
import type { Dashboard } from "../context.ts";
import type { Collection, Field } from "../types.ts";
import type { InputValue } from "../values.ts";

/** A stored or uploaded file as reads describe it. */
interface Descriptor {
  readonly UUID: string;
  readonly name: string;
  readonly type?: string;
  readonly url?: string;
}

/** A file control's element, its input, and how to read what it holds. */
export interface FileControl {
  readonly control: HTMLElement;
  readonly input: HTMLInputElement;
  read(): InputValue;
}

function descriptors(value: unknown): Descriptor[] {
  const items = Array.isArray(value) ? value : value ? [value] : [];
  return items.filter(function (item): item is Descriptor {
    return item !== null && typeof item === "object" &&
      typeof (item as Descriptor).UUID === "string";
  });
}

/** Builds the drop zone of a `file` or `files` field. */
export function fileControl(
  app: Dashboard,
  collection: Collection,
  field: Field,
  value: unknown,
  attributes: Props,
): FileControl {
  const t = app.t;
  const multiple = field.kind === "files";
  let files = descriptors(value);
  let pending = 0;
  const list = h("ul", {
    class: "file-list",
    "data-testid": "files-" + field.name,
  });
  const input = h("input", {
    ...attributes,
    type: "file",
    multiple,
    class: "file-input",
  });
  const status = h("p", { class: "hint", role: "status" });
  const zone = h(
    "div",
    { class: "dropzone", "data-testid": "dropzone-" + field.name },
    list,
    input,
    h("p", { class: "hint" }, t("dropFiles")),
    status,
  );

  // Moves the file at `from` to `to` (a `files` field's order is its value's order); the
  // same button keeps the focus, or its twin when it went away at the list's end.
  function move(from: number, to: number, focus: string): void {
    if (to < 0 || to >= files.length || to === from) return;
    const moved = files.slice();
    moved.splice(to, 0, ...moved.splice(from, 1));
    files = moved;
    render();
    status.textContent = t("movedTo", {
      name: files[to].name,
      position: to + 1,
      count: files.length,
    });
    const buttons = [
      ...list.children[to].querySelectorAll<HTMLButtonElement>("button"),
    ].filter(function (button) {
      return !button.disabled;
    });
    (buttons.find(function (button) {
      return button.dataset.testid === focus;
    }) ?? buttons[0])?.focus();
  }

  // Drag and drop between the items of a `files` field (the buttons do the same by keyboard).
  let dragged = -1;

  function render(): void {
    // Uploads still running keep their rows (and progress) after the files.
    const uploading = [...list.querySelectorAll(".uploading")];
    list.replaceChildren(
      ...files.map(function (file, index) {
        const image = file.type?.startsWith("image/") && file.url;
        const reorder = multiple && files.length > 1;
        return h(
          "li",
          {
            class: "file",
            "data-testid": "file",
            "data-uuid": file.UUID,
            draggable: reorder ? "true" : null,
            ondragstart: function (event: DragEvent) {
              dragged = index;
              event.dataTransfer?.setData("text/plain", file.UUID);
              if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
            },
            ondragover: function (event: DragEvent) {
              if (dragged < 0) return;
              // A reorder, not a file dropped on the zone.
              event.preventDefault();
              event.stopPropagation();
            },
            ondrop: function (event: DragEvent) {
              if (dragged < 0) return;
              event.preventDefault();
              event.stopPropagation();
              const from = dragged;
              dragged = -1;
              move(from, index, "file-earlier");
            },
            ondragend: function () {
              dragged = -1;
            },
          },
          image
            ? h("img", {
              src: app.base + file.url,
              alt: "",
              class: "thumb",
              "data-testid": "thumbnail",
            })
            : null,
          h("span", { class: "chip-name" }, file.name),
          reorder
            ? h("button", {
              type: "button",
              class: "chip-button",
              "aria-label": t("moveEarlier", { name: file.name }),
              "data-testid": "file-earlier",
              disabled: index === 0,
              onclick: function () {
                move(index, index - 1, "file-earlier");
              },
            }, "↑")
            : null,
          reorder
            ? h("button", {
              type: "button",
              class: "chip-button",
              "aria-label": t("moveLater", { name: file.name }),
              "data-testid": "file-later",
              disabled: index === files.length - 1,
              onclick: function () {
                move(index, index + 1, "file-later");
              },
            }, "↓")
            : null,
          h("button", {
            type: "button",
            class: "chip-button",
            "aria-label": t("remove", { name: file.name }),
            "data-testid": "file-remove",
            onclick: function () {
              files = files.filter(function (item) {
                return item.UUID !== file.UUID;
              });
              render();
              input.focus();
            },
          }, "×"),
        );
      }),
      ...uploading,
    );
    list.hidden = files.length === 0 && uploading.length === 0;
  }

  // An upload through the client's upload, which reports progress (it sends through
  // XMLHttpRequest in browsers, as fetch cannot tell).
  function upload(file: File): void {
    const progress = h("progress", {
      max: 100,
      value: 0,
      "aria-label": file.name,
      "data-testid": "upload-progress",
    });
    const row = h("li", { class: "file uploading" }, file.name, progress);
    list.append(row);
    list.hidden = false;
    pending++;
    app.upload(collection.name, field.name, file, function (sent) {
      progress.value = Math.round(sent.loaded / sent.total * 100);
    }).catch(function () {
      return null;
    }).then(function (answer) {
      pending--;
      row.remove();
      const body = answer?.data as Descriptor | null | undefined;
      if (answer?.ok && body && typeof body.UUID === "string") {
        files = multiple ? files.concat([body]) : [body];
        status.textContent = t("uploaded", { name: file.name });
      } else {
        status.textContent = app.errorText(answer);
      }
      render();
    });
  }

  function take(list: FileList | null): void {
    const chosen = [...(list ?? [])];
    for (const file of multiple ? chosen : chosen.slice(0, 1)) upload(file);
  }

  input.addEventListener("change", function () {
    take(input.files);
    input.value = "";
  });
  zone.addEventListener("dragover", function (event) {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", function () {
    zone.classList.remove("dragging");
  });
  zone.addEventListener("drop", function (event) {
    event.preventDefault();
    zone.classList.remove("dragging");
    take(event.dataTransfer?.files ?? null);
  });
  render();
  return {
    control: zone,
    input,
    read(): InputValue {
      const uuids = files.map(function (file) {
        return file.UUID;
      });
      // While an upload runs the value is not final: the save waits for it (see busy).
      return multiple
        ? { empty: uuids.length === 0, value: uuids, busy: pending > 0 }
        : {
          empty: uuids.length === 0,
          value: uuids[0] ?? null,
          busy: pending > 0,
        };
    },
  };
}
