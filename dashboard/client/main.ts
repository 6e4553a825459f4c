/// <reference no-default-lib="true" />
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/// <reference lib="esnext" />
/**
 * The dashboard's client, bundled into `dashboard/assets/app_js.ts` (`deno task
 * dashboard-asset`) and served at `/dashboard/assets/app.js` as an ES module. It loads the
 * bundled `@strata/strata/client` the shell names and starts the app where a document exists;
 * the pure helpers are exported so that the served module can be imported without a DOM.
 *
 * @module
 */
import { normalizeBase } from "./routes.ts";
import { createDashboard, type StrataModule } from "./app.ts";

export {
  catalogLanguage,
  fallbackMessages,
  formatMessage,
  parseMessage,
  translate,
} from "./messages.ts";
export {
  filterWhere,
  listQuery,
  listSearch,
  nextOrder,
  normalizeBase,
  parseRoute,
  PER_PAGE,
  pickLocale,
  readListState,
} from "./routes.ts";
export {
  fieldKind,
  fieldLabel,
  isRelation,
  isSortable,
  listColumns,
  searchableFields,
} from "./fields.ts";
export { NO_VALUE, recordName, relationText } from "./names.ts";
export {
  filterCondition,
  filterOps,
  filtersWhere,
  readFilters,
} from "./filters.ts";
export {
  emptyValue,
  fieldErrors,
  fromInputValue,
  fromWallTime,
  toInputValue,
} from "./values.ts";
export { formatCell, formatPattern, formatSample } from "./format.ts";
export { dashboardLanguages, FORMAT_CHOICES } from "./views/account.ts";

async function start(): Promise<void> {
  const meta = document.querySelector("meta[name=strata-base]");
  const base = normalizeBase(meta ? meta.getAttribute("content") : "");
  const clientMeta = document.querySelector("meta[name=strata-client]");
  const clientSrc = (clientMeta && clientMeta.getAttribute("content")) ||
    base + "/dashboard/assets/client.js";
  const strata: StrataModule = await import(clientSrc);
  const root = document.getElementById("app") || document.body;
  createDashboard(root, base, strata).render();
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
