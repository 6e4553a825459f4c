/**
 * Walks parsed plans: which collections a query reaches, its populate paths, and whether a
 * filter touches translatable fields.
 *
 * @module
 */
import type { WhereFilter } from "../where.ts";
import type { PopulatePlan } from "../wire/types.ts";
import type { ApiRegistry } from "./registry.ts";

/**
 * The collections a filter reaches through `has`, and a populate tree reaches, from `root`.
 *
 * @example
 * ```ts ignore
 * reachedCollections(registry, "Posts", { author: { has: { name: "Ada" } } }, []); // Set { "Authors" }
 * ```
 */
export function reachedCollections(
  registry: ApiRegistry,
  root: string,
  where: WhereFilter | undefined,
  populate: readonly PopulatePlan[],
): Set<string> {
  const reached = new Set<string>();
  const walkWhere = (collection: string, filter: WhereFilter | undefined) => {
    if (!filter || typeof filter !== "object") return;
    for (const [key, value] of Object.entries(filter)) {
      if (key === "or" && Array.isArray(value)) {
        for (const branch of value) {
          walkWhere(collection, branch as WhereFilter);
        }
      } else if (key === "not") {
        walkWhere(collection, value as WhereFilter);
      } else if (
        value && typeof value === "object" && !Array.isArray(value) &&
        "has" in value
      ) {
        const target = registry.byName.get(collection)?.resolved.fields.get(key)
          ?.target;
        if (target) {
          reached.add(target);
          walkWhere(target, (value as { has: WhereFilter }).has);
        }
      }
    }
  };
  const walkPopulate = (collection: string, plans: readonly PopulatePlan[]) => {
    for (const plan of plans) {
      const target = registry.byName.get(collection)?.resolved.fields.get(
        plan.field,
      )?.target;
      if (!target) continue;
      reached.add(target);
      walkPopulate(target, plan.populate);
    }
  };
  walkWhere(root, where);
  walkPopulate(root, populate);
  return reached;
}

/**
 * A populate tree as the query builder's dotted paths (`author`, `comments.author`).
 *
 * @example
 * ```ts
 * import { populatePaths } from "./plan_walk.ts";
 * populatePaths([{ field: "comments", populate: [{ field: "author", populate: [] }] }]);
 * // ["comments.author"]
 * ```
 */
export function populatePaths(
  plans: readonly PopulatePlan[],
  prefix = "",
): string[] {
  const paths: string[] = [];
  for (const plan of plans) {
    const path = prefix + plan.field;
    if (plan.populate.length === 0) paths.push(path);
    else paths.push(...populatePaths(plan.populate, path + "."));
  }
  return paths;
}

/**
 * Whether a filter names a translatable field of `collection` at its own level (through
 * `or` and `not`, not through `has`).
 *
 * @example
 * ```ts ignore
 * touchesTranslatable({ title: "x" }, new Set(["title"])); // true
 * ```
 */
export function touchesTranslatable(
  filter: WhereFilter | undefined,
  translatable: ReadonlySet<string>,
): boolean {
  if (!filter || typeof filter !== "object") return false;
  for (const [key, value] of Object.entries(filter)) {
    if (key === "or" && Array.isArray(value)) {
      if (
        value.some((branch) =>
          touchesTranslatable(branch as WhereFilter, translatable)
        )
      ) {
        return true;
      }
    } else if (key === "not") {
      if (touchesTranslatable(value as WhereFilter, translatable)) return true;
    } else if (translatable.has(key)) {
      return true;
    }
  }
  return false;
}
