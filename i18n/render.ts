/**
 * Renders ICU-style message templates: `{name}` placeholders, `plural` (with
 * `=N` exact matches, `offset:` and `#`), `selectordinal`, `select` and
 * `number`, nested. Plural categories come from `Intl.PluralRules` and
 * numbers are formatted with `Intl.NumberFormat`, both for the given
 * language.
 *
 * @module
 */

import {
  type MessageNode,
  MessageSyntaxError,
  parseMessage,
} from "./_message_format.ts";
import { canonicalLanguage } from "./language.ts";

const MAX_TEMPLATES = 2000;
const MAX_LANGUAGES = 100;
const FALLBACK_LANGUAGE = "en";

// `null` marks a malformed template, so it is not parsed again.
const templates = new Map<string, MessageNode[] | null>();

interface Formatters {
  cardinal: Intl.PluralRules;
  ordinal: Intl.PluralRules;
  number: Intl.NumberFormat;
  integer: Intl.NumberFormat;
  percent: Intl.NumberFormat;
}

const formatters = new Map<string, Formatters>();

// Both caches are keyed by caller input (templates, Accept-Language tags), so
// they are bounded: past the limit the oldest entry makes room.
function remember<K, V>(cache: Map<K, V>, limit: number, key: K, value: V) {
  if (cache.size >= limit) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

function compile(template: string): MessageNode[] | null {
  let nodes = templates.get(template);
  if (nodes === undefined) {
    try {
      nodes = parseMessage(template);
    } catch (error) {
      if (!(error instanceof MessageSyntaxError)) throw error;
      nodes = null;
    }
    remember(templates, MAX_TEMPLATES, template, nodes);
  }
  return nodes;
}

function createFormatters(locale: string): Formatters {
  return {
    cardinal: new Intl.PluralRules(locale),
    ordinal: new Intl.PluralRules(locale, { type: "ordinal" }),
    number: new Intl.NumberFormat(locale),
    integer: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    percent: new Intl.NumberFormat(locale, { style: "percent" }),
  };
}

function formattersFor(language: string): Formatters {
  let found = formatters.get(language);
  if (!found) {
    const locale = canonicalLanguage(language) ?? FALLBACK_LANGUAGE;
    try {
      found = createFormatters(locale);
    } catch {
      found = createFormatters(FALLBACK_LANGUAGE);
    }
    remember(formatters, MAX_LANGUAGES, language, found);
  }
  return found;
}

function toNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isNaN(value) ? null : value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "") {
    const number = Number(value);
    return Number.isNaN(number) ? null : number;
  }
  return null;
}

function lookup(params: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(params, name) ? params[name] : undefined;
}

function formatValue(value: unknown, format: Formatters): string {
  if (typeof value === "number" || typeof value === "bigint") {
    return format.number.format(value);
  }
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function renderNodes(
  nodes: readonly MessageNode[],
  params: Record<string, unknown>,
  format: Formatters,
  pound: string | undefined,
): string {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") {
      out += node;
      continue;
    }
    if (node.kind === "pound") {
      out += pound ?? "#";
      continue;
    }
    const value = lookup(params, node.name);
    if (value === undefined || value === null) {
      out += node.source;
      continue;
    }
    if (node.kind === "argument") {
      const number = node.style === "none" ? null : toNumber(value);
      out += number === null
        ? formatValue(value, format)
        : format[node.style as "number" | "integer" | "percent"].format(
          number,
        );
    } else if (node.kind === "select") {
      const branch = node.options.get(String(value)) ??
        node.options.get("other")!;
      out += renderNodes(branch, params, format, pound);
    } else {
      const number = toNumber(value);
      if (number === null) {
        out += renderNodes(
          node.options.get("other")!,
          params,
          format,
          String(value),
        );
        continue;
      }
      const rules = node.ordinal ? format.ordinal : format.cardinal;
      const shifted = number - node.offset;
      const branch = node.exact.get(number) ??
        node.options.get(rules.select(shifted)) ??
        node.options.get("other")!;
      out += renderNodes(branch, params, format, format.number.format(shifted));
    }
  }
  return out;
}

/**
 * Renders a message template with parameters in a language. A placeholder
 * whose parameter is missing (or `null`) stays as written; a malformed
 * template is returned unchanged. Never throws for template or parameter
 * content. Compiled templates are cached.
 *
 * @param template An ICU-style template.
 * @param params Values for the placeholders.
 * @param language The language for plural rules and number formatting.
 * @returns The rendered text.
 *
 * @example
 * ```ts
 * import { renderMessage } from "./render.ts";
 *
 * const template = "{count, plural, =0 {No items} one {# item} other {# items}}";
 * console.log(renderMessage(template, { count: 0 }, "en")); // "No items"
 * console.log(renderMessage(template, { count: 1 }, "en")); // "1 item"
 * console.log(renderMessage(template, { count: 1234 }, "de")); // "1.234 items"
 * console.log(renderMessage("Hello {name}", {}, "en")); // "Hello {name}"
 * ```
 */
export function renderMessage(
  template: string,
  params: Record<string, unknown> = {},
  language: string = FALLBACK_LANGUAGE,
): string {
  if (typeof template !== "string") return String(template);
  const nodes = compile(template);
  if (nodes === null) return template;
  return renderNodes(nodes, params ?? {}, formattersFor(language), undefined);
}
