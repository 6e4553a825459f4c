/**
 * A query builder opened under the collections API policy, for trusted code that acts on a
 * caller's behalf (`queryScoped` in `@strata/strata/auth` is built on it).
 *
 * @module
 */
import type { StrataEvent } from "../../router/event.ts";
import type { QueryBuilder } from "../query_builder.ts";
import type { ApiHost } from "./host.ts";
import type { ApiOperation } from "./exposure.ts";
import {
  type ApiCollection,
  type ApiRegistry,
  apiRegistry,
} from "./registry.ts";
import {
  authorizeOperation,
  type Scope,
  scopedReadPolicy,
  targetReadPolicy,
} from "./policy.ts";

/** Per registry entry: the other collections it reaches, computed on first use. */
const linked = new WeakMap<ApiCollection, readonly string[]>();

/**
 * The collections other than `root` reachable from it through at most `depth` relation
 * steps. The schema is fixed at boot, so this is computed once per collection.
 */
function linkedCollections(
  registry: ApiRegistry,
  root: ApiCollection,
): readonly string[] {
  let names = linked.get(root);
  if (names) return names;
  const found = new Set<string>();
  let frontier = [root.name];
  for (let step = 0; step < registry.guards.maxPopulateDepth; step++) {
    const next: string[] = [];
    for (const name of frontier) {
      for (const field of registry.byName.get(name)?.resolved.fieldList ?? []) {
        if (field.target && !found.has(field.target)) {
          found.add(field.target);
          next.push(field.target);
        }
      }
    }
    frontier = next;
  }
  found.delete(root.name);
  names = [...found];
  linked.set(root, names);
  return names;
}

async function targetPolicies(
  host: ApiHost,
  event: StrataEvent,
  names: Iterable<string>,
): Promise<Map<string, Scope | false>> {
  const policies = new Map<string, Scope | false>();
  for (const name of names) {
    policies.set(name, await targetReadPolicy(host, event, name, false));
  }
  return policies;
}

/**
 * Opens a builder on `collection` under the policy of `operation` for the current caller:
 * a closed operation or a `false` verdict is 404, no user 401, a missing capability 403. A read
 * carries the whole scope (where, select, limit, locale); update and delete AND the scope's
 * where; create and update hand `input` to the access function. The operation's middleware do
 * not run. Collections reached through populate, `has` and links answer under their own read
 * policy.
 *
 * @example
 * ```ts ignore
 * const posts = await scopedQuery(app, event, "Posts", "read");
 * const mine = await posts.findMany();
 * ```
 */
export async function scopedQuery(
  host: ApiHost,
  event: StrataEvent,
  collection: string,
  operation: ApiOperation,
  input?: unknown,
): Promise<QueryBuilder> {
  const registry = apiRegistry(host);
  const entry = registry.byName.get(collection);
  const outcome = await authorizeOperation(host, entry, operation, {
    input,
    runMiddleware: false,
    event,
  });
  if (!outcome.granted) {
    throw new Error("Unreachable: middleware do not run here");
  }
  const { scope } = outcome.grant;
  const targets = await targetPolicies(
    host,
    event,
    entry ? linkedCollections(registry, entry) : [],
  );
  let builder = host.data.query(collection).withPolicy(
    scopedReadPolicy(collection, scope, targets),
  );
  if (operation === "read") {
    if (scope.select) builder = builder.select(...scope.select);
    if (scope.limit !== undefined) builder = builder.limit(scope.limit);
    if (scope.locale) builder = builder.locale(scope.locale);
  }
  return builder;
}
