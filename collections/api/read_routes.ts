/**
 * The read routes of the collections API: list, query, read one, translation list.
 *
 * @module
 */
import { notFound } from "../../router/errors.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import type { DataRecord, Page } from "../results.ts";
import {
  assertNoParams,
  parseListQuery,
  parseReadOneQuery,
} from "../wire/parse.ts";
import type { ListPlan, PopulatePlan, ReadOnePlan } from "../wire/types.ts";
import {
  findByUuidSoon,
  findManySoon,
  paginateSoon,
  type QueryBuilder,
} from "../query_builder.ts";
import { type MaybePromise, thenMaybe } from "../../utils/_maybe_promise.ts";
import { ApiRequest, bodyObject } from "./request.ts";
import type { Grant } from "./policy.ts";
import { populatePaths, reachedCollections } from "./plan_walk.ts";
import { applySelectScopes, narrowTranslations } from "./respond.ts";
import { keepPlan, keptPlan } from "./plan_cache.ts";

/**
 * Parses a list query twice: once to learn which collections it reaches, once under their
 * policies. With `key` (the route and its query string), a plan that depends on nothing
 * else is kept and the next request with the same key skips the parse (see plan_cache.ts).
 *
 * @example
 * ```ts ignore
 * const plan = await planUnderPolicies(request, grant, (ctx) => parseListQuery(query, ctx));
 * ```
 */
export function planUnderPolicies<
  P extends { where?: ListPlan["where"]; populate: PopulatePlan[] },
>(
  request: ApiRequest,
  grant: Grant,
  parse: (ctx: ReturnType<ApiRequest["wireContext"]>) => P,
  key?: string,
): MaybePromise<P> {
  // The scope's select decides what the parse may reach; without one, nothing but the
  // collection and the query string does (until the query reaches another collection).
  const keep = key !== undefined && grant.scope.select === undefined;
  if (keep) {
    const kept = keptPlan<P>(grant.collection, key);
    if (kept) return kept;
  }
  const first = parse({
    ...request.wireContext(grant),
    reachable: (name) =>
      name === grant.collection.name ? grant.scope.select : undefined,
  });
  const reached = reachedCollections(
    request.registry,
    grant.collection.name,
    first.where,
    first.populate,
  );
  if (reached.size === 0) {
    return keep ? keepPlan(grant.collection, key, first) : first;
  }
  return request.loadTargets(grant, reached).then(() =>
    parse(request.wireContext(grant))
  );
}

/**
 * A GET read's first steps: authorises `read`, plans the query string under the policies
 * (kept per route and query string, see {@link planUnderPolicies}), then `run`s the plan.
 * Each step answers at once when it can (a public read, a kept plan, a SQLite read): then
 * so does the route, and the dispatcher answers without a promise.
 */
function readUnderPlan<
  P extends { where?: ListPlan["where"]; populate: PopulatePlan[] },
>(
  event: StrataEvent,
  route: string,
  parse: (ctx: ReturnType<ApiRequest["wireContext"]>) => P,
  run: (request: ApiRequest, grant: Grant, plan: P) => MaybePromise<unknown>,
): MaybePromise<unknown> {
  const request = new ApiRequest(event);
  return thenMaybe(request.authorize("read"), (grant) => {
    if ("answer" in grant) return grant.answer;
    return thenMaybe(
      planUnderPolicies(request, grant, parse, planKey(route, event)),
      (plan) => run(request, grant, plan),
    );
  });
}

/** The key of a route's plan: its name and the raw query string (when the event has one). */
function planKey(route: string, event: StrataEvent): string | undefined {
  const search = (event as Partial<RequestEvent>).search;
  return typeof search === "string" ? `${route}?${search}` : undefined;
}

/**
 * Applies a read's projection: its select (or the scope's), populate and locale.
 *
 * @example
 * ```ts ignore
 * const builder = shapeRead(request.query(grant), grant, plan);
 * ```
 */
export function shapeRead(
  builder: QueryBuilder,
  grant: Grant,
  plan: ReadOnePlan,
): QueryBuilder {
  const select = plan.select ??
    (grant.scope.select ? [...grant.scope.select] : undefined);
  if (select) builder = builder.select(...select);
  const paths = populatePaths(plan.populate);
  if (paths.length > 0) builder = builder.populate(...paths);
  const locale = plan.locale ?? grant.scope.locale;
  return locale ? builder.locale(locale) : builder;
}

/**
 * The last steps of a read: `_translations` narrowed to the scope, scoped selects applied.
 *
 * @example
 * ```ts ignore
 * const records = await finishRead(request, grant, found, plan.populate);
 * ```
 */
export function finishRead(
  request: ApiRequest,
  grant: Grant,
  records: DataRecord[],
  populate: readonly PopulatePlan[],
): MaybePromise<DataRecord[]> {
  return thenMaybe(narrowTranslations(request, grant, records), () => {
    applySelectScopes(request, grant, records, populate);
    return records;
  });
}

/**
 * Runs a parsed list read under `grant`: a plain array, or the paginated envelope.
 *
 * @example
 * ```ts ignore
 * const records = await runList(request, grant, plan);
 * ```
 */
export function runList(
  request: ApiRequest,
  grant: Grant,
  plan: ListPlan,
): MaybePromise<DataRecord[] | Page> {
  let builder = shapeRead(request.query(grant), grant, plan);
  if (plan.where) builder = builder.where(plan.where);
  if (plan.search) {
    builder = builder.search(plan.search.text, { fields: plan.search.fields });
  }
  if (plan.order.length > 0) {
    builder = builder.order(
      ...plan.order.map((key) => (key.descending ? "-" : "") + key.field),
    );
  }
  if (plan.paginated) return runPage(request, grant, plan, builder);
  const cap = grant.scope.limit;
  const offset = plan.offset ?? 0;
  let limit = plan.limit ?? request.registry.guards.maxLimit;
  if (cap !== undefined) limit = Math.max(0, Math.min(limit, cap - offset));
  if (limit === 0) return [];
  return thenMaybe(
    findManySoon(builder.limit(limit).offset(offset)),
    (records) => finishRead(request, grant, records, plan.populate),
  );
}

/** {@link runList} of a paginated plan: the envelope. */
function runPage(
  request: ApiRequest,
  grant: Grant,
  plan: ListPlan,
  builder: QueryBuilder,
): MaybePromise<Page> {
  const page = plan.page ?? 1;
  const perPage = plan.perPage ?? 20;
  const cap = grant.scope.limit;
  if (cap !== undefined) {
    return runCappedPage(request, grant, plan, builder, cap, page, perPage);
  }
  return thenMaybe(
    paginateSoon(builder, page, perPage),
    (result) =>
      thenMaybe(
        finishRead(request, grant, result.records, plan.populate),
        () => result,
      ),
  );
}

/** {@link runPage} under a scope that caps what the caller may see. */
async function runCappedPage(
  request: ApiRequest,
  grant: Grant,
  plan: ListPlan,
  builder: QueryBuilder,
  cap: number,
  page: number,
  perPage: number,
): Promise<Page> {
  // The scope caps what the caller may see: counting stops there.
  const total = await builder.count({ atMost: cap });
  const start = (page - 1) * perPage;
  const size = Math.max(0, Math.min(perPage, total - start));
  const records = size === 0
    ? []
    : await builder.limit(size).offset(start).findMany();
  return {
    records: await finishRead(request, grant, records, plan.populate),
    total,
    page,
    perPage,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
  };
}

/**
 * `GET /collections/<name>`: a plain array, or the paginated envelope.
 *
 * @example
 * ```ts ignore
 * defineHandler(listRecords);
 * ```
 */
export function listRecords(event: StrataEvent): MaybePromise<unknown> {
  return readUnderPlan(
    event,
    "list",
    (ctx) => parseListQuery(event.query, ctx),
    runList,
  );
}

/**
 * `POST /collections/<name>/query`: the list read with its keys in a JSON body.
 *
 * @example
 * ```ts ignore
 * defineHandler(queryRecords, { maxBodySize: false });
 * ```
 */
export async function queryRecords(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  const body = await request.deferredBody();
  const grant = await request.authorize("read");
  if ("answer" in grant) return grant.answer;
  assertNoParams(event.query);
  const input = bodyObject(body);
  const plan = await planUnderPolicies(
    request,
    grant,
    (ctx) => parseListQuery(input, ctx),
  );
  return await runList(request, grant, plan);
}

/**
 * `GET /collections/<name>/[uuid]`: one record; only `select`, `populate`, `locale`.
 *
 * @example
 * ```ts ignore
 * defineHandler(readRecord);
 * ```
 */
export function readRecord(event: StrataEvent): MaybePromise<unknown> {
  return readUnderPlan(
    event,
    "one",
    (ctx) => parseReadOneQuery(event.query, ctx),
    (request, grant, plan) => {
      const byPath = request.recordWhere();
      // By UUID: without scope or hook filters the read is one precompiled statement.
      const builder = shapeRead(request.query(grant), grant, plan);
      return thenMaybe(
        findByUuidSoon(builder, byPath.UUID as string),
        (record) => {
          if (!record) throw notFound();
          return thenMaybe(
            finishRead(request, grant, [record], plan.populate),
            (records) => records[0],
          );
        },
      );
    },
  );
}

/**
 * `GET /collections/<name>/[uuid]/translations`: `{ locales }` at which the record holds a
 * translation (and the scope admits it), in configured order.
 *
 * @example
 * ```ts ignore
 * defineHandler(listTranslations);
 * ```
 */
export async function listTranslations(event: StrataEvent): Promise<unknown> {
  const request = new ApiRequest(event);
  request.requireTranslatable();
  const grant = await request.authorize("read");
  if ("answer" in grant) return grant.answer;
  assertNoParams(event.query);
  const byPath = request.recordWhere();
  const record = await request.query(grant).where(byPath).select("UUID")
    .findFirst();
  if (!record) throw notFound();
  await narrowTranslations(request, grant, [record]);
  return { locales: record._translations ?? [] };
}
