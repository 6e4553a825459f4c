// Dashboard paths and the list state a collection page keeps in its query string.
import type { Collection, FieldLike, ListState, Route } from "./types.ts";

import { isSortable, searchableFields } from "./fields.ts";
import { filterParam, filtersWhere, readFilters } from "./filters.ts";

/** Rows per page of the collections browser. */
export const PER_PAGE = 20;

/** Strips trailing slashes; / and empty mean no base path. */
export function normalizeBase(value: unknown): string {
  const base = String(value || "").trim().replace(/\/+$/, "");
  return base.startsWith("/") ? base : "";
}

/** The page a dashboard path names: { name, path? }. */
export function parseRoute(pathname: string, base: string): Route {
  const root = normalizeBase(base) + "/dashboard";
  if (pathname !== root && !pathname.startsWith(root + "/")) {
    return { name: "notFound" };
  }
  const rest = pathname.slice(root.length).replace(/\/+$/, "");
  if (rest === "") return { name: "home" };
  if (rest === "/install") return { name: "install" };
  if (rest === "/sign-in") return { name: "signIn" };
  if (rest === "/account") return { name: "account" };
  if (rest === "/sign-up") return { name: "signUp" };
  if (rest === "/forgot") return { name: "forgot" };
  if (rest === "/reset") return { name: "reset" };
  if (rest === "/verify") return { name: "verify" };
  if (rest === "/email") return { name: "emailConfirm" };
  const match = /^\/collections\/([^/]+)(?:\/([^/]+))?$/.exec(rest);
  if (match) {
    try {
      const path = decodeURIComponent(match[1]);
      return match[2] === undefined
        ? { name: "collection", path }
        : { name: "record", path, uuid: decodeURIComponent(match[2]) };
    } catch {
      return { name: "notFound" };
    }
  }
  return { name: "notFound" };
}

/** Page, order, filter text, field filters and locale of a collection page, from its query string. */
export function readListState(search: string): ListState {
  const params = new URLSearchParams(search || "");
  const page = Number(params.get("page"));
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    order: params.get("order") || "",
    q: params.get("q") || "",
    locale: params.get("locale") || "",
    filters: readFilters(params),
  };
}

/** The query string of a list state ("" when everything is default). */
export function listSearch(listState: ListState): string {
  const params = new URLSearchParams();
  if (listState.page > 1) params.set("page", String(listState.page));
  if (listState.order) params.set("order", listState.order);
  if (listState.q) params.set("q", listState.q);
  if (listState.locale) params.set("locale", listState.locale);
  for (const filter of listState.filters || []) {
    params.append("f", filterParam(filter));
  }
  const search = params.toString();
  return search === "" ? "" : "?" + search;
}

/** The where object of a filter text: contains over every searchable field. */
export function filterWhere(
  fields: readonly FieldLike[],
  text: string,
): Record<string, unknown> | undefined {
  const term = String(text || "").trim();
  if (term === "") return undefined;
  const conditions = searchableFields(fields).map(function (field) {
    return { [String(field.name)]: { contains: term } };
  });
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { or: conditions };
}

/** Query parameters of a list read; user text travels as JSON strings. */
export function listQuery(
  collection: {
    readonly fields: Collection["fields"];
    readonly defaultOrder?: readonly string[];
    readonly search?: boolean;
  },
  listState: ListState,
  locale: string,
  populate?: readonly string[],
): Record<string, string> {
  const query: Record<string, string> = {
    page: String(listState.page),
    perPage: String(PER_PAGE),
  };
  const fields = collection.fields || [];
  const orderName = listState.order.replace(/^-/, "");
  const orderField = fields.find(function (field) {
    return field.name === orderName;
  });
  const term = String(listState.q || "").trim();
  const searching = Boolean(collection.search) && term !== "";
  if (orderField && orderField.readable !== false && isSortable(orderField)) {
    query.order = JSON.stringify([listState.order]);
  } else if (
    !searching && collection.defaultOrder && collection.defaultOrder.length > 0
  ) {
    query.order = JSON.stringify(collection.defaultOrder);
  }
  if (populate && populate.length > 0) {
    query.populate = JSON.stringify(populate);
  }
  // Full-text search, most relevant first unless a column orders the list; else the box
  // filters with contains over the text fields.
  if (searching) query.search = term;
  const where = combine(
    filtersWhere(fields, listState.filters || []),
    searching ? undefined : filterWhere(fields, listState.q),
  );
  if (where !== undefined) query.where = JSON.stringify(where);
  if (locale) query.locale = locale;
  return query;
}

/** The next order after a click on a column header: ascending, then descending. */
export function nextOrder(current: string, name: string): string {
  return current === name ? "-" + name : name;
}

/** The locale a translatable collection is browsed at. */
export function pickLocale(
  collection: Pick<Collection, "locales">,
  wanted: string,
  contentLanguage: string | null | undefined,
): string {
  const locales = collection.locales || [];
  if (wanted && locales.includes(wanted)) return wanted;
  if (contentLanguage && locales.includes(contentLanguage)) {
    return contentLanguage;
  }
  return locales[0] || "";
}

// Field filters AND the search box's conditions (an `or` over the searchable fields).
function combine(
  filters: Record<string, unknown>,
  search: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const any = Object.keys(filters).length > 0;
  if (!search) return any ? filters : undefined;
  if (!any) return search;
  return { ...filters, or: Array.isArray(search.or) ? search.or : [search] };
}
