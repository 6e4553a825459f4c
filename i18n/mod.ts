/**
 * Message catalogs and translation: catalog merging, language negotiation,
 * ICU-style rendering and translators.
 *
 * @example
 * ```ts
 * import { createTranslator, frameworkMessages, mergeCatalogs, parseAcceptLanguage } from "./mod.ts";
 *
 * const translator = createTranslator(mergeCatalogs([frameworkMessages]), "en");
 * const languages = parseAcceptLanguage("de-AT,de;q=0.9,en;q=0.5");
 * console.log(translator.t("validation.tooShort", { min: 3 }, languages));
 * // "Muss mindestens 3 Zeichen lang sein"
 * ```
 *
 * @module
 */

export {
  type Catalog,
  filterCatalog,
  type FlatMessages,
  flattenMessages,
  mergeCatalogs,
  messageKeyMatcher,
  type NestedMessages,
} from "./catalog.ts";
export { frameworkMessages } from "./framework_messages.ts";
export {
  canonicalLanguage,
  languageFallbacks,
  parseAcceptLanguage,
} from "./language.ts";
export { renderMessage } from "./render.ts";
export {
  createTranslator,
  type MessageEntry,
  preferenceChain,
  type Translator,
} from "./translator.ts";
