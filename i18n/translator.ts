/**
 * Translators: message lookup with language fallback, rendering and group
 * listing over a merged {@linkcode Catalog}.
 *
 * @module
 */

import type { Catalog } from "./catalog.ts";
import { setOwn } from "./_object.ts";
import { canonicalLanguage, languageFallbacks } from "./language.ts";
import { renderMessage } from "./render.ts";

/** A template and the language it was found in. */
export interface MessageEntry {
  /** The message template. */
  template: string;
  /** The canonical tag of the catalog that held it. */
  language: string;
}

/** Looks up and renders messages of one catalog. */
export interface Translator {
  /** The canonical default language, the last resort of every lookup. */
  readonly defaultLanguage: string;
  /**
   * Renders `key` in the best available language. `languages` is a
   * preference list (for example `Accept-Language` order, then the user's
   * language); each entry is tried with its parents (`de-AT`, then `de`)
   * before the next one, and the default language comes last. A key missing
   * everywhere renders as the key itself.
   */
  t(
    key: string,
    params?: Record<string, unknown>,
    languages?: readonly string[],
  ): string;
  /** The template for `key` along `language`'s fallback chain, if any. */
  lookup(key: string, language: string): MessageEntry | undefined;
  /**
   * Every key under `group.` (for `"validation"`: `validation.required`, …),
   * each from the best language along `language`'s fallback chain.
   */
  group(group: string, language: string): Record<string, MessageEntry>;
}

/**
 * The languages to try for a preference list: each preference followed by
 * its parents, then the default language's chain; canonical, without
 * duplicates, malformed entries skipped.
 *
 * @param languages Preferred languages, best first.
 * @param defaultLanguage The language of last resort.
 * @returns Canonical tags in the order to try them.
 *
 * @example
 * ```ts
 * import { preferenceChain } from "./translator.ts";
 *
 * console.log(preferenceChain(["de-AT", "fr"], "en"));
 * // ["de-AT", "de", "fr", "en"]
 * ```
 */
export function preferenceChain(
  languages: readonly string[],
  defaultLanguage: string,
): string[] {
  const chain = new Set<string>();
  for (const language of languages) {
    // Fallbacks of a preference stop before the default so that a later
    // preference is still tried ahead of it.
    for (const tag of languageFallbacks(language, "")) chain.add(tag);
  }
  for (const tag of languageFallbacks(defaultLanguage, "")) chain.add(tag);
  return [...chain];
}

/**
 * The canonical tag of a translator's default language.
 *
 * @param defaultLanguage The language of last resort.
 * @returns Its canonical tag.
 * @throws {TypeError} When it is not a valid tag.
 *
 * @example
 * ```ts
 * import { defaultLanguageOf } from "./translator.ts";
 *
 * console.log(defaultLanguageOf("en-us")); // "en-US"
 * ```
 */
export function defaultLanguageOf(defaultLanguage: string): string {
  const canonical = canonicalLanguage(defaultLanguage);
  if (!canonical) {
    throw new TypeError(`Invalid default language "${defaultLanguage}"`);
  }
  return canonical;
}

/**
 * Creates a translator over a catalog. The catalog is copied, so later
 * changes to it are not seen.
 *
 * @param catalog Language → flat messages, as built by `mergeCatalogs`.
 * @param defaultLanguage The language of last resort.
 * @returns The translator.
 * @throws {TypeError} When the default language is not a valid tag.
 *
 * @example
 * ```ts
 * import { createTranslator } from "./translator.ts";
 *
 * const { t, group } = createTranslator({
 *   en: { "app.items": "{count, plural, one {# item} other {# items}}" },
 *   de: { "app.items": "{count, plural, one {# Eintrag} other {# Einträge}}" },
 * }, "en");
 * console.log(t("app.items", { count: 2 }, ["de-AT"])); // "2 Einträge"
 * console.log(t("app.items", { count: 1 }, ["fr"])); // "1 item"
 * console.log(t("app.missing")); // "app.missing"
 * console.log(group("app", "de-AT"));
 * // { "app.items": { template: "{count, plural, …}", language: "de" } }
 * ```
 */
export function createTranslator(
  catalog: Readonly<Catalog>,
  defaultLanguage: string,
): Translator {
  const fallback = defaultLanguageOf(defaultLanguage);
  const messages = new Map<string, Map<string, string>>();
  for (const [tag, flat] of Object.entries(catalog)) {
    const language = canonicalLanguage(tag);
    if (!language) continue;
    const entries = messages.get(language) ?? new Map<string, string>();
    for (const [key, template] of Object.entries(flat)) {
      if (typeof template === "string") entries.set(key, template);
    }
    messages.set(language, entries);
  }
  const sortedKeys = new Map<string, string[]>();
  const keysOf = (language: string): string[] => {
    let keys = sortedKeys.get(language);
    if (!keys) {
      keys = [...messages.get(language)?.keys() ?? []].sort();
      sortedKeys.set(language, keys);
    }
    return keys;
  };

  const find = (
    key: string,
    chain: readonly string[],
  ): MessageEntry | undefined => {
    for (const language of chain) {
      const template = messages.get(language)?.get(key);
      if (template !== undefined) return { template, language };
    }
    return undefined;
  };

  return {
    defaultLanguage: fallback,
    t(key, params = {}, languages = []) {
      const entry = find(key, preferenceChain(languages, fallback));
      return entry
        ? renderMessage(entry.template, params, entry.language)
        : key;
    },
    lookup(key, language) {
      return find(key, languageFallbacks(language, fallback));
    },
    group(group, language) {
      const prefix = `${group}.`;
      const result: Record<string, MessageEntry> = {};
      const found = new Map<string, MessageEntry>();
      for (const tag of languageFallbacks(language, fallback)) {
        const entries = messages.get(tag);
        for (const key of keysOf(tag)) {
          if (key.startsWith(prefix) && !found.has(key)) {
            found.set(key, { template: entries!.get(key)!, language: tag });
          }
        }
      }
      for (const key of [...found.keys()].sort()) {
        setOwn(result, key, found.get(key)!);
      }
      return result;
    },
  };
}
