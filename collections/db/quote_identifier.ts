/**
 * Quotes an SQL identifier as both databases read it: in `"`, a `"` inside doubled.
 *
 * @example
 * ```ts
 * import { quoteIdentifier } from "./quote_identifier.ts";
 * quoteIdentifier('my"table'); // "\"my\"\"table\""
 * ```
 */
export function quoteIdentifier(name: string): string {
  // Most names hold no quote: schema sync quotes some 2,300 of them at a 100-collection boot,
  // where a replace made a second string for each.
  return name.includes('"') ? `"${name.replaceAll('"', '""')}"` : `"${name}"`;
}
