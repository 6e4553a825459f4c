/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// Modal dialogs: <dialog> with a titled head and a close button, and the delete confirmation.
import { type Child, h, nextId } from "./dom.ts";
import type { Dashboard } from "./context.ts";

/** Opens a modal dialog; onClose runs once it closed and left the page. */
export function openDialog(
  app: Dashboard,
  testid: string,
  titleText: string,
  body: Child,
  onClose?: (returnValue: string) => void,
): HTMLDialogElement {
  const titleId = nextId("dialog-title-");
  const dialog: HTMLDialogElement = h(
    "dialog",
    { class: "dialog", "aria-labelledby": titleId, "data-testid": testid },
    h(
      "div",
      { class: "dialog-head" },
      h("h2", { id: titleId }, titleText),
      h("button", {
        type: "button",
        class: "button button-quiet button-icon",
        "aria-label": app.t("close"),
        "data-testid": "dialog-close",
        onclick: function () {
          dialog.close();
        },
      }, "×"),
    ),
    body,
  );
  dialog.addEventListener("close", function () {
    dialog.remove();
    if (onClose) onClose(dialog.returnValue);
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  return dialog;
}

/** Asks to confirm a deletion: true when confirmed. */
export function confirmDialog(app: Dashboard, text: string): Promise<boolean> {
  return new Promise(function (resolve) {
    let confirmed = false;
    const confirm = h("button", {
      type: "button",
      class: "button button-danger",
      "data-testid": "confirm-delete",
      onclick: function () {
        confirmed = true;
        dialog.close();
      },
    }, app.t("delete"));
    const cancel = h("button", {
      type: "button",
      class: "button",
      "data-testid": "cancel-delete",
      onclick: function () {
        dialog.close();
      },
    }, app.t("cancel"));
    const dialog = openDialog(
      app,
      "confirm-dialog",
      app.t("delete"),
      [
        h("p", { class: "dialog-message" }, text),
        h("div", { class: "actions" }, cancel, confirm),
      ],
      function () {
        resolve(confirmed);
      },
    );
    dialog.setAttribute("role", "alertdialog");
    cancel.focus();
  });
}
