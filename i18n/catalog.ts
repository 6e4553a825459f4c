/**
 * Message catalogs: nested message files flattened to dotted keys, merged
 * across layers per key, and filtered by `disable` globs.
 *
 * @module
 */

import { getOwn, setOwn } from "./_object.ts";
import { canonicalLanguage } from "./language.ts";

/** A message file's content: groups of keys nesting down to templates. */
export interface NestedMessages {
  /** A template, or a group of further keys. */
  [key: string]: string | NestedMessages;
}

/** Flat messages of one language: dotted key → template. */
export type FlatMessages = Record<string, string>;

/** Every language's flat messages: canonical language tag → messages. */
export type Catalog = Record<string, FlatMessages>;

/**
 * Flattens nested messages to dotted keys (`{ a: { b: "x" } }` →
 * `{ "a.b": "x" }`).
 *
 * @param nested The nested messages.
 * @param prefix A key prefix, without its trailing dot.
 * @returns The flat messages.
 * @throws {TypeError} When a value is neither a string nor a plain object.
 *
 * @example
 * ```ts
 * import { flattenMessages } from "./catalog.ts";
 *
 * console.log(flattenMessages({ app: { greeting: "Hello {name}" } }));
 * // { "app.greeting": "Hello {name}" }
 * ```
 */
export function flattenMessages(
  nested: NestedMessages,
  prefix?: string,
): FlatMessages {
  if (!isPlainObject(nested)) {
    throw new TypeError("Messages must be an object");
  }
  const flat: FlatMessages = {};
  flattenInto(flat, nested, prefix ?? "", 0);
  return flat;
}

const MAX_NESTING = 32;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function flattenInto(
  flat: FlatMessages,
  nested: Record<string, unknown>,
  prefix: string,
  depth: number,
): void {
  if (depth > MAX_NESTING) {
    throw new TypeError(`Messages under "${prefix}" nest too deeply`);
  }
  for (const [key, value] of Object.entries(nested)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") setOwn(flat, path, value);
    else if (isPlainObject(value)) flattenInto(flat, value, path, depth + 1);
    else {
      throw new TypeError(`Message "${path}" must be a string or an object`);
    }
  }
}

/**
 * Merges message layers into one catalog. Layers come furthest first; a later
 * (closer) layer wins per key, keys it does not name fall through. Language
 * tags are canonicalised (`"de-at"` → `"de-AT"`).
 *
 * @param layers Per layer, language → nested messages.
 * @returns The merged catalog.
 * @throws {TypeError} When a language tag is malformed or messages are not
 * strings and objects.
 *
 * @example
 * ```ts
 * import { mergeCatalogs } from "./catalog.ts";
 *
 * const catalog = mergeCatalogs([
 *   { en: { app: { title: "Strata", save: "Save" } } },
 *   { en: { app: { title: "My blog" } } },
 * ]);
 * console.log(catalog.en); // { "app.title": "My blog", "app.save": "Save" }
 * ```
 */
export function mergeCatalogs(
  layers: ReadonlyArray<Readonly<Record<string, NestedMessages>>>,
): Catalog {
  const catalog: Catalog = {};
  for (const layer of layers) {
    for (const [tag, nested] of Object.entries(layer)) {
      const language = canonicalLanguage(tag);
      if (!language) {
        throw new TypeError(`Invalid message catalog language "${tag}"`);
      }
      let messages = getOwn(catalog, language);
      if (!messages) {
        messages = {};
        setOwn(catalog, language, messages);
      }
      for (const [key, template] of Object.entries(flattenMessages(nested))) {
        setOwn(messages, key, template);
      }
    }
  }
  return catalog;
}

/**
 * Compiles key globs to one matcher. `*` matches any run of characters, dots
 * included, so `"dashboard.*"` matches every key under `dashboard.`; anything
 * else matches literally.
 *
 * @param globs Key globs such as `"dashboard.*"` or `"errors.notFound"`.
 * @returns A predicate over message keys.
 *
 * @example
 * ```ts
 * import { messageKeyMatcher } from "./catalog.ts";
 *
 * const matches = messageKeyMatcher(["dashboard.*"]);
 * console.log(matches("dashboard.install.title")); // true
 * console.log(matches("errors.notFound")); // false
 * ```
 */
export function messageKeyMatcher(
  globs: readonly string[],
): (key: string) => boolean {
  if (globs.length === 0) return () => false;
  const source = globs.map((glob) => {
    if (typeof glob !== "string" || glob === "") {
      throw new TypeError("Message key globs must be non-empty strings");
    }
    return glob.split("*").map((part) =>
      part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    ).join(".*");
  }).join("|");
  const pattern = new RegExp(`^(?:${source})$`, "s");
  return (key) => pattern.test(key);
}

/**
 * A copy of the catalog without the keys that match any glob (see
 * {@linkcode messageKeyMatcher}); used for `disable` lists.
 *
 * @param catalog The catalog to filter.
 * @param globs Key globs to drop, such as `"dashboard.*"`.
 * @returns A new catalog; the input is not modified.
 *
 * @example
 * ```ts
 * import { filterCatalog } from "./catalog.ts";
 *
 * const catalog = { en: { "dashboard.save": "Save", "errors.notFound": "Not found" } };
 * console.log(filterCatalog(catalog, ["dashboard.*"]));
 * // { en: { "errors.notFound": "Not found" } }
 * ```
 */
export function filterCatalog(
  catalog: Readonly<Catalog>,
  globs: readonly string[],
): Catalog {
  const matches = messageKeyMatcher(globs);
  const filtered: Catalog = {};
  for (const [language, messages] of Object.entries(catalog)) {
    const kept: FlatMessages = {};
    for (const [key, template] of Object.entries(messages)) {
      if (!matches(key)) setOwn(kept, key, template);
    }
    setOwn(filtered, language, kept);
  }
  return filtered;
}
