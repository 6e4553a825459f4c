/**
 * Shapes records for the API's answers under a scope: fields outside the scope's `select`
 * (including `UUID`) leave, and `_translations` lists only the locales the scope admits.
 *
 * @module
 */
import type { DataRecord } from "../results.ts";
import type { PopulatePlan } from "../wire/types.ts";
import type { ApiRequest } from "./request.ts";
import type { Grant, Scope } from "./policy.ts";
import { touchesTranslatable } from "./plan_walk.ts";
import type { WhereFilter } from "../where.ts";
import type { MaybePromise } from "../../utils/_maybe_promise.ts";

// `_translations` is part of every record of a translatable collection (SPEC.md); `_updatedAt`
// is a field like any other here: outside the scope's `select` it leaves (rule 7).
const SYSTEM_KEYS = new Set(["_translations"]);

function stripUnscoped(
  record: DataRecord,
  scope: Scope | false | undefined,
): void {
  if (!scope || !scope.select) return;
  const fields = record as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!SYSTEM_KEYS.has(key) && !scope.select.has(key)) delete fields[key];
  }
}

/**
 * Removes the fields (`UUID` included) a scope's `select` leaves out, from records and from
 * the records populated into them.
 *
 * @example
 * ```ts ignore
 * applySelectScopes(request, grant, records, plan.populate);
 * ```
 */
export function applySelectScopes(
  request: ApiRequest,
  grant: Grant,
  records: readonly DataRecord[],
  populate: readonly PopulatePlan[],
): void {
  // Nothing populated and no select of its own: nothing to strip.
  if (populate.length === 0 && !grant.scope.select) return;
  const policy = request.readPolicy(grant);
  const walk = (
    collection: string,
    list: readonly DataRecord[],
    plans: readonly PopulatePlan[],
  ) => {
    const scope = policy(collection);
    const fields = request.registry.byName.get(collection)?.resolved.fields;
    const targets = plans.map((plan) => fields?.get(plan.field)?.target);
    for (const record of list) {
      plans.forEach((plan, i) => {
        const target = targets[i];
        if (!target) return;
        const value = record[plan.field];
        const nested = Array.isArray(value)
          ? value
          : value && typeof value === "object"
          ? [value]
          : [];
        walk(
          target,
          nested.filter((v) => v && typeof v === "object") as DataRecord[],
          plan.populate,
        );
      });
      stripUnscoped(record, scope);
    }
  };
  walk(grant.collection.name, records, populate);
}

/**
 * Narrows each record's `_translations` to the locales at which the scope's `where` admits it
 * (only needed when that `where` names translatable fields): at once when there is nothing
 * to narrow, else a promise.
 *
 * @example
 * ```ts ignore
 * await narrowTranslations(request, grant, records);
 * ```
 */
export function narrowTranslations(
  request: ApiRequest,
  grant: Grant,
  records: readonly DataRecord[],
): MaybePromise<void> {
  const scope = grant.scope;
  const collection = grant.collection;
  // Without a scope `where` on translatable fields there is nothing to wait for.
  if (!collection.translatable || !scope.where || records.length === 0) return;
  if (!touchesTranslatable(scope.where, collection.translatableFields)) return;
  return narrowByLocale(request, grant, scope.where, records);
}

async function narrowByLocale(
  request: ApiRequest,
  grant: Grant,
  where: WhereFilter,
  records: readonly DataRecord[],
): Promise<void> {
  const collection = grant.collection;
  const uuids = records.map((r) => r.UUID).filter((u): u is string =>
    typeof u === "string"
  );
  if (uuids.length === 0) return;
  const admitted = new Map<string, Set<string>>();
  for (const locale of request.registry.locales) {
    const rows = await request.trustedQuery(collection.name)
      .locale(locale)
      .where(where)
      .where({ UUID: { in: uuids } })
      .select("UUID")
      .findMany();
    admitted.set(locale, new Set(rows.map((row) => row.UUID as string)));
  }
  for (const record of records) {
    const locales = record._translations;
    if (!Array.isArray(locales)) continue;
    record._translations = locales.filter((locale) =>
      admitted.get(locale as string)?.has(record.UUID as string)
    );
  }
}
