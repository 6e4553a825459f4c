/**
 * The dashboard's client script, served at `/dashboard/assets/app.js`: an ES
 * module holding the whole single-page app (no framework, no build step).
 *
 * It is a string because the package may be imported from a URL and can
 * never read its own files. The source avoids backticks and `${` so that it
 * fits in one raw template literal; keep it that way when editing.
 *
 * @module
 */

/** The JavaScript source of the dashboard's client module. */
export const appJs: string = String.raw`
// Strata dashboard: a single-page app without framework or build step. It is
// served as an ES module; the pure helpers are exported so that tests can
// import the module without a DOM, and the app starts only where a document
// exists. No template literals: this source lives inside a TypeScript string.

/** English texts, used only when the catalog lacks a key or cannot load. */
export const fallbackMessages = Object.freeze({
  signIn: "Sign in",
  signOut: "Sign out",
  email: "Email",
  password: "Password",
  rememberMe: "Remember me",
  installTitle: "Welcome to Strata",
  installIntro: "Create the first administrator account to finish the setup.",
  installSubmit: "Create account",
  account: "Account",
  language: "Language",
  contentLanguage: "Content language",
  timezone: "Time zone",
  dateFormat: "Date format",
  timeFormat: "Time format",
  smartClipboard: "Smart clipboard",
  newPassword: "New password",
  save: "Save",
  saved: "Saved",
  create: "Create",
  edit: "Edit",
  delete: "Delete",
  confirmDelete: "Delete this record? This cannot be undone.",
  filter: "Filter",
  applyFilter: "Apply",
  clearFilter: "Clear",
  previous: "Previous",
  next: "Next",
  pageOf: "Page {page} of {lastPage}",
  records: "{count, plural, =0 {No records} one {# record} other {# records}}",
  collections: "Collections",
  noAccess: "You do not have access to this page",
  locale: "Locale",
  signedInAs: "Signed in as {email}",
  loading: "Loading…",
  error: "Something went wrong",
  sortAscending: "Sort ascending",
  sortDescending: "Sort descending",
  cancel: "Cancel",
  fieldRequired: "This field is required",
  close: "Close",
  notFound: "Page not found",
  actions: "Actions",
});

/** Dashboard languages offered on the account page (more may be configured). */
export const dashboardLanguages = Object.freeze(["en", "de"]);

/** Rows per page of the collections browser. */
export const PER_PAGE = 20;

// ---------------------------------------------------------------------------
// Messages: the ICU subset the catalogs use ({name}, number, plural,
// selectordinal, select, #, apostrophe quoting).

const parsedTemplates = new Map();

/** Parses an ICU-style template into nodes; throws a SyntaxError when malformed. */
export function parseMessage(src) {
  let pos = 0;
  const fail = function () {
    throw new SyntaxError("Malformed message at offset " + pos);
  };
  const expect = function (char) {
    if (src[pos] !== char) fail();
    pos++;
  };
  const skipSpace = function () {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const read = function (pattern) {
    const start = pos;
    while (pos < src.length && pattern.test(src[pos])) pos++;
    if (pos === start) fail();
    return src.slice(start, pos);
  };
  const message = function (depth, inPlural) {
    if (depth > 16) fail();
    const nodes = [];
    let text = "";
    const flush = function () {
      if (text !== "") nodes.push(text);
      text = "";
    };
    while (pos < src.length) {
      const char = src[pos];
      if (char === "}") break;
      if (char === "{") {
        flush();
        nodes.push(argument(depth, inPlural));
        continue;
      }
      if (char === "#" && inPlural) {
        flush();
        nodes.push({ kind: "pound" });
        pos++;
        continue;
      }
      if (char === "'") {
        const after = src[pos + 1];
        if (after === "'") {
          text += "'";
          pos += 2;
          continue;
        }
        if (after === "{" || after === "}" || (after === "#" && inPlural)) {
          pos++;
          while (pos < src.length) {
            if (src[pos] === "'") {
              if (src[pos + 1] === "'") {
                text += "'";
                pos += 2;
                continue;
              }
              pos++;
              break;
            }
            text += src[pos];
            pos++;
          }
          continue;
        }
      }
      text += char;
      pos++;
    }
    flush();
    return nodes;
  };
  const argument = function (depth, inPlural) {
    expect("{");
    skipSpace();
    const name = read(/[^\s{}#',]/);
    skipSpace();
    if (src[pos] === "}") {
      pos++;
      return { kind: "argument", name: name, style: "none" };
    }
    expect(",");
    skipSpace();
    const type = read(/[^\s{}#',]/);
    skipSpace();
    if (type === "number") {
      let style = "number";
      if (src[pos] === ",") {
        pos++;
        skipSpace();
        style = read(/[^\s{}#',]/);
        if (style !== "integer" && style !== "percent") fail();
        skipSpace();
      }
      expect("}");
      return { kind: "argument", name: name, style: style };
    }
    if (type !== "plural" && type !== "selectordinal" && type !== "select") {
      fail();
    }
    expect(",");
    skipSpace();
    const isPlural = type !== "select";
    let offset = 0;
    if (isPlural && src.startsWith("offset:", pos)) {
      pos += 7;
      skipSpace();
      offset = Number(read(/[0-9]/));
      skipSpace();
    }
    const options = new Map();
    const exact = new Map();
    while (pos < src.length && src[pos] !== "}") {
      const key = read(/[^\s{}]/);
      skipSpace();
      expect("{");
      const nodes = message(depth + 1, isPlural || inPlural);
      expect("}");
      skipSpace();
      if (isPlural && key[0] === "=") {
        const exactValue = Number(key.slice(1));
        if (key.length === 1 || !Number.isFinite(exactValue)) fail();
        exact.set(exactValue, nodes);
      } else {
        options.set(key, nodes);
      }
    }
    expect("}");
    if (!options.has("other")) fail();
    return {
      kind: isPlural ? "plural" : "select",
      ordinal: type === "selectordinal",
      name: name,
      offset: offset,
      exact: exact,
      options: options,
    };
  };
  const nodes = message(0, false);
  if (pos !== src.length) fail();
  return nodes;
}

function formatNumber(value, language, style) {
  const options = style === "percent"
    ? { style: "percent" }
    : style === "integer"
    ? { maximumFractionDigits: 0 }
    : {};
  try {
    return new Intl.NumberFormat(language, options).format(value);
  } catch {
    return String(value);
  }
}

function pluralCategory(language, ordinal, value) {
  const options = { type: ordinal ? "ordinal" : "cardinal" };
  try {
    return new Intl.PluralRules(language, options).select(value);
  } catch {
    return new Intl.PluralRules("en", options).select(value);
  }
}

function formatNodes(nodes, values, language, pound) {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") {
      out += node;
    } else if (node.kind === "pound") {
      out += pound === undefined ? "#" : formatNumber(pound, language, "none");
    } else if (node.kind === "argument") {
      const value = values[node.name];
      if (value === undefined || value === null) {
        out += "{" + node.name + "}";
      } else if (node.style !== "none" || typeof value === "number") {
        out += formatNumber(Number(value), language, node.style);
      } else {
        out += String(value);
      }
    } else if (node.kind === "plural") {
      const number = Number(values[node.name]);
      const relative = number - node.offset;
      let branch = node.exact.get(number);
      if (branch === undefined) {
        const category = pluralCategory(language, node.ordinal, relative);
        branch = node.options.get(category) || node.options.get("other");
      }
      out += formatNodes(branch, values, language, relative);
    } else {
      const key = String(values[node.name]);
      const branch = node.options.get(key) || node.options.get("other");
      out += formatNodes(branch, values, language, pound);
    }
  }
  return out;
}

/**
 * Renders a template with values; plural rules and numbers follow language.
 * A malformed template is shown as written rather than breaking the page.
 */
export function formatMessage(template, values, language) {
  let nodes = parsedTemplates.get(template);
  if (nodes === undefined) {
    try {
      nodes = parseMessage(template);
    } catch {
      return template;
    }
    parsedTemplates.set(template, nodes);
  }
  return formatNodes(nodes, values || {}, language || "en", undefined);
}

/**
 * The language a catalog answer is in: the closest to the requested tag
 * among its templates' languages (the route falls back de-AT, de, default),
 * else the language most of it came from.
 */
export function catalogLanguage(catalog, requested) {
  const wanted = String(requested || "").toLowerCase();
  let best = "";
  const counts = new Map();
  for (const key of Object.keys(catalog || {})) {
    const language = catalog[key] && catalog[key].language;
    if (typeof language !== "string" || language === "") continue;
    counts.set(language, (counts.get(language) || 0) + 1);
    const lower = language.toLowerCase();
    const fits = wanted === lower || wanted.startsWith(lower + "-");
    if (fits && language.length > best.length) best = language;
  }
  if (best !== "") return best;
  let most = "";
  for (const entry of counts) {
    if (most === "" || entry[1] > counts.get(most)) most = entry[0];
  }
  return most || requested || "en";
}

/** Looks a short key (signIn) up in a catalog answer, with English fallbacks. */
export function translate(catalog, key, values, language) {
  const entry = catalog ? catalog["dashboard." + key] : undefined;
  if (typeof entry === "string") return formatMessage(entry, values, language);
  if (entry && typeof entry.template === "string") {
    return formatMessage(entry.template, values, entry.language || language);
  }
  const fallback = Object.hasOwn(fallbackMessages, key)
    ? fallbackMessages[key]
    : key;
  return formatMessage(fallback, values, "en");
}

// ---------------------------------------------------------------------------
// Routes and list state.

/** Strips trailing slashes; / and empty mean no base path. */
export function normalizeBase(value) {
  const base = String(value || "").trim().replace(/\/+$/, "");
  return base.startsWith("/") ? base : "";
}

/** The page a dashboard path names: { name, path? }. */
export function parseRoute(pathname, base) {
  const root = normalizeBase(base) + "/dashboard";
  if (pathname !== root && !pathname.startsWith(root + "/")) {
    return { name: "notFound" };
  }
  const rest = pathname.slice(root.length).replace(/\/+$/, "");
  if (rest === "") return { name: "home" };
  if (rest === "/install") return { name: "install" };
  if (rest === "/sign-in") return { name: "signIn" };
  if (rest === "/account") return { name: "account" };
  const match = /^\/collections\/([^/]+)$/.exec(rest);
  if (match) {
    try {
      return { name: "collection", path: decodeURIComponent(match[1]) };
    } catch {
      return { name: "notFound" };
    }
  }
  return { name: "notFound" };
}

/** Page, order, filter text and locale of a collection page, from its query string. */
export function readListState(search) {
  const params = new URLSearchParams(search || "");
  const page = Number(params.get("page"));
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    order: params.get("order") || "",
    q: params.get("q") || "",
    locale: params.get("locale") || "",
  };
}

/** The query string of a list state ("" when everything is default). */
export function listSearch(listState) {
  const params = new URLSearchParams();
  if (listState.page > 1) params.set("page", String(listState.page));
  if (listState.order) params.set("order", listState.order);
  if (listState.q) params.set("q", listState.q);
  if (listState.locale) params.set("locale", listState.locale);
  const search = params.toString();
  return search === "" ? "" : "?" + search;
}

/** The storage kind of a field (kind, else its type name). */
export function fieldKind(field) {
  return field.kind || field.type || "text";
}

/** Whether a field links to other records. */
export function isRelation(field) {
  const kind = fieldKind(field);
  return kind === "record" || kind === "records";
}

/** Fields the filter box searches: readable text fields. */
export function searchableFields(fields) {
  return fields.filter(function (field) {
    return field.readable !== false && fieldKind(field) === "text";
  });
}

/** Fields a header click may sort by. */
export function isSortable(field) {
  const kind = fieldKind(field);
  return kind !== "multiSelect" && kind !== "records";
}

/** The where object of a filter text: contains over every searchable field. */
export function filterWhere(fields, text) {
  const term = String(text || "").trim();
  if (term === "") return undefined;
  const conditions = searchableFields(fields).map(function (field) {
    return { [field.name]: { contains: term } };
  });
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { or: conditions };
}

/** Query parameters of a list read; user text travels as JSON strings. */
export function listQuery(collection, listState, locale) {
  const query = { page: String(listState.page), perPage: String(PER_PAGE) };
  const fields = collection.fields || [];
  const orderName = listState.order.replace(/^-/, "");
  const orderField = fields.find(function (field) {
    return field.name === orderName;
  });
  if (orderField && orderField.readable !== false && isSortable(orderField)) {
    query.order = JSON.stringify([listState.order]);
  }
  const where = filterWhere(fields, listState.q);
  if (where !== undefined) query.where = JSON.stringify(where);
  if (locale) query.locale = locale;
  return query;
}

/** The next order after a click on a column header: ascending, then descending. */
export function nextOrder(current, name) {
  return current === name ? "-" + name : name;
}

/** The first eight characters of a UUID. */
export function shortUuid(value) {
  return typeof value === "string" ? value.slice(0, 8) : "";
}

/** The locale a translatable collection is browsed at. */
export function pickLocale(collection, wanted, contentLanguage) {
  const locales = collection.locales || [];
  if (wanted && locales.includes(wanted)) return wanted;
  if (contentLanguage && locales.includes(contentLanguage)) {
    return contentLanguage;
  }
  return locales[0] || "";
}

// ---------------------------------------------------------------------------
// Form values.

function pad(number) {
  return String(number).padStart(2, "0");
}

/** A field value as the text an input shows. */
export function toInputValue(field, value) {
  if (value === null || value === undefined) return "";
  const kind = fieldKind(field);
  if (kind === "dateTime") {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return "";
    return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" +
      pad(date.getDate()) + "T" + pad(date.getHours()) + ":" +
      pad(date.getMinutes()) + ":" + pad(date.getSeconds());
  }
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/** The text of an input as a field value: { empty, value }. */
export function fromInputValue(field, text) {
  const raw = String(text);
  const kind = fieldKind(field);
  if (kind === "records" || kind === "multiSelect") {
    const items = raw.split(/[\s,]+/).filter(function (item) {
      return item !== "";
    });
    return { empty: items.length === 0, value: items };
  }
  if (raw.trim() === "") return { empty: true, value: null };
  if (kind === "integer" || kind === "number") {
    const number = Number(raw);
    return { empty: false, value: Number.isFinite(number) ? number : raw };
  }
  if (kind === "dateTime") {
    const time = new Date(raw).getTime();
    return { empty: false, value: Number.isNaN(time) ? raw : time };
  }
  if (kind === "time" && /^\d\d:\d\d$/.test(raw)) {
    return { empty: false, value: raw + ":00" };
  }
  if (kind === "record") return { empty: false, value: raw.trim() };
  return { empty: false, value: raw };
}

/** The value to write for a field the user emptied. */
export function emptyValue(field) {
  if (field.nullable) return null;
  const kind = fieldKind(field);
  if (kind === "text") return "";
  if (kind === "multiSelect" || kind === "records") return [];
  return null;
}

/** The keys of data.errors in an error answer, mapped to their field names. */
export function fieldErrors(body) {
  const errors = body && body.data && body.data.errors;
  const out = {};
  if (!errors || typeof errors !== "object") return out;
  for (const key of Object.keys(errors)) {
    const name = key.split(/[.[]/)[0];
    const message = String(errors[key]);
    out[name] = out[name] ? out[name] + " " + message : message;
  }
  return out;
}

const DATE_STYLES = new Map([
  ["L", "short"],
  ["l", "short"],
  ["ll", "medium"],
  ["LL", "long"],
  ["LLL", "long"],
  ["LLLL", "full"],
]);
const TIME_STYLES = new Map([["LT", "short"], ["LTS", "medium"]]);

/** A cell's text in the records table. */
export function formatCell(field, value, settings) {
  if (value === null || value === undefined) return "";
  const kind = fieldKind(field);
  const language = settings.language || "en";
  if (kind === "record") return shortUuid(value);
  if (Array.isArray(value)) {
    return value.map(kind === "records" ? shortUuid : String).join(", ");
  }
  if (kind === "boolean") return value ? "✓" : "✗";
  if (kind === "integer" || kind === "number") {
    return typeof value === "number" ? formatNumber(value, language) : "";
  }
  const dateStyle = DATE_STYLES.get(settings.dateFormat) || "medium";
  if (kind === "date" && /^\d{4}-\d\d-\d\d$/.test(value)) {
    try {
      return new Intl.DateTimeFormat(language, {
        dateStyle: dateStyle,
        timeZone: "UTC",
      }).format(new Date(value + "T00:00:00Z"));
    } catch {
      return String(value);
    }
  }
  if (kind === "dateTime" && typeof value === "number") {
    const options = {
      dateStyle: dateStyle,
      timeStyle: TIME_STYLES.get(settings.timeFormat) || "medium",
    };
    try {
      return new Intl.DateTimeFormat(
        language,
        Object.assign({ timeZone: settings.timezone || undefined }, options),
      ).format(new Date(value));
    } catch {
      return new Intl.DateTimeFormat(language, options).format(new Date(value));
    }
  }
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------------------
// DOM helpers.

/** Creates an element: h("a", { href: "/" }, "text", child). */
function h(tag, props) {
  const element = document.createElement(tag);
  for (const key of Object.keys(props || {})) {
    const value = props[key];
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (key === "value" || key === "checked" || key === "selected") {
      element[key] = value;
    } else if (key === "class") {
      element.className = value;
    } else {
      element.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(element, Array.prototype.slice.call(arguments, 2));
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (typeof child === "string") {
      element.appendChild(document.createTextNode(child));
    } else element.appendChild(child);
  }
}

class Redirected extends Error {}

class ApiError extends Error {
  constructor(response, fallback) {
    const body = response.data;
    super(body && typeof body.message === "string" ? body.message : fallback);
    this.status = response.status;
    this.body = body;
  }
}

let fieldIds = 0;

// ---------------------------------------------------------------------------
// The app.

function createDashboard(root, base) {
  const dashRoot = base + "/dashboard";
  const state = {
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
  root.replaceChildren(header, status, main);

  function t(key, values) {
    return translate(state.catalog, key, values, state.language);
  }

  function settings() {
    const user = state.user || {};
    return {
      language: state.language,
      timezone: user.timezone,
      dateFormat: user.dateFormat,
      timeFormat: user.timeFormat,
    };
  }

  // -- HTTP -----------------------------------------------------------------

  async function api(method, path, options) {
    const opts = options || {};
    let url = base + path;
    if (opts.query) {
      const params = new URLSearchParams();
      for (const key of Object.keys(opts.query)) {
        const value = opts.query[key];
        if (value !== undefined && value !== null && value !== "") {
          params.set(key, value);
        }
      }
      const search = params.toString();
      if (search !== "") url += "?" + search;
    }
    const init = {
      method: method,
      headers: { accept: "application/json" },
      credentials: "same-origin",
    };
    // Error and validation messages then come in the dashboard's language
    // rather than the browser's (the server reads Accept-Language first).
    if (state.catalogFor !== null) {
      init.headers["accept-language"] = state.language;
    }
    if (opts.body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    const response = await fetch(url, init);
    const text = await response.text();
    let data = null;
    if (text !== "") {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    }
    const result = { status: response.status, ok: response.ok, data: data };
    if (opts.auth && response.status === 401) {
      state.user = null;
      state.collections = null;
      navigate(dashRoot + "/sign-in", { replace: true });
      throw new Redirected();
    }
    return result;
  }

  async function tryApi(method, path, options) {
    try {
      return await api(method, path, options);
    } catch (error) {
      if (error instanceof Redirected) throw error;
      return null;
    }
  }

  function errorText(response) {
    const body = response && response.data;
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

  function wantedLanguage() {
    if (state.user && state.user.dashboardLanguage) {
      return state.user.dashboardLanguage;
    }
    return (typeof navigator !== "undefined" && navigator.language) || "en";
  }

  async function loadCatalog(language) {
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
    state.catalog = ok ? response.data : {};
    state.catalogFor = language;
    state.language = catalogLanguage(state.catalog, language);
    document.documentElement.lang = state.language;
  }

  async function loadUser() {
    const response = await api("GET", "/auth/me");
    state.user = response.status === 200 && response.data &&
        typeof response.data === "object"
      ? response.data
      : null;
  }

  async function installRequired() {
    const response = await tryApi("GET", "/auth/install");
    return Boolean(
      response && response.status === 200 && response.data &&
        response.data.required === true,
    );
  }

  async function requireSignedIn() {
    if (state.user) return true;
    const target = (await installRequired()) ? "/install" : "/sign-in";
    navigate(dashRoot + target, { replace: true });
    return false;
  }

  async function loadCollections() {
    if (state.collections) return state.collections;
    const response = await api("GET", "/dashboard/api/collections", {
      auth: true,
    });
    if (response.status !== 200 || !Array.isArray(response.data)) {
      throw new ApiError(response, t("error"));
    }
    state.collections = response.data;
    return state.collections;
  }

  // -- Navigation and rendering -----------------------------------------------

  function navigate(url, options) {
    const opts = options || {};
    const here = location.pathname + location.search;
    if (opts.replace || url === here) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
    if (opts.focus) state.focus = opts.focus;
    else if (!opts.replace) state.focus = "h1";
    render();
  }

  function setBusy(busy) {
    document.documentElement.dataset.state = busy ? "loading" : "ready";
    main.setAttribute("aria-busy", busy ? "true" : "false");
    status.textContent = busy ? t("loading") : "";
  }

  async function render() {
    const id = ++renderCount;
    const current = function () {
      return id === renderCount;
    };
    setBusy(true);
    let route = { name: "notFound" };
    try {
      if (state.user === undefined) await loadUser();
      await loadCatalog(wantedLanguage());
      if (!current()) return;
      route = parseRoute(location.pathname, base);
      const view = await VIEWS[route.name](route, current);
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

  function show(route, view) {
    renderHeader(route);
    main.replaceChildren(view.content);
    document.title = view.title ? view.title + " · Strata" : "Strata";
    document.documentElement.dataset.view = route.name;
    const selector = state.focus;
    state.focus = null;
    if (selector) {
      const target = main.querySelector(selector) ||
        main.querySelector("h1");
      if (target) {
        if (target.tagName === "H1") target.setAttribute("tabindex", "-1");
        target.focus();
      }
    }
  }

  function errorBox(text) {
    return h("p", {
      class: "alert alert-error",
      role: "alert",
      "data-testid": "form-error",
    }, text);
  }

  function renderHeader(route) {
    const items = [
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
    header.replaceChildren.apply(header, items);
  }

  async function signOut() {
    await tryApi("POST", "/auth/logout");
    state.user = null;
    state.collections = null;
    navigate(dashRoot + "/sign-in");
  }

  // -- Forms ----------------------------------------------------------------

  /**
   * One labelled control. spec.control is "input", "select" or "checkbox";
   * returns the row with row.input and row.name.
   */
  function fieldRow(spec) {
    const id = "f" + ++fieldIds + "-" + spec.name;
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
    let input;
    if (spec.control === "checkbox") {
      input = h(
        "input",
        Object.assign(
          { type: "checkbox", checked: Boolean(spec.value) },
          common,
        ),
      );
    } else if (spec.control === "select") {
      input = h(
        "select",
        Object.assign({ multiple: spec.multiple, size: spec.size }, common),
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
      input = h(
        "input",
        Object.assign({
          type: spec.type || "text",
          value: spec.value === undefined ? "" : spec.value,
          autocomplete: spec.autocomplete,
          step: spec.step,
          list: spec.list,
          inputmode: spec.inputmode,
          spellcheck: spec.spellcheck,
        }, common),
      );
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
    const row = spec.control === "checkbox"
      ? h("div", { class: "field field-check" }, input, label, hint, error)
      : h("div", { class: "field" }, label, input, hint, error, spec.extra);
    row.input = input;
    row.name = spec.name;
    return row;
  }

  function clearErrors(form) {
    for (const element of form.querySelectorAll("[data-error-for]")) {
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
  function showErrors(form, errors, generalText) {
    clearErrors(form);
    const general = [];
    if (generalText) general.push(generalText);
    let first = null;
    for (const name of Object.keys(errors)) {
      const slot = Array.prototype.find.call(
        form.querySelectorAll("[data-error-for]"),
        function (element) {
          return element.getAttribute("data-error-for") === name;
        },
      );
      if (!slot) {
        general.push(name + ": " + errors[name]);
        continue;
      }
      slot.textContent = errors[name];
      slot.hidden = false;
      const input = slot.parentElement.querySelector("input, select");
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

  function formAlert() {
    return h("div", { class: "form-alert" });
  }

  /** Wires a submit handler that cannot run twice at once. */
  function onSubmit(form, handler) {
    form.setAttribute("novalidate", "");
    form.addEventListener("submit", async function (event) {
      event.preventDefault();
      if (form.dataset.busy === "true") return;
      form.dataset.busy = "true";
      form.setAttribute("aria-busy", "true");
      const buttons = form.querySelectorAll("button[type=submit]");
      for (const button of buttons) button.disabled = true;
      try {
        await handler();
      } catch (error) {
        if (!(error instanceof Redirected)) {
          showErrors(
            form,
            {},
            error instanceof ApiError ? error.message : t("error"),
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
  function requireFilled(rows) {
    const errors = {};
    for (const row of rows) {
      if (row.input.value.trim() === "") errors[row.name] = t("fieldRequired");
    }
    return errors;
  }

  // -- Views ------------------------------------------------------------------

  function card(title, intro, body) {
    return h(
      "section",
      { class: "card card-narrow" },
      h("h1", { tabindex: "-1" }, title),
      intro ? h("p", { class: "intro" }, intro) : null,
      body,
    );
  }

  async function viewInstall(_route, current) {
    if (!(await installRequired())) {
      if (current()) navigate(dashRoot + "/sign-in", { replace: true });
      return null;
    }
    const email = fieldRow({
      name: "email",
      label: t("email"),
      type: "email",
      autocomplete: "username",
      required: true,
    });
    const password = fieldRow({
      name: "password",
      label: t("password"),
      type: "password",
      autocomplete: "new-password",
      required: true,
    });
    const form = h(
      "form",
      { class: "form", "data-testid": "install-form" },
      email,
      password,
      formAlert(),
      h(
        "div",
        { class: "actions" },
        h("button", {
          type: "submit",
          class: "button button-primary",
          "data-testid": "install-submit",
        }, t("installSubmit")),
      ),
    );
    onSubmit(form, async function () {
      const missing = requireFilled([email, password]);
      if (Object.keys(missing).length > 0) return showErrors(form, missing);
      const response = await api("POST", "/auth/install", {
        body: {
          email: email.input.value.trim(),
          password: password.input.value,
        },
      });
      if (response.status === 200) {
        state.user = response.data;
        state.collections = null;
        navigate(dashRoot);
      } else if (response.status === 403) {
        navigate(dashRoot + "/sign-in", { replace: true });
      } else {
        showErrors(
          form,
          fieldErrors(response.data),
          response.status === 422 ? "" : errorText(response),
        );
      }
    });
    return {
      title: t("installTitle"),
      content: card(t("installTitle"), t("installIntro"), form),
    };
  }

  async function viewSignIn() {
    if (state.user) {
      navigate(dashRoot, { replace: true });
      return null;
    }
    if (await installRequired()) {
      navigate(dashRoot + "/install", { replace: true });
      return null;
    }
    const email = fieldRow({
      name: "email",
      label: t("email"),
      type: "email",
      autocomplete: "username",
      required: true,
    });
    const password = fieldRow({
      name: "password",
      label: t("password"),
      type: "password",
      autocomplete: "current-password",
      required: true,
    });
    const remember = fieldRow({
      name: "remember",
      label: t("rememberMe"),
      control: "checkbox",
    });
    const form = h(
      "form",
      { class: "form", "data-testid": "sign-in-form" },
      email,
      password,
      remember,
      formAlert(),
      h(
        "div",
        { class: "actions" },
        h("button", {
          type: "submit",
          class: "button button-primary",
          "data-testid": "sign-in-submit",
        }, t("signIn")),
      ),
    );
    onSubmit(form, async function () {
      const missing = requireFilled([email, password]);
      if (Object.keys(missing).length > 0) return showErrors(form, missing);
      const response = await api("POST", "/auth/login", {
        body: {
          email: email.input.value.trim(),
          password: password.input.value,
          remember: remember.input.checked,
        },
      });
      if (response.status === 200 && response.data) {
        state.user = response.data;
        state.collections = null;
        navigate(dashRoot);
      } else {
        password.input.value = "";
        showErrors(
          form,
          fieldErrors(response.data),
          response.status === 422 ? "" : errorText(response),
        );
      }
    });
    return { title: t("signIn"), content: card(t("signIn"), null, form) };
  }

  async function viewHome() {
    if (!(await requireSignedIn())) return null;
    const collections = await loadCollections();
    if (collections.length > 0) {
      navigate(collectionUrl(collections[0]), { replace: true });
      return null;
    }
    return {
      title: t("collections"),
      content: collectionsLayout(collections, null, [
        h("h1", { tabindex: "-1" }, t("collections")),
        h("p", { class: "empty", "data-testid": "no-access" }, t("noAccess")),
      ]),
    };
  }

  function collectionUrl(collection) {
    return dashRoot + "/collections/" + encodeURIComponent(collection.path);
  }

  function collectionsLayout(collections, active, content) {
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
        t("collections"),
      ),
      h(
        "ul",
        {},
        collections.map(function (collection) {
          return h(
            "li",
            {},
            h("a", {
              href: collectionUrl(collection),
              "aria-current": collection === active ? "page" : null,
              "data-testid": "collection-link-" + collection.path,
            }, collection.name),
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

  async function viewCollection(route, current) {
    if (!(await requireSignedIn())) return null;
    const collections = await loadCollections();
    const collection = collections.find(function (item) {
      return item.path === route.path;
    });
    if (!collection) {
      return {
        title: t("noAccess"),
        content: collectionsLayout(collections, null, [
          h("h1", { tabindex: "-1" }, t("noAccess")),
        ]),
      };
    }
    const listState = readListState(location.search);
    const locale = collection.translatable
      ? pickLocale(collection, listState.locale, state.user.contentLanguage)
      : "";
    const response = await api("GET", "/collections/" + collection.path, {
      query: listQuery(collection, listState, locale),
      auth: true,
    });
    if (!current()) return null;
    const envelope = response.status === 200 && response.data &&
        Array.isArray(response.data.records)
      ? response.data
      : null;
    if (
      envelope && envelope.records.length === 0 && listState.page > 1 &&
      envelope.lastPage < listState.page
    ) {
      const last = Object.assign({}, listState, {
        page: Math.max(1, envelope.lastPage),
      });
      navigate(location.pathname + listSearch(last), { replace: true });
      return null;
    }
    const flash = state.flash;
    state.flash = null;
    const content = [
      h(
        "h1",
        { tabindex: "-1", "data-testid": "collection-title" },
        collection.name,
      ),
      flash ? errorBox(flash) : null,
      collectionToolbar(collection, listState, locale),
      envelope
        ? recordsTable(collection, envelope, listState, locale)
        : errorBox(errorText(response)),
      envelope ? pagination(envelope, listState) : null,
    ];
    return {
      title: collection.name,
      content: collectionsLayout(collections, collection, content),
    };
  }

  function goList(listState, patch, focus) {
    const next = Object.assign({}, listState, patch);
    navigate(location.pathname + listSearch(next), { focus: focus });
  }

  function collectionToolbar(collection, listState, locale) {
    const parts = [];
    if (searchableFields(collection.fields || []).length > 0) {
      const id = "filter-" + ++fieldIds;
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
          listState,
          { q: input.value.trim(), page: 1 },
          "[data-testid=filter-input]",
        );
      });
      parts.push(form);
    }
    if (collection.translatable && (collection.locales || []).length > 0) {
      const id = "locale-" + ++fieldIds;
      const select = h(
        "select",
        { id: id, "data-testid": "locale-select" },
        collection.locales.map(function (code) {
          return h("option", { value: code, selected: code === locale }, code);
        }),
      );
      select.addEventListener("change", function () {
        goList(
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
            openRecordDialog(collection, null, locale);
          },
        }, t("create")),
      );
    }
    return h("div", { class: "toolbar" }, parts);
  }

  function tableColumns(collection) {
    return (collection.fields || []).filter(function (field) {
      return field.readable !== false && field.name !== "UUID";
    });
  }

  function recordsTable(collection, envelope, listState, locale) {
    const columns = tableColumns(collection);
    const ops = collection.operations || {};
    const hasActions = ops.update || ops.delete;
    const headers = columns.map(function (field) {
      if (!isSortable(field)) {
        return h(
          "th",
          { scope: "col", "data-testid": "column-" + field.name },
          field.name,
        );
      }
      const ascending = listState.order === field.name;
      const descending = listState.order === "-" + field.name;
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
                listState,
                { order: nextOrder(listState.order, field.name), page: 1 },
                '[data-testid="sort-' + field.name + '"]',
              );
            },
          },
          field.name,
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
    const ctx = settings();
    const rows = envelope.records.map(function (record) {
      const uuid = String(record.UUID);
      const label = rowLabel(collection, record);
      const cells = columns.map(function (field) {
        const text = formatCell(field, record[field.name], ctx);
        return h("td", {
          class: "cell-" + fieldKind(field),
          title: isRelation(field)
            ? toInputValue(field, record[field.name])
            : text,
        }, text);
      });
      if (hasActions) {
        cells.push(
          h(
            "td",
            { class: "row-actions" },
            ops.update
              ? h("button", {
                type: "button",
                class: "button button-small",
                "data-testid": "edit-record",
                "data-uuid": uuid,
                "aria-label": t("edit") + ": " + label,
                onclick: function () {
                  openRecordDialog(collection, uuid, locale);
                },
              }, t("edit"))
              : null,
            ops.delete
              ? h("button", {
                type: "button",
                class: "button button-small button-danger",
                "data-testid": "delete-record",
                "data-uuid": uuid,
                "aria-label": t("delete") + ": " + label,
                onclick: function () {
                  deleteRecord(collection, uuid);
                },
              }, t("delete"))
              : null,
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
    if (envelope.records.length === 0) return count;
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
            collection.name,
          ),
          h("thead", {}, h("tr", {}, headers)),
          h("tbody", {}, rows),
        ),
      ),
    ];
  }

  function rowLabel(collection, record) {
    const first = searchableFields(collection.fields || [])[0];
    const value = first ? record[first.name] : null;
    return typeof value === "string" && value !== ""
      ? value
      : shortUuid(record.UUID);
  }

  function pagination(envelope, listState) {
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
          goList(listState, { page: page - 1 }, "[data-testid=previous-page]");
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
          goList(listState, { page: page + 1 }, "[data-testid=next-page]");
        },
      }, t("next")),
    );
  }

  // -- Dialogs ----------------------------------------------------------------

  function openDialog(testid, titleText, body, onClose) {
    const titleId = "dialog-title-" + ++fieldIds;
    const dialog = h(
      "dialog",
      { class: "dialog", "aria-labelledby": titleId, "data-testid": testid },
      h(
        "div",
        { class: "dialog-head" },
        h("h2", { id: titleId }, titleText),
        h("button", {
          type: "button",
          class: "button button-quiet button-icon",
          "aria-label": t("close"),
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

  function confirmDialog(text) {
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
      }, t("delete"));
      const cancel = h("button", {
        type: "button",
        class: "button",
        "data-testid": "cancel-delete",
        onclick: function () {
          dialog.close();
        },
      }, t("cancel"));
      const dialog = openDialog(
        "confirm-dialog",
        t("delete"),
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

  async function deleteRecord(collection, uuid) {
    const selector = '[data-testid=delete-record][data-uuid="' + uuid + '"]';
    if (!(await confirmDialog(t("confirmDelete")))) {
      const button = main.querySelector(selector);
      if (button) button.focus();
      return;
    }
    try {
      const response = await api(
        "DELETE",
        "/collections/" + collection.path + "/" + encodeURIComponent(uuid),
        { auth: true },
      );
      if (response.status !== 204 && response.status !== 200) {
        state.flash = errorText(response);
      }
    } catch (error) {
      if (error instanceof Redirected) return;
      state.flash = t("error");
    }
    state.focus = "[data-testid=create-record]";
    render();
  }

  /** The control of one field in the record form. */
  function recordControl(field, record, isEdit, locale) {
    const kind = fieldKind(field);
    const readable = field.readable !== false;
    const value = record && readable ? record[field.name] : undefined;
    const spec = {
      name: field.name,
      label: field.name,
      disabled: isEdit && field.immutable,
      required: field.required === true,
    };
    const choices = Array.isArray(field.choices) ? field.choices : null;
    if (kind === "boolean") {
      spec.control = "checkbox";
      spec.value = value === true;
    } else if (kind === "select" && choices) {
      spec.control = "select";
      spec.value = value === undefined || value === null ? "" : String(value);
      spec.options =
        (field.nullable || !isEdit ? [{ value: "", label: "" }] : [])
          .concat(choices.map(function (choice) {
            return { value: choice, label: choice };
          }));
    } else if (kind === "multiSelect" && choices) {
      spec.control = "select";
      spec.multiple = true;
      spec.size = Math.min(Math.max(choices.length, 2), 6);
      spec.value = Array.isArray(value) ? value : [];
      spec.options = choices.map(function (choice) {
        return { value: choice, label: choice };
      });
    } else {
      spec.value = toInputValue(field, value);
      spec.type = kind === "integer" || kind === "number"
        ? "number"
        : kind === "date"
        ? "date"
        : kind === "time"
        ? "time"
        : kind === "dateTime"
        ? "datetime-local"
        : field.type === "email"
        ? "email"
        : field.type === "password" || !readable
        ? "password"
        : "text";
      if (kind === "integer") spec.step = "1";
      if (kind === "number") spec.step = "any";
      if (kind === "time" || kind === "dateTime") spec.step = "1";
      if (spec.type === "password") spec.autocomplete = "new-password";
      if (isRelation(field)) {
        spec.spellcheck = "false";
        spec.hint = field.target ? "→ " + field.target : null;
      }
    }
    if (field.translatable && locale) {
      spec.label = field.name + " (" + locale + ")";
    }
    const row = fieldRow(spec);
    row.read = function () {
      const input = row.input;
      if (spec.control === "checkbox") {
        return { empty: false, value: input.checked };
      }
      if (spec.multiple) {
        const selected = Array.prototype.filter.call(
          input.options,
          function (option) {
            return option.selected;
          },
        ).map(function (option) {
          return option.value;
        });
        return { empty: selected.length === 0, value: selected };
      }
      return fromInputValue(field, input.value);
    };
    row.field = field;
    row.initial = JSON.stringify(row.read());
    return row;
  }

  async function openRecordDialog(collection, uuid, locale) {
    const path = "/collections/" + collection.path;
    const localeQuery = collection.translatable && locale
      ? { locale: locale }
      : undefined;
    let record = null;
    if (uuid) {
      let response;
      try {
        response = await api("GET", path + "/" + encodeURIComponent(uuid), {
          query: localeQuery,
          auth: true,
        });
      } catch (error) {
        if (error instanceof Redirected) return;
        response = null;
      }
      if (!response || response.status !== 200) {
        state.flash = errorText(response);
        render();
        return;
      }
      record = response.data;
    }
    const isEdit = uuid !== null;
    const rows = (collection.fields || []).filter(function (field) {
      return field.writable !== false && field.name !== "UUID";
    }).map(function (field) {
      return recordControl(
        field,
        record,
        isEdit,
        collection.translatable ? locale : "",
      );
    });
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
        dialog.close();
      },
    }, t("cancel"));
    const form = h(
      "form",
      { class: "form", "data-testid": "record-form" },
      rows,
      formAlert(),
      h("div", { class: "actions" }, cancel, submit),
    );
    const returnFocus = isEdit
      ? '[data-testid=edit-record][data-uuid="' + uuid + '"]'
      : "[data-testid=create-record]";
    let saved = false;
    const dialog = openDialog(
      "record-dialog",
      (isEdit ? t("edit") : t("create")) + " · " + collection.name,
      form,
      function () {
        if (saved) {
          state.focus = returnFocus;
          render();
        } else {
          const button = main.querySelector(returnFocus);
          if (button) button.focus();
        }
      },
    );
    const firstInput = form.querySelector(
      "input:not([disabled]), select:not([disabled])",
    );
    if (firstInput) firstInput.focus();
    onSubmit(form, async function () {
      const body = {};
      for (const row of rows) {
        if (row.input.disabled) continue;
        const current = row.read();
        if (isEdit) {
          if (JSON.stringify(current) === row.initial) continue;
          if (row.field.readable === false && current.empty) continue;
          body[row.name] = current.empty
            ? emptyValue(row.field)
            : current.value;
        } else if (!current.empty) {
          body[row.name] = current.value;
        }
      }
      if (isEdit && Object.keys(body).length === 0) {
        dialog.close();
        return;
      }
      const response = await api(
        isEdit ? "PATCH" : "POST",
        isEdit ? path + "/" + encodeURIComponent(uuid) : path,
        { query: localeQuery, body: body, auth: true },
      );
      if (response.status === 200 || response.status === 201) {
        saved = true;
        dialog.close();
      } else {
        showErrors(
          form,
          fieldErrors(response.data),
          response.status === 422 ? "" : errorText(response),
        );
      }
    });
  }

  // -- Account ----------------------------------------------------------------

  async function viewAccount() {
    if (!(await requireSignedIn())) return null;
    const user = state.user;
    let collections = [];
    try {
      collections = await loadCollections();
    } catch (error) {
      if (error instanceof Redirected) throw error;
    }
    const languages = dashboardLanguages.slice();
    if (user.dashboardLanguage && !languages.includes(user.dashboardLanguage)) {
      languages.push(user.dashboardLanguage);
    }
    const shownLanguage = user.dashboardLanguage ||
      (languages.includes(state.language.split("-")[0])
        ? state.language.split("-")[0]
        : "en");
    const language = fieldRow({
      name: "dashboardLanguage",
      label: t("language"),
      control: "select",
      value: shownLanguage,
      options: languages.map(function (code) {
        return { value: code, label: languageName(code) };
      }),
    });
    const locales = [];
    for (const collection of collections) {
      for (const code of collection.locales || []) {
        if (!locales.includes(code)) locales.push(code);
      }
    }
    const listId = "content-locales-" + ++fieldIds;
    const contentLanguage = fieldRow({
      name: "contentLanguage",
      label: t("contentLanguage"),
      value: user.contentLanguage || "",
      list: listId,
      spellcheck: "false",
      extra: h(
        "datalist",
        { id: listId },
        locales.map(function (code) {
          return h("option", { value: code });
        }),
      ),
    });
    const zones = timeZones();
    if (user.timezone && !zones.includes(user.timezone)) {
      zones.unshift(user.timezone);
    }
    const timezone = fieldRow({
      name: "timezone",
      label: t("timezone"),
      control: "select",
      value: user.timezone || "UTC",
      options: zones.map(function (zone) {
        return { value: zone, label: zone };
      }),
    });
    const dateFormat = fieldRow({
      name: "dateFormat",
      label: t("dateFormat"),
      value: user.dateFormat || "",
      spellcheck: "false",
    });
    const timeFormat = fieldRow({
      name: "timeFormat",
      label: t("timeFormat"),
      value: user.timeFormat || "",
      spellcheck: "false",
    });
    const smartClipboard = fieldRow({
      name: "smartClipboard",
      label: t("smartClipboard"),
      control: "checkbox",
      value: user.smartClipboard === true,
    });
    const password = fieldRow({
      name: "password",
      label: t("newPassword"),
      type: "password",
      autocomplete: "new-password",
    });
    const rows = [
      language,
      contentLanguage,
      timezone,
      dateFormat,
      timeFormat,
      smartClipboard,
      password,
    ];
    const initial = new Map(rows.map(function (row) {
      return [row.name, readAccountRow(row)];
    }));
    const savedText = state.flash === "saved" ? t("saved") : "";
    state.flash = null;
    const savedStatus = h("p", {
      class: "saved",
      role: "status",
      "data-testid": "saved-status",
    }, savedText);
    const form = h(
      "form",
      { class: "form", "data-testid": "account-form" },
      rows,
      formAlert(),
      h(
        "div",
        { class: "actions" },
        savedStatus,
        h("button", {
          type: "submit",
          class: "button button-primary",
          "data-testid": "save-account",
        }, t("save")),
      ),
    );
    onSubmit(form, async function () {
      savedStatus.textContent = "";
      const body = {};
      for (const row of rows) {
        const value = readAccountRow(row);
        if (row.name === "password" && value === "") continue;
        if (value !== initial.get(row.name)) body[row.name] = value;
      }
      if (Object.keys(body).length === 0) {
        clearErrors(form);
        savedStatus.textContent = t("saved");
        return;
      }
      const response = await api("PATCH", "/auth/me", {
        body: body,
        auth: true,
      });
      if (response.status === 200 && response.data) {
        state.user = response.data;
        state.flash = "saved";
        state.focus = "[data-testid=save-account]";
        render();
      } else {
        showErrors(
          form,
          fieldErrors(response.data),
          response.status === 422 ? "" : errorText(response),
        );
      }
    });
    return {
      title: t("account"),
      content: h(
        "section",
        { class: "card card-medium" },
        h("h1", { tabindex: "-1" }, t("account")),
        h("p", { class: "intro", "data-testid": "account-email" }, user.email),
        form,
      ),
    };
  }

  function readAccountRow(row) {
    const input = row.input;
    if (input.type === "checkbox") return input.checked;
    if (row.name === "contentLanguage") return input.value.trim() || null;
    if (row.name === "password") return input.value;
    return input.value.trim();
  }

  function languageName(code) {
    try {
      const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
      return name && name !== code ? name + " (" + code + ")" : code;
    } catch {
      return code;
    }
  }

  function timeZones() {
    let zones = [];
    try {
      zones = Intl.supportedValuesOf("timeZone").slice();
    } catch {
      zones = [];
    }
    if (!zones.includes("UTC")) zones.unshift("UTC");
    return zones;
  }

  function viewNotFound() {
    return {
      title: t("notFound"),
      content: card(
        t("notFound"),
        null,
        h(
          "p",
          {},
          h(
            "a",
            { href: dashRoot },
            state.user ? t("collections") : t("signIn"),
          ),
        ),
      ),
    };
  }

  const VIEWS = {
    home: viewHome,
    install: viewInstall,
    signIn: viewSignIn,
    account: viewAccount,
    collection: viewCollection,
    notFound: viewNotFound,
  };

  // -- Events ---------------------------------------------------------------

  root.addEventListener("click", function (event) {
    if (
      event.defaultPrevented || event.button !== 0 || event.metaKey ||
      event.ctrlKey || event.shiftKey || event.altKey
    ) return;
    const link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return;
    if (url.pathname !== dashRoot && !url.pathname.startsWith(dashRoot + "/")) {
      return;
    }
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  globalThis.addEventListener("popstate", function () {
    state.focus = "h1";
    render();
  });

  return { render: render };
}

function start() {
  const meta = document.querySelector("meta[name=strata-base]");
  const base = normalizeBase(meta ? meta.getAttribute("content") : "");
  const root = document.getElementById("app") || document.body;
  createDashboard(root, base).render();
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
`;
