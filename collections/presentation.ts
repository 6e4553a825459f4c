/**
 * How a collection and its fields are presented (the dashboard, OpenAPI descriptions): labels,
 * descriptions, the field that names a record, the default columns and order. Every `label`,
 * `description` and `placeholder` is a literal or a message key; whoever shows it resolves
 * keys in its reader's language.
 *
 * @module
 */
import type { CollectionDefinition, FieldOptions } from "./define.ts";

/** How the dashboard renders a field's input, beyond what its type implies. */
export type FieldDisplay = "textarea" | "switch" | "color" | "url" | "email";

/** The accepted {@link FieldDisplay} hints. */
export const FIELD_DISPLAYS: readonly FieldDisplay[] = Object.freeze([
  "textarea",
  "switch",
  "color",
  "url",
  "email",
]);

/** The presentation options of a field (part of {@link FieldOptions}). */
export interface FieldPresentationOptions {
  /** Shown instead of the name (default: the name, words split: `publishedOn` → "Published on"). */
  label?: string;
  /** Help text under the input. */
  description?: string;
  /** The input's placeholder. */
  placeholder?: string;
  /** An input hint: `textarea`, `switch`, `color`, `url` or `email`. */
  display?: FieldDisplay;
  /** Left out of the dashboard's lists and forms. */
  hidden?: boolean;
}

/** The presentation options of a collection (part of {@link CollectionDefinition}). */
export interface CollectionPresentationOptions {
  /** Shown instead of the name (default: the name, words split: `BlogTags` → "Blog tags"). */
  readonly label?: string;
  /** A sentence on what the collection holds. */
  readonly description?: string;
  /**
   * The field that names a record (default: the first `text`, `email` or `select` field in
   * definition order).
   */
  readonly displayField?: string;
  /** The columns shown by default (default: every readable field that is not hidden). */
  readonly listFields?: readonly string[];
  /** The default order, in the wire's order syntax (`["-views", "title"]`). */
  readonly defaultOrder?: readonly string[];
}

/** The option keys of {@link FieldPresentationOptions}. */
export const FIELD_PRESENTATION_KEYS: readonly string[] = Object.freeze([
  "label",
  "description",
  "placeholder",
  "display",
  "hidden",
]);

/** The option keys of {@link CollectionPresentationOptions}. */
export const COLLECTION_PRESENTATION_KEYS: readonly string[] = Object.freeze([
  "label",
  "description",
  "displayField",
  "listFields",
  "defaultOrder",
]);

const MAX_TEXT = 500;
const SYSTEM_ORDER_FIELDS = new Set(["UUID", "_createdAt", "_updatedAt"]);
const NAMING_TYPES = new Set(["text", "email", "select"]);

/**
 * A name as words: `BlogTags` → "Blog tags", `publishedOn` → "Published on", `cover_image`
 * → "Cover image", `UUID` → "UUID".
 *
 * @example
 * ```ts
 * import { wordsOf } from "./presentation.ts";
 * wordsOf("publishedOn"); // "Published on"
 * ```
 */
export function wordsOf(name: string): string {
  const words = name
    .replace(/_+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  return words.map((word, i) => {
    if (/^[A-Z0-9]+$/.test(word) && word.length > 1) return word;
    return i === 0
      ? word.charAt(0).toUpperCase() + word.slice(1)
      : word.toLowerCase();
  }).join(" ");
}

function checkText(value: unknown, key: string, where: string): void {
  if (value === undefined) return;
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(
      `Option "${key}" on ${where} must be a non-empty string`,
    );
  }
  if (value.length > MAX_TEXT) {
    throw new TypeError(
      `Option "${key}" on ${where} must be at most ${MAX_TEXT} characters`,
    );
  }
}

/**
 * Checks a field's presentation options; throws a TypeError naming `where`.
 *
 * @example
 * ```ts
 * import { checkFieldPresentation } from "./presentation.ts";
 * checkFieldPresentation({ label: "Title", display: "textarea" }, 'field "title"');
 * ```
 */
export function checkFieldPresentation(
  options: FieldPresentationOptions,
  where: string,
): void {
  checkText(options.label, "label", where);
  checkText(options.description, "description", where);
  checkText(options.placeholder, "placeholder", where);
  if (
    options.display !== undefined &&
    !FIELD_DISPLAYS.includes(options.display)
  ) {
    throw new TypeError(
      `Option "display" on ${where} must be one of ${
        FIELD_DISPLAYS.join(", ")
      }`,
    );
  }
  if (options.hidden !== undefined && typeof options.hidden !== "boolean") {
    throw new TypeError(`Option "hidden" on ${where} must be a boolean`);
  }
}

/**
 * Checks a collection's presentation options against its fields; throws a TypeError.
 *
 * @example
 * ```ts
 * import { checkCollectionPresentation } from "./presentation.ts";
 * checkCollectionPresentation(
 *   { displayField: "title", defaultOrder: ["-views"] },
 *   { title: { type: "text" }, views: { type: "integer" } },
 * );
 * ```
 */
export function checkCollectionPresentation(
  options: CollectionPresentationOptions,
  fields: Readonly<Record<string, FieldOptions & { type: string }>>,
): void {
  const where = "the collection";
  checkText(options.label, "label", where);
  checkText(options.description, "description", where);
  const isField = (name: unknown): name is string =>
    typeof name === "string" && Object.hasOwn(fields, name);
  if (options.displayField !== undefined && !isField(options.displayField)) {
    throw new TypeError(
      `"displayField" names unknown field ${
        JSON.stringify(options.displayField)
      }`,
    );
  }
  if (options.listFields !== undefined) {
    const list = options.listFields;
    if (!Array.isArray(list) || new Set(list).size !== list.length) {
      throw new TypeError(
        '"listFields" must be a list of distinct field names',
      );
    }
    for (const name of list) {
      if (!isField(name)) {
        throw new TypeError(
          `"listFields" names unknown field ${JSON.stringify(name)}`,
        );
      }
    }
  }
  if (options.defaultOrder !== undefined) {
    const list = options.defaultOrder;
    if (!Array.isArray(list) || list.length === 0 || list.length > 8) {
      throw new TypeError(
        '"defaultOrder" must be a list of one to eight order entries',
      );
    }
    for (const entry of list) {
      const name = typeof entry === "string" ? entry.replace(/^-/, "") : entry;
      if (!isField(name) && !SYSTEM_ORDER_FIELDS.has(name as string)) {
        throw new TypeError(
          `"defaultOrder" names unknown field ${JSON.stringify(entry)}`,
        );
      }
    }
  }
}

/**
 * The field that names a record of `definition`: its `displayField`, else the first `text`,
 * `email` or `select` field in definition order, else null.
 *
 * @example
 * ```ts
 * import { displayFieldOf } from "./presentation.ts";
 * displayFieldOf({ fields: { views: { type: "integer" }, title: { type: "text" } } }); // "title"
 * ```
 */
export function displayFieldOf(
  definition: Pick<CollectionDefinition, "fields" | "displayField">,
): string | null {
  if (definition.displayField) return definition.displayField;
  for (const [name, field] of Object.entries(definition.fields)) {
    if (NAMING_TYPES.has(field.type) && field.readable !== false) return name;
  }
  return null;
}
