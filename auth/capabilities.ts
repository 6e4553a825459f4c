/**
 * Capabilities and roles. A capability is a dotted name such as
 * `collection.Posts.read`; a granted name ending in `.*` covers every name
 * under its prefix and `*` covers everything. A user's capabilities are the
 * union of their roles' capabilities.
 *
 * @module
 */

/** A role: the capabilities it grants. Frozen by {@linkcode defineRole}. */
export interface RoleDefinition {
  /** Capability names, such as `collection.Posts.*` or `*`. */
  readonly capabilities: readonly string[];
}

/**
 * Whether one granted capability covers a needed one: `*` covers all,
 * `collection.*` covers every name under `collection.` (wildcards included),
 * otherwise only the same name. `collection.Posts` does not cover
 * `collection.Posts.read`.
 *
 * @param granted A capability held.
 * @param needed The capability asked for.
 * @returns Whether `granted` covers `needed`.
 *
 * @example
 * ```ts
 * import { capabilityCovers } from "./capabilities.ts";
 *
 * console.log(capabilityCovers("collection.Posts.*", "collection.Posts.read")); // true
 * console.log(capabilityCovers("collection.Posts", "collection.Posts.read")); // false
 * console.log(capabilityCovers("*", "anything.at.all")); // true
 * ```
 */
export function capabilityCovers(granted: string, needed: string): boolean {
  if (typeof granted !== "string" || typeof needed !== "string") return false;
  if (needed === "" || granted === "") return false;
  if (granted === "*") return true;
  if (granted.endsWith(".*")) {
    const prefix = granted.slice(0, -1);
    return needed.startsWith(prefix) && needed.length > prefix.length;
  }
  return granted === needed;
}

/**
 * Whether any of the granted capabilities covers the needed one.
 *
 * @param granted Capabilities held.
 * @param needed The capability asked for.
 * @returns Whether one of `granted` covers `needed`.
 *
 * @example
 * ```ts
 * import { capabilitiesCover } from "./capabilities.ts";
 *
 * const granted = ["collection.Posts.read", "collection.Tags.*"];
 * console.log(capabilitiesCover(granted, "collection.Tags.delete")); // true
 * console.log(capabilitiesCover(granted, "collection.Posts.update")); // false
 * ```
 */
export function capabilitiesCover(
  granted: readonly string[],
  needed: string,
): boolean {
  return granted.some((capability) => capabilityCovers(capability, needed));
}

/**
 * Whether the granted capabilities cover every needed one, wildcards
 * included: the test for "does A hold at least everything B holds" that
 * stops role escalation. `["collection.*"]` covers `["collection.Posts.*"]`,
 * but not the other way round; an empty list is covered by anything.
 *
 * @param granted Capabilities held.
 * @param neededList Capabilities asked for.
 * @returns Whether each of `neededList` is covered.
 *
 * @example
 * ```ts
 * import { capabilitySetCovers } from "./capabilities.ts";
 *
 * console.log(capabilitySetCovers(["collection.*"], ["collection.Posts.*"])); // true
 * console.log(capabilitySetCovers(["collection.Posts.*"], ["collection.*"])); // false
 * ```
 */
export function capabilitySetCovers(
  granted: readonly string[],
  neededList: readonly string[],
): boolean {
  return neededList.every((needed) => capabilitiesCover(granted, needed));
}

/**
 * The union of the capabilities of the named roles, in first-seen order and
 * without duplicates. An unknown role grants nothing.
 *
 * @param roleNames The user's role names.
 * @param roles Role definitions by name.
 * @returns The capabilities.
 *
 * @example
 * ```ts
 * import { capabilitiesOf } from "./capabilities.ts";
 *
 * const roles = new Map([
 *   ["editor", { capabilities: ["collection.Posts.*"] }],
 *   ["viewer", { capabilities: ["collection.Posts.read"] }],
 * ]);
 * console.log(capabilitiesOf(["editor", "viewer", "ghost"], roles));
 * // ["collection.Posts.*", "collection.Posts.read"]
 * ```
 */
export function capabilitiesOf(
  roleNames: readonly string[],
  roles: ReadonlyMap<string, { readonly capabilities: readonly string[] }>,
): string[] {
  const result = new Set<string>();
  for (const name of roleNames) {
    const role = roles.get(name);
    if (!role) continue;
    for (const capability of role.capabilities) result.add(capability);
  }
  return [...result];
}

function capabilityProblem(capability: unknown): string | null {
  if (typeof capability !== "string" || capability === "") {
    return "must be a non-empty string";
  }
  if (/\s/.test(capability)) return "must not contain whitespace";
  const segments = capability.split(".");
  if (segments.some((segment) => segment === "")) {
    return "must not have empty segments";
  }
  const last = segments.length - 1;
  if (
    segments.some((segment, i) =>
      segment.includes("*") && (segment !== "*" || i !== last)
    )
  ) {
    return 'may use "*" only as its whole last segment';
  }
  return null;
}

/**
 * Whether `value` is a well-formed capability name: dotted non-empty segments, no
 * whitespace, `*` only as the whole last segment.
 *
 * @example
 * ```ts
 * import { isCapabilityName } from "./capabilities.ts";
 * isCapabilityName("collection.Posts.*"); // true
 * isCapabilityName("collection.*.read"); // false
 * ```
 */
export function isCapabilityName(value: unknown): value is string {
  return capabilityProblem(value) === null;
}

/**
 * Defines a role. Every capability must be a non-empty string of dotted
 * segments, with `*` allowed only as the whole last segment (`*`,
 * `collection.*`, `collection.Posts.*`). Duplicates are dropped.
 *
 * @param definition The role's capabilities.
 * @returns A frozen role definition.
 * @throws {TypeError} When a capability is invalid.
 *
 * @example
 * ```ts
 * import { defineRole } from "@strata/strata";
 *
 * export default defineRole({
 *   capabilities: ["collection.Posts.*", "collection.Tags.read"],
 * });
 * ```
 */
export function defineRole(
  definition: { capabilities: readonly string[] },
): RoleDefinition {
  if (
    definition === null || typeof definition !== "object" ||
    !Array.isArray(definition.capabilities)
  ) {
    throw new TypeError("Role capabilities must be an array");
  }
  for (const [index, capability] of definition.capabilities.entries()) {
    const problem = capabilityProblem(capability);
    if (problem) {
      const shown = typeof capability === "string"
        ? `"${capability}"`
        : `at index ${index}`;
      throw new TypeError(`Role capability ${shown} ${problem}`);
    }
  }
  return Object.freeze({
    capabilities: Object.freeze([...new Set(definition.capabilities)]),
  });
}
