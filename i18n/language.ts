/**
 * Language tags: canonical form, fallback chains and `Accept-Language`.
 *
 * @module
 */

const MAX_TAG_LENGTH = 255;
const MAX_HEADER_LENGTH = 1000;
const MAX_ENTRIES = 20;

/**
 * The canonical form of a BCP 47 language tag (`"DE-at"` → `"de-AT"`), or
 * `null` when the tag is malformed.
 *
 * @param tag A language tag.
 * @returns The canonical tag, or `null`.
 *
 * @example
 * ```ts
 * import { canonicalLanguage } from "./language.ts";
 *
 * console.log(canonicalLanguage("DE-at")); // "de-AT"
 * console.log(canonicalLanguage("not a tag")); // null
 * ```
 */
export function canonicalLanguage(tag: string): string | null {
  if (typeof tag !== "string" || tag === "" || tag.length > MAX_TAG_LENGTH) {
    return null;
  }
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

function chain(tag: string): string[] {
  const subtags = tag.split("-");
  const result: string[] = [];
  while (subtags.length > 0) {
    // A singleton (`u`, `x`, …) only introduces an extension; a tag never
    // ends in one.
    if (subtags.at(-1)!.length === 1) {
      subtags.pop();
      continue;
    }
    result.push(subtags.join("-"));
    subtags.pop();
  }
  return result;
}

/**
 * The languages to try for `tag`, most specific first, ending with the
 * default language and its own parents; duplicates removed. A malformed
 * `tag` yields the default language's chain alone.
 *
 * @param tag The wanted language.
 * @param defaultLanguage The language of last resort.
 * @returns Canonical tags in the order to try them.
 *
 * @example
 * ```ts
 * import { languageFallbacks } from "./language.ts";
 *
 * console.log(languageFallbacks("de-AT", "en")); // ["de-AT", "de", "en"]
 * console.log(languageFallbacks("en-GB", "en")); // ["en-GB", "en"]
 * ```
 */
export function languageFallbacks(
  tag: string,
  defaultLanguage: string,
): string[] {
  const result = new Set<string>();
  for (const candidate of [tag, defaultLanguage]) {
    const canonical = canonicalLanguage(candidate);
    if (canonical) { for (const item of chain(canonical)) result.add(item); }
  }
  return [...result];
}

const Q_VALUE = /^q=(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/i;

/**
 * The languages of an `Accept-Language` header, canonical, best first (by
 * q-value, then by position). Malformed entries, `*` and `q=0` are skipped;
 * only the first 20 entries and 1000 characters are read.
 *
 * @param header The header value, or `null` when absent.
 * @returns Canonical tags without duplicates.
 *
 * @example
 * ```ts
 * import { parseAcceptLanguage } from "./language.ts";
 *
 * console.log(parseAcceptLanguage("fr;q=0.5, de-AT, en;q=0.8"));
 * // ["de-AT", "en", "fr"]
 * ```
 */
export function parseAcceptLanguage(header: string | null): string[] {
  if (typeof header !== "string" || header === "") return [];
  let text = header;
  if (text.length > MAX_HEADER_LENGTH) {
    // Cut at an entry boundary so a half entry is not read as a tag.
    text = text.slice(0, MAX_HEADER_LENGTH + 1);
    text = text.slice(0, Math.max(0, text.lastIndexOf(",")));
  }
  const entries: Array<{ tag: string; q: number; index: number }> = [];
  const parts = text.split(",", MAX_ENTRIES);
  parts.forEach((part, index) => {
    const [range, ...params] = part.split(";").map((piece) => piece.trim());
    if (!range || range === "*") return;
    let q = 1;
    for (const param of params) {
      if (/^q=/i.test(param)) {
        if (!Q_VALUE.test(param)) return;
        q = Number(param.slice(2));
      }
    }
    if (q === 0) return;
    const tag = canonicalLanguage(range);
    if (tag) entries.push({ tag, q, index });
  });
  entries.sort((a, b) => b.q - a.q || a.index - b.index);
  return [...new Set(entries.map((entry) => entry.tag))];
}
