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
  // Without an upper-case letter after the first, neither rewrite can match: most names
  // (`Posts`, `Users`) are only lowered, without the two global replaces' cold runs.
  for (let i = 1; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) {
      return name
        .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
        .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
        .toLowerCase();
    }
  }
  return name.toLowerCase();
}
