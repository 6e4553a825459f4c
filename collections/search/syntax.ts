/**
 * The search syntax: words are ANDed, `"a phrase"` matches a phrase, `-word` (or
 * `-"a phrase"`) excludes, a trailing `*` makes a prefix. Every other character is text:
 * nothing a user types can be syntax that fails. The words are folded (see fold.ts) and
 * split as the indexes split text, so one typed word may stand for several (`foo-bar` is the
 * phrase `foo bar`). The result holds only folded words of letters, digits and marks; the
 * dialects build their `MATCH` / `tsquery` text from those alone.
 *
 * @module
 */

import { QueryError } from "../query_error.ts";
import { foldedWords } from "./fold.ts";

/** One searched term: a word, or a phrase of adjacent words. */
export interface SearchTerm {
  /** Folded words in order (one for a word, several for a phrase). */
  readonly words: readonly string[];
  /** The last word matches as a prefix. */
  readonly prefix: boolean;
}

/** A parsed search. */
export interface SearchQuery {
  /** Terms a match must hold (at least one). */
  readonly include: readonly SearchTerm[];
  /** Terms a match must not hold. */
  readonly exclude: readonly SearchTerm[];
}

/** The most terms one search holds; more are dropped (the byte guard bounds them anyway). */
const MAX_TERMS = 64;

function term(text: string, phrase: boolean): SearchTerm | null {
  const prefix = !phrase && /[^*]\*+$/u.test(text);
  const words = foldedWords(text);
  return words.length === 0 ? null : { words, prefix };
}

/**
 * Parses a search string. A string with no term to include (empty, only punctuation, only
 * exclusions) throws the `invalidValue` {@link QueryError} at `path`.
 *
 * @example
 * ```ts
 * import { parseSearch } from "./syntax.ts";
 * parseSearch('deno "file routes" -draft rout*');
 * // include: [deno], [file routes], [rout (prefix)]; exclude: [draft]
 * ```
 */
export function parseSearch(text: string, path = "search"): SearchQuery {
  if (typeof text !== "string") {
    throw new QueryError("invalidValue", path, "A search must be a string");
  }
  const include: SearchTerm[] = [];
  const exclude: SearchTerm[] = [];
  let at = 0;
  while (at < text.length && include.length + exclude.length < MAX_TERMS) {
    if (/\s/u.test(text[at])) {
      at++;
      continue;
    }
    let negative = false;
    if (text[at] === "-" && at + 1 < text.length && !/\s/u.test(text[at + 1])) {
      negative = true;
      at++;
    }
    let raw: string;
    let phrase = false;
    if (text[at] === '"') {
      // A phrase runs to the next quote; an unclosed one runs to the end.
      const close = text.indexOf('"', at + 1);
      const end = close === -1 ? text.length : close;
      raw = text.slice(at + 1, end);
      phrase = true;
      at = end + 1;
    } else {
      let end = at;
      while (end < text.length && !/\s/u.test(text[end]) && text[end] !== '"') {
        end++;
      }
      raw = text.slice(at, end);
      at = end;
    }
    const parsed = term(raw, phrase);
    if (parsed) (negative ? exclude : include).push(parsed);
  }
  if (include.length === 0) {
    throw new QueryError(
      "invalidValue",
      path,
      "A search needs at least one word to look for",
    );
  }
  return { include, exclude };
}
