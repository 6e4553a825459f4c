/**
 * `language`: a BCP-47 language tag, stored in canonical form (`en-us` → `en-US`).
 *
 * @module
 */
import {
  defineFieldType,
  type FieldType,
} from "../../collections/field_types.ts";
import type { Sanitizer, Validator } from "../../collections/define.ts";
import { issue } from "./_issue.ts";

const MAX_LENGTH = 64;

/**
 * The canonical form of a BCP-47 tag, or `undefined` when it is not one.
 *
 * @example
 * ```ts
 * import { canonicalLanguageTag } from "./language.ts";
 * canonicalLanguageTag("de-at"); // "de-AT"
 * canonicalLanguageTag("not a tag"); // undefined
 * ```
 */
export function canonicalLanguageTag(value: string): string | undefined {
  if (value === "" || value.length > MAX_LENGTH) return undefined;
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
}

const canonicalize: Sanitizer = (value) => {
  if (typeof value !== "string") return value;
  return canonicalLanguageTag(value.trim()) ?? value;
};

const isString: Validator = (value) =>
  typeof value === "string" ? undefined : issue("invalidType");

const isTag: Validator = (value) =>
  canonicalLanguageTag(value as string) === value
    ? undefined
    : issue("invalidLanguage");

/** The `language` field type (kind `text`). */
export const languageType: FieldType = defineFieldType({
  name: "language",
  kind: "text",
  sanitizers: [canonicalize],
  validators: [isString, isTag],
});
