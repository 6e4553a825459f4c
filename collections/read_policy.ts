/**
 * Read policies: a per-query rule naming, for each collection a query touches, the filter its
 * rows must pass (or `false`: none may be seen). The collections API builds one per request
 * from the caller's access scopes; the data layer applies it wherever it applies the
 * `query:filter` hooks — reads, counts, populate, `has`, reference checks, and the rows an
 * update or delete selects.
 *
 * @module
 */
import type { QueryFilter } from "./_context.ts";
import type { WhereFilter } from "./where.ts";

/** What a read policy says of one collection. */
export type CollectionReadRule =
  | false
  | { readonly where?: WhereFilter; readonly select?: ReadonlySet<string> }
  | undefined;

/** A read policy: the rule for each collection (`undefined`: unrestricted). */
export type ReadPolicy = (collection: string) => CollectionReadRule;

const NOTHING: WhereFilter = Object.freeze({ UUID: { in: [] } });

/**
 * The read policy as a `query:filter` hook.
 *
 * @example
 * ```ts
 * import { policyFilter } from "./read_policy.ts";
 * const hook = policyFilter((name) => name === "Secrets" ? false : undefined);
 * hook({ collection: "Secrets", where: {}, locale: "en" }); // { UUID: { in: [] } }
 * ```
 */
export function policyFilter(policy: ReadPolicy): QueryFilter {
  return ({ collection }) => {
    const rule = policy(collection);
    if (rule === undefined) return undefined;
    if (rule === false) return NOTHING;
    return rule.where;
  };
}
