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
  return `"${name.replaceAll('"', '""')}"`;
}
