/**
 * The wire query grammar of the collections API: turns URL params (relaxed
 * literal syntax) or a `POST …/query` JSON body into a validated plan, or
 * throws a 400 `wireError` with a stable `code` and a `path`.
 *
 * Checks run in a fixed order: param names (unknown, repeated), every value's
 * syntax, then `where`, `search`, `select`, `order`, `populate`, the window
 * (`limit`/`offset`/`page`/`perPage`) and `locale`; the first failure answers.
 *
 * @module
 */

import { wireError } from "./errors.ts";
import { FieldResolver } from "./_fields.ts";
import { checkLocale, parseLocaleParam } from "./locale.ts";
import { readParams } from "./_params.ts";
import { parseOrder, parsePopulate, parseSelect } from "./_projection.ts";
import { parseWhere } from "./_where.ts";
import { parseWindow } from "./_window.ts";
import { parseSearchParam } from "./_search.ts";
import type {
  ListPlan,
  ReadOnePlan,
  WireContext,
  WriteParams,
} from "./types.ts";

export { parseLocaleParam };
export { DEFAULT_QUERY_GUARDS } from "./types.ts";
export type {
  ListPlan,
  OrderKey,
  PopulatePlan,
  QueryGuards,
  ReadOnePlan,
  SearchPlan,
  WireCollection,
  WireContext,
  WireField,
  WriteParams,
} from "./types.ts";

const LIST_PARAMS = [
  "where",
  "select",
  "order",
  "populate",
  "limit",
  "offset",
  "page",
  "perPage",
  "locale",
  "search",
] as const;

/** Params whose URL value is raw text, not a relaxed literal. */
const RAW_PARAMS = ["search"] as const;

const READ_ONE_PARAMS = ["select", "populate", "locale"] as const;

const WRITE_PARAMS = ["locale"] as const;

/**
 * Parses the params of a list read: `GET /collections/<name>` (pass the
 * `URLSearchParams`) or `POST /collections/<name>/query` (pass the parsed JSON
 * body). Equivalent input gives an identical plan either way. In a body,
 * values are JSON as they are: a string for `where` is `invalidShape`, and
 * strings are never read as relaxed literals.
 *
 * @example
 * ```ts
 * import { DEFAULT_QUERY_GUARDS, parseListQuery } from "./parse.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       views: {
 *         kind: "integer" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: false,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * };
 * const plan = parseListQuery(
 *   new URLSearchParams("where={views:{atLeast:10}}&order=-views&page=2"),
 *   ctx,
 * );
 * // plan.where: { views: { atLeast: 10 } }, plan.perPage: 20
 * ```
 */
export function parseListQuery(
  input: URLSearchParams | Record<string, unknown>,
  ctx: WireContext,
): ListPlan {
  const values = readParams(input, LIST_PARAMS, RAW_PARAMS);
  const resolver = new FieldResolver(ctx);
  const { collection, guards } = ctx;
  const plan: ListPlan = {
    order: [],
    populate: [],
    paginated: false,
  };
  if (values.has("where")) {
    plan.where = parseWhere(values.get("where"), collection, resolver, guards);
  }
  if (values.has("search")) {
    plan.search = parseSearchParam(
      values.get("search"),
      collection,
      resolver,
      guards,
    );
  }
  if (values.has("populate")) {
    plan.populate = parsePopulate(values.get("populate"), ctx, resolver);
  }
  if (values.has("select")) {
    plan.select = parseSelect(
      values.get("select"),
      collection,
      resolver,
      guards,
      plan.populate,
    );
  }
  if (values.has("order")) {
    plan.order = parseOrder(
      values.get("order"),
      collection,
      resolver,
      guards,
      plan.search !== undefined,
    );
  }
  Object.assign(
    plan,
    parseWindow({
      limit: values.get("limit"),
      offset: values.get("offset"),
      page: values.get("page"),
      perPage: values.get("perPage"),
    }, guards),
  );
  if (values.has("locale")) {
    plan.locale = checkLocale(values.get("locale"), ctx, "locale");
  }
  return plan;
}

/**
 * Parses the params of a by-UUID read: only `select`, `populate` and
 * `locale`; any other param (a filter, a window) is `unknownParam`.
 *
 * @example
 * ```ts
 * import { DEFAULT_QUERY_GUARDS, parseReadOneQuery } from "./parse.ts";
 * const ctx = {
 *   collection: { name: "Posts", fields: {} },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en"],
 * };
 * parseReadOneQuery(new URLSearchParams("select=[UUID]"), ctx);
 * // { select: ["UUID"], populate: [] }
 * ```
 */
export function parseReadOneQuery(
  input: URLSearchParams,
  ctx: WireContext,
): ReadOnePlan {
  const values = readParams(input, READ_ONE_PARAMS);
  const resolver = new FieldResolver(ctx);
  const plan: ReadOnePlan = { populate: [] };
  if (values.has("populate")) {
    plan.populate = parsePopulate(values.get("populate"), ctx, resolver);
  }
  if (values.has("select")) {
    plan.select = parseSelect(
      values.get("select"),
      ctx.collection,
      resolver,
      ctx.guards,
      plan.populate,
    );
  }
  if (values.has("locale")) {
    plan.locale = checkLocale(values.get("locale"), ctx, "locale");
  }
  return plan;
}

/**
 * Parses the params of a create or update (and of the translation routes,
 * whose target is `?locale=`): only `locale`, anything else is
 * `unknownParam`.
 *
 * @example
 * ```ts
 * import { DEFAULT_QUERY_GUARDS, parseWriteParams } from "./parse.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       title: {
 *         kind: "text" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: true,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en", "de"],
 * };
 * parseWriteParams(new URLSearchParams("locale=de"), ctx); // { locale: "de" }
 * ```
 */
export function parseWriteParams(
  input: URLSearchParams,
  ctx: WireContext,
): WriteParams {
  const values = readParams(input, WRITE_PARAMS);
  if (!values.has("locale")) return {};
  return { locale: checkLocale(values.get("locale"), ctx, "locale") };
}

/**
 * Refuses any param at all (DELETE of a record): the first one is
 * `unknownParam` at its name.
 *
 * @example
 * ```ts
 * import { assertNoParams } from "./parse.ts";
 * assertNoParams(new URLSearchParams("")); // fine
 * ```
 */
export function assertNoParams(input: URLSearchParams): void {
  for (const [name] of input) throw wireError("unknownParam", name);
}
