/**
 * Collection names on the wire: `UserGroups` is `user-groups`.
 *
 * @module
 */

/**
 * The kebab-case path segment of a collection name.
 *
 * @example
 * ```ts
 * import { collectionPath } from "./names.ts";
 * collectionPath("UserGroups"); // "user-groups"
 * collectionPath("APIKeys"); // "api-keys"
 * ```
 */
export function collectionPath(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase();
}
