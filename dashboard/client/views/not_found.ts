/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// Any other dashboard path.
import { h } from "../dom.ts";
import type { Dashboard, View } from "../context.ts";
import { card } from "../forms.ts";

/** A page the dashboard does not have. */
export function viewNotFound(app: Dashboard): View {
  return {
    title: app.t("notFound"),
    content: card(
      app.t("notFound"),
      null,
      h(
        "p",
        {},
        h(
          "a",
          { href: app.root },
          app.state.user ? app.t("collections") : app.t("signIn"),
        ),
      ),
    ),
  };
}
