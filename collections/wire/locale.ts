/**
 * The `locale` param: a BCP-47 tag, canonicalised, one of the configured
 * content locales, on a collection that has translatable fields.
 *
 * @module
 */

import { wireError } from "./errors.ts";
import type { WireCollection, WireContext } from "./types.ts";

/** Longer text is no tag worth handing to `Intl`. */
const MAX_TAG_LENGTH = 255;

function hasTranslatable(collection: WireCollection): boolean {
  return Object.values(collection.fields).some((f) => f.translatable);
}

/**
 * Validates an already parsed `locale` value: anything but a valid BCP-47 tag
 * is `invalidLocale`; on a collection without translatable fields any valid
 * tag is `localeNotApplicable`; a tag outside `ctx.locales` is
 * `invalidLocale`. Returns the canonical tag.
 *
 * @example
 * ```ts
 * import { checkLocale } from "./locale.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       title: {
 *         kind: "text" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: true,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en", "pt-BR"],
 * };
 * checkLocale("pt-br", ctx, "locale"); // "pt-BR"
 * ```
 */
export function checkLocale(
  value: unknown,
  ctx: WireContext,
  path: string,
): string {
  if (
    typeof value !== "string" || value === "" ||
    value.length > MAX_TAG_LENGTH
  ) {
    throw wireError("invalidLocale", path);
  }
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(value);
  } catch {
    throw wireError("invalidLocale", path);
  }
  if (canonical === undefined) throw wireError("invalidLocale", path);
  if (!hasTranslatable(ctx.collection)) {
    throw wireError("localeNotApplicable", path);
  }
  if (!ctx.locales.includes(canonical)) throw wireError("invalidLocale", path);
  return canonical;
}

/**
 * Validates a locale given as plain text (a route param, a body value);
 * `null` means none was given. `path` names it in errors (default `locale`).
 * URL query params go through {@link checkLocale} after literal parsing
 * instead (see `parseWriteParams`).
 *
 * @example
 * ```ts
 * import { parseLocaleParam } from "./locale.ts";
 * import { DEFAULT_QUERY_GUARDS } from "./types.ts";
 * const ctx = {
 *   collection: {
 *     name: "Posts",
 *     fields: {
 *       title: {
 *         kind: "text" as const,
 *         nullable: false,
 *         readable: true,
 *         translatable: true,
 *       },
 *     },
 *   },
 *   collectionByName: () => undefined,
 *   guards: DEFAULT_QUERY_GUARDS,
 *   locales: ["en", "de-CH"],
 * };
 * parseLocaleParam("DE-ch", ctx); // "de-CH"
 * ```
 */
export function parseLocaleParam(
  value: string | null,
  ctx: WireContext,
  path = "locale",
): string | undefined {
  if (value === null) return undefined;
  return checkLocale(value, ctx, path);
}
