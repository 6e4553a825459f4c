/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
// The single-page app: state, requests through @strata/strata/client, the session and the
// dashboard language, navigation, and rendering the view a path names.
import type * as StrataClientModule from "../../client/mod.ts";
import type { UploadProgress } from "../../client/mod.ts";
import { append, h } from "./dom.ts";
import {
  ApiError,
  type ApiOptions,
  type Dashboard,
  type NavigateOptions,
  Redirected,
  type State,
  type View,
  type ViewFunction,
} from "./context.ts";
import type {
  Answer,
  Catalog,
  Collection,
  ErrorBody,
  MessageValues,
  Route,
  Settings,
  User,
} from "./types.ts";
import { catalogLanguage, translate } from "./messages.ts";
import { parseRoute } from "./routes.ts";
import { errorBox } from "./forms.ts";
import { viewInstall, viewSignIn } from "./views/auth.ts";
import { viewCollection, viewHome } from "./views/collection.ts";
import { viewAccount } from "./views/account.ts";
import { viewNotFound } from "./views/not_found.ts";
import {
  viewEmailConfirm,
  viewForgot,
  viewReset,
  viewSignUp,
  viewVerify,
} from "./views/accounts.ts";
import { viewRecord } from "./views/record_page.ts";

/** The client module (`@strata/strata/client`) as the page loads it. */
export type StrataModule = typeof StrataClientModule;

/** How long a success toast stays at least. */
const TOAST_MS = 8000;

const VIEWS: Readonly<Record<Route["name"], ViewFunction>> = {
  home: viewHome,
  install: viewInstall,
  signIn: viewSignIn,
  account: viewAccount,
  collection: viewCollection,
  record: viewRecord,
  notFound: viewNotFound,
  signUp: viewSignUp,
  forgot: viewForgot,
  reset: viewReset,
  verify: viewVerify,
  emailConfirm: viewEmailConfirm,
};

/** Builds the dashboard inside root; call render() to show the current path. */
export function createDashboard(
  root: HTMLElement,
  base: string,
  strata: StrataModule,
): Dashboard {
  const dashRoot = base + "/dashboard";
  const state: State = {
    user: undefined,
    collections: null,
    catalog: {},
    catalogFor: null,
    language: "en",
    flash: null,
    focus: null,
  };
  let renderCount = 0;

  const header = h("header", { class: "topbar", "data-testid": "header" });
  const status = h("p", {
    class: "status",
    role: "status",
    "aria-live": "polite",
    "data-testid": "status",
  });
  const main = h("main", { id: "main", class: "main", tabindex: "-1" });
  const toasts = h("div", {
    class: "toasts",
    "aria-live": "polite",
    "data-testid": "toasts",
  });
  root.replaceChildren(header, status, main, toasts);

  const t = function (key: string, values?: MessageValues): string {
    return translate(state.catalog, key, values, state.language);
  };

  function settings(): Settings {
    const user = state.user;
    return {
      language: state.language,
      timezone: user?.timezone,
      dateFormat: user?.dateFormat,
      timeFormat: user?.timeFormat,
    };
  }

  // -- HTTP -----------------------------------------------------------------

  // Every request goes through the client of @strata/strata/client, served
  // beside this script. Error and validation messages come in the dashboard's
  // language rather than the browser's (the server reads Accept-Language
  // first).
  const client = strata.createClient({
    baseUrl: base,
    headers: function (): Record<string, string> {
      return state.catalogFor !== null
        ? { "accept-language": state.language }
        : {};
    },
  });

  // One request: the answer as { status, ok, data } whether it succeeded or
  // not (a refusal arrives as a StrataError and keeps its wire error body).
  async function call(
    method: string,
    path: string,
    opts: ApiOptions,
  ): Promise<Answer> {
    const query: Record<string, string> = {};
    if (opts.query) {
      for (const key of Object.keys(opts.query)) {
        const value = opts.query[key];
        if (value !== undefined && value !== null && value !== "") {
          query[key] = value;
        }
      }
    }
    try {
      const data = await client.request(method, path, {
        query: query,
        body: opts.body,
      });
      return data === undefined
        ? { status: 204, ok: true, data: null }
        : { status: 200, ok: true, data: data };
    } catch (error) {
      return refusal(error);
    }
  }

  // A StrataError as an answer that keeps its wire error body; anything else is rethrown.
  function refusal(error: unknown): Answer {
    if (!(error instanceof strata.StrataError)) throw error;
    const body: ErrorBody = error.data
      ? { statusCode: error.status, message: error.message, data: error.data }
      : { statusCode: error.status, message: error.message };
    return { status: error.status, ok: false, data: body };
  }

  // An upload first, through the client's upload: it reports progress where the browser can.
  async function upload(
    collection: string,
    field: string,
    file: File,
    onProgress: (progress: UploadProgress) => void,
  ): Promise<Answer> {
    try {
      const data = await client.collection(collection).upload(field, file, {
        onProgress: onProgress,
      });
      return { status: 201, ok: true, data: data };
    } catch (error) {
      return refusal(error);
    }
  }

  async function api(
    method: string,
    path: string,
    options?: ApiOptions,
  ): Promise<Answer> {
    const opts = options || {};
    const result = await call(method, path, opts);
    if (opts.auth && result.status === 401) {
      state.user = null;
      state.collections = null;
      navigate(dashRoot + "/sign-in", { replace: true });
      throw new Redirected();
    }
    return result;
  }

  async function tryApi(
    method: string,
    path: string,
    options?: ApiOptions,
  ): Promise<Answer | null> {
    try {
      return await api(method, path, options);
    } catch (error) {
      if (error instanceof Redirected) throw error;
      return null;
    }
  }

  function errorText(response: Answer | null): string {
    const body = response?.data as ErrorBody | null | undefined;
    if (body && typeof body.message === "string" && body.message !== "") {
      let text = body.message;
      if (body.data && typeof body.data.path === "string") {
        text += " (" + body.data.path + ")";
      }
      return text;
    }
    return t("error");
  }

  // -- Session and language ---------------------------------------------------

  function wantedLanguage(): string {
    if (state.user && state.user.dashboardLanguage) {
      return state.user.dashboardLanguage;
    }
    return (typeof navigator !== "undefined" && navigator.language) || "en";
  }

  async function loadCatalog(language: string): Promise<void> {
    if (state.catalogFor === language) return;
    let response = await tryApi(
      "GET",
      "/messages/dashboard/" + encodeURIComponent(language),
    );
    if ((!response || response.status !== 200) && language !== "en") {
      response = await tryApi("GET", "/messages/dashboard/en");
    }
    const ok = response && response.status === 200 && response.data &&
      typeof response.data === "object";
    state.catalog = ok && response ? response.data as Catalog : {};
    // Toasts speak the language they were made in: a switch clears them.
    toasts.replaceChildren();
    state.catalogFor = language;
    state.language = catalogLanguage(state.catalog, language);
    document.documentElement.lang = state.language;
  }

  async function loadUser(): Promise<void> {
    const response = await api("GET", "/auth/me");
    state.user = response.status === 200 && response.data &&
        typeof response.data === "object"
      ? response.data as User
      : null;
  }

  async function installRequired(): Promise<boolean> {
    const response = await tryApi("GET", "/auth/install");
    const data = response?.data as { required?: unknown } | null | undefined;
    return Boolean(
      response && response.status === 200 && data && data.required === true,
    );
  }

  async function requireSignedIn(): Promise<boolean> {
    if (state.user) return true;
    if (await installRequired()) {
      navigate(dashRoot + "/install", { replace: true });
      return false;
    }
    // Back to the page asked for once signed in.
    const here = location.pathname + location.search;
    const next = here === dashRoot || here === dashRoot + "/"
      ? ""
      : "?next=" + encodeURIComponent(here);
    navigate(dashRoot + "/sign-in" + next, { replace: true });
    return false;
  }

  function signedInUser(): User {
    if (!state.user) throw new Redirected();
    return state.user;
  }

  async function loadCollections(): Promise<Collection[]> {
    if (state.collections) return state.collections;
    const response = await api("GET", "/dashboard/api/collections", {
      auth: true,
    });
    if (response.status !== 200 || !Array.isArray(response.data)) {
      throw new ApiError(response, t("error"));
    }
    state.collections = response.data as Collection[];
    return state.collections;
  }

  // -- Navigation and rendering -----------------------------------------------

  function navigate(url: string, options?: NavigateOptions): void {
    const opts = options || {};
    if (!opts.replace && !mayLeave()) return;
    state.dirty = null;
    const here = location.pathname + location.search;
    if (opts.replace || url === here) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
    if (opts.focus) state.focus = opts.focus;
    else if (!opts.replace) state.focus = "h1";
    render();
  }

  function setBusy(busy: boolean): void {
    document.documentElement.dataset.state = busy ? "loading" : "ready";
    main.setAttribute("aria-busy", busy ? "true" : "false");
    status.textContent = busy ? t("loading") : "";
  }

  async function render(): Promise<void> {
    const id = ++renderCount;
    const current = function (): boolean {
      return id === renderCount;
    };
    setBusy(true);
    let route: Route = { name: "notFound" };
    try {
      if (state.user === undefined) await loadUser();
      await loadCatalog(wantedLanguage());
      if (!current()) return;
      route = parseRoute(location.pathname, base);
      const view = await VIEWS[route.name](dashboard, route, current);
      if (!view || !current()) return;
      show(route, view);
    } catch (error) {
      if (error instanceof Redirected || !current()) return;
      show(route, {
        title: t("error"),
        content: h(
          "section",
          { class: "card" },
          h("h1", { tabindex: "-1" }, t("error")),
          errorBox(error instanceof ApiError ? error.message : t("error")),
        ),
      });
    } finally {
      if (current()) setBusy(false);
    }
  }

  function show(route: Route, view: View): void {
    shown = location.pathname + location.search;
    renderHeader(route);
    main.replaceChildren();
    append(main, [view.content]);
    document.title = view.title ? view.title + " · Strata" : "Strata";
    document.documentElement.dataset.view = route.name;
    const selector = state.focus;
    state.focus = null;
    if (selector) {
      const target = main.querySelector<HTMLElement>(selector) ||
        main.querySelector<HTMLElement>("h1");
      if (target) {
        if (target.tagName === "H1") target.setAttribute("tabindex", "-1");
        target.focus();
      }
    }
  }

  function renderHeader(route: Route): void {
    const items: HTMLElement[] = [
      h("a", { class: "brand", href: dashRoot, "data-testid": "brand" }, [
        h("span", { class: "brand-mark", "aria-hidden": "true" }),
        "Strata",
      ]),
    ];
    if (state.user) {
      const onCollections = route.name === "home" ||
        route.name === "collection";
      items.push(
        h(
          "nav",
          { class: "topnav" },
          h("a", {
            href: dashRoot,
            "aria-current": onCollections ? "page" : null,
            "data-testid": "nav-collections",
          }, t("collections")),
          h("a", {
            href: dashRoot + "/account",
            "aria-current": route.name === "account" ? "page" : null,
            "data-testid": "nav-account",
          }, t("account")),
        ),
        h(
          "div",
          { class: "session" },
          h(
            "span",
            { class: "signed-in", "data-testid": "signed-in-as" },
            t("signedInAs", { email: state.user.email }),
          ),
          h("button", {
            type: "button",
            class: "button button-quiet",
            "data-testid": "sign-out",
            onclick: signOut,
          }, t("signOut")),
        ),
      );
    }
    header.replaceChildren(...items);
  }

  function toast(text: string, kind?: "success" | "error"): void {
    const item = h(
      "div",
      {
        class: "toast toast-" + (kind || "success"),
        role: kind === "error" ? "alert" : "status",
        "data-testid": "toast",
      },
      h("span", {}, text),
      h("button", {
        type: "button",
        class: "button button-quiet button-icon",
        "aria-label": t("close"),
        onclick: function () {
          item.remove();
        },
      }, "×"),
    );
    toasts.append(item);
    while (toasts.children.length > 3) toasts.firstElementChild?.remove();
    // A success goes at the user's first action after a while (so that one who looked away
    // still sees it); an error stays until closed.
    if (kind !== "error") {
      setTimeout(function () {
        const dismiss = function (): void {
          item.remove();
          document.removeEventListener("pointerdown", dismiss, true);
          document.removeEventListener("keydown", dismiss, true);
        };
        document.addEventListener("pointerdown", dismiss, true);
        document.addEventListener("keydown", dismiss, true);
      }, TOAST_MS);
    }
  }

  async function signOut(): Promise<void> {
    await tryApi("POST", "/auth/logout");
    state.user = null;
    state.collections = null;
    navigate(dashRoot + "/sign-in");
  }

  // -- Events ---------------------------------------------------------------

  root.addEventListener("click", function (event) {
    if (
      event.defaultPrevented || event.button !== 0 || event.metaKey ||
      event.ctrlKey || event.shiftKey || event.altKey
    ) return;
    const target = event.target instanceof Element ? event.target : null;
    const link = target?.closest<HTMLAnchorElement>("a[href]");
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return;
    if (url.pathname !== dashRoot && !url.pathname.startsWith(dashRoot + "/")) {
      return;
    }
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  let shown = location.pathname + location.search;
  // Unsaved changes are given up only when the user says so.
  function mayLeave(): boolean {
    return !state.dirty?.() || globalThis.confirm(t("unsavedChanges"));
  }
  globalThis.addEventListener("popstate", function () {
    if (!mayLeave()) {
      // Stay: put back the page the back button left.
      history.pushState(null, "", shown);
      return;
    }
    state.dirty = null;
    state.focus = "h1";
    render();
  });
  // A reload or a closed tab with unsaved changes asks first.
  globalThis.addEventListener("beforeunload", function (event) {
    if (state.dirty?.()) event.preventDefault();
  });

  const dashboard: Dashboard = {
    base,
    root: dashRoot,
    state,
    main,
    t,
    settings,
    api,
    tryApi,
    upload,
    errorText,
    navigate,
    render,
    installRequired,
    requireSignedIn,
    loadCollections,
    signedInUser,
    toast,
  };
  return dashboard;
}
