/**
 * Case and accent folding for full-text search, the same on SQLite and PostgreSQL: NFKD, the
 * combining diacritical marks removed, lower-cased. Both the indexed text and the searched
 * words pass through it, so `cafe` finds "Café" on either database. The marks removed are
 * the combining diacritics blocks (accents of Latin, Greek and Cyrillic letters); the vowel
 * signs of scripts that write them as marks (Devanagari, Arabic, …) are kept, since removing
 * them changes the word.
 *
 * @module
 */

/** The removed marks, as a character class both JavaScript and PostgreSQL read alike. */
export const FOLDED_MARKS =
  "[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]";

const MARKS = new RegExp(FOLDED_MARKS, "g");

/**
 * Folds `text` for search (see the module documentation).
 *
 * @example
 * ```ts
 * import { foldText } from "./fold.ts";
 * foldText("Crème Brûlée"); // "creme brulee"
 * ```
 */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/** Anything that is not part of a word: words are letters, digits and the marks kept. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;

/**
 * The words of `text` after folding, in order (empty strings dropped).
 *
 * @example
 * ```ts
 * import { foldedWords } from "./fold.ts";
 * foldedWords("Deno's routes, v2.1"); // ["deno", "s", "routes", "v2", "1"]
 * ```
 */
export function foldedWords(text: string): string[] {
  return foldText(text).split(SEPARATORS).filter((word) => word !== "");
}
