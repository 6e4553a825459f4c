/**
 * The framework's own message catalogs (English and German), the furthest
 * layer of every application's messages. Loaded through static JSON imports
 * because the package may be imported from a remote URL, where it cannot read
 * its own files.
 *
 * @module
 */

import type { NestedMessages } from "./catalog.ts";
import de from "./messages/de.json" with { type: "json" };
import en from "./messages/en.json" with { type: "json" };

/**
 * Language → nested messages for the groups `validation`, `errors`, `query`
 * and `dashboard`.
 *
 * @example
 * ```ts
 * import { frameworkMessages } from "./framework_messages.ts";
 * import { mergeCatalogs } from "./catalog.ts";
 *
 * const catalog = mergeCatalogs([frameworkMessages]);
 * console.log(catalog.de["errors.notFound"]); // "Nicht gefunden"
 * ```
 */
export const frameworkMessages: Record<string, NestedMessages> = Object.freeze({
  en,
  de,
});
