/**
 * Texts that are either written out or name a message: a collection's `label`, a field's
 * `description`. A value that is a key of the catalog is translated; anything else is shown
 * as written.
 *
 * @module
 */
import { preferenceChain, type Translator } from "./translator.ts";

/**
 * `value` translated when it is a key of `translator`'s catalog (in the best of `languages`,
 * the default language last), else `value` itself.
 *
 * @example
 * ```ts
 * import { createTranslator } from "./translator.ts";
 * import { literalOrMessage } from "./literal_or_key.ts";
 * const translator = createTranslator({
 *   en: { "posts.label": "Posts" },
 *   de: { "posts.label": "Beiträge" },
 * }, "en");
 * literalOrMessage(translator, "posts.label", ["de"]); // "Beiträge"
 * literalOrMessage(translator, "Blog posts", ["de"]); // "Blog posts"
 * ```
 */
export function literalOrMessage(
  translator: Translator,
  value: string,
  languages: readonly string[],
): string {
  const chain = preferenceChain(languages, translator.defaultLanguage);
  const known = chain.some((language) =>
    translator.lookup(value, language) !== undefined
  );
  return known ? translator.t(value, {}, languages) : value;
}
