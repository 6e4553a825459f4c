/**
 * Collections as JSON Schema (draft 2020-12, as OpenAPI 3.1 uses): the record a read answers,
 * the create input and the update input, from the resolved fields.
 *
 * @module
 */
import type {
  ResolvedCollection,
  ResolvedField,
} from "../../collections/resolve.ts";
import { FILE_DESCRIPTOR_REF, isFileField } from "./files.ts";

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/**
 * Resolves a presentation text (a literal or a message key) for the document; the default
 * leaves it as written.
 */
export type PresentationText = (value: string) => string;

const asWritten: PresentationText = (value) => value;

// A field's `label` and `description` as the schema's title and description, when set.
function annotate(
  schema: JsonSchema,
  field: ResolvedField,
  text: PresentationText,
): JsonSchema {
  const { label, description } = field.options;
  if (label === undefined && description === undefined) return schema;
  return {
    ...schema,
    ...(label !== undefined ? { title: text(label) } : {}),
    ...(description !== undefined ? { description: text(description) } : {}),
  };
}

const UUID_SCHEMA: JsonSchema = { type: "string", format: "uuid" };

/** The schema of one value of `field` as stored and written (links as UUIDs). */
function valueSchema(field: ResolvedField): JsonSchema {
  const { min, max, choices } = field.options;
  switch (field.kind) {
    case "text":
      return {
        type: "string",
        ...(typeof min === "number" ? { minLength: min } : {}),
        ...(typeof max === "number" ? { maxLength: max } : {}),
      };
    case "integer":
    case "number":
      return {
        type: field.kind,
        ...(typeof min === "number" ? { minimum: min } : {}),
        ...(typeof max === "number" ? { maximum: max } : {}),
      };
    case "boolean":
      return { type: "boolean" };
    case "date":
      return { type: "string", format: "date", examples: ["2026-05-01"] };
    case "time":
      return {
        type: "string",
        pattern: "^\\d{2}:\\d{2}:\\d{2}$",
        examples: ["13:45:00"],
      };
    case "dateTime":
      return { type: "integer", description: "Epoch milliseconds" };
    case "select":
      return choices ? { type: "string", enum: [...choices] } : {
        type: "string",
      };
    case "multiSelect":
      return {
        type: "array",
        items: choices ? { type: "string", enum: [...choices] } : {
          type: "string",
        },
        uniqueItems: true,
      };
    case "record":
      return { ...UUID_SCHEMA };
    case "records":
      return { type: "array", items: { ...UUID_SCHEMA } };
    case "file":
      return { ...UUID_SCHEMA };
    case "files":
      return { type: "array", items: { ...UUID_SCHEMA } };
  }
}

function orNull(schema: JsonSchema, nullable: boolean): JsonSchema {
  if (!nullable) return schema;
  if (typeof schema.type === "string") {
    const { enum: choices, ...rest } = schema;
    return {
      ...rest,
      type: [schema.type, "null"],
      ...(Array.isArray(choices) ? { enum: [...choices, null] } : {}),
    };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/** Where a collection's own schema lives in the document. */
export function recordRef(collection: string): JsonSchema {
  return { $ref: `#/components/schemas/${collection}` };
}

/**
 * A field as a read answers it: a link may be populated into its target's record (or `null`
 * when the caller may not read it) when `populatable` says the target can be read.
 */
function readSchema(
  field: ResolvedField,
  populatable: (target: string) => boolean,
): JsonSchema {
  const base = valueSchema(field);
  const target = field.target;
  if (field.kind === "record" && target && populatable(target)) {
    return {
      anyOf: [UUID_SCHEMA, recordRef(target), { type: "null" }],
      description:
        `UUID of the linked ${target} record, or the record when populated`,
    };
  }
  if (field.kind === "records" && target && populatable(target)) {
    return {
      type: "array",
      items: { anyOf: [UUID_SCHEMA, recordRef(target)] },
      description: `UUIDs of ${target} records, or the records when populated`,
    };
  }
  // Reads describe a stored file; writes name it by its UUID.
  if (field.kind === "file") {
    return orNull({ ...FILE_DESCRIPTOR_REF }, field.nullable);
  }
  if (field.kind === "files") {
    return orNull(
      { type: "array", items: { ...FILE_DESCRIPTOR_REF } },
      field.nullable,
    );
  }
  return orNull(base, field.nullable);
}

/**
 * The record a read answers. Every property is optional: `select`, and an access scope's
 * `select`, narrow a record to some of its fields.
 *
 * @example
 * ```ts ignore
 * recordSchema(app.data.collections.get("Posts")!, () => true);
 * ```
 */
export function recordSchema(
  collection: ResolvedCollection,
  populatable: (target: string) => boolean,
  text: PresentationText = asWritten,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    UUID: { ...UUID_SCHEMA },
    _updatedAt: { type: "integer", description: "Epoch milliseconds" },
  };
  for (const field of collection.readableFields) {
    properties[field.name] = annotate(
      readSchema(field, populatable),
      field,
      text,
    );
  }
  if (collection.translatedFields.length > 0) {
    properties._translations = {
      type: "array",
      items: { type: "string" },
      description: "Locales at which the record holds a translation",
    };
  }
  const { description } = collection.definition;
  return {
    type: "object",
    title: collection.name,
    ...(description !== undefined ? { description: text(description) } : {}),
    properties,
  };
}

/**
 * The body of a create: writable fields (write-only ones included), each required unless
 * nullable or defaulted; with `filesAsParts`, the `data` part of a multipart create (file
 * fields never required there: they may come as parts).
 *
 * @example
 * ```ts ignore
 * createInputSchema(app.data.collections.get("Posts")!);
 * ```
 */
export function createInputSchema(
  collection: ResolvedCollection,
  text: PresentationText = asWritten,
  filesAsParts = false,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of collection.fieldList) {
    if (!field.writable) continue;
    properties[field.name] = annotate(
      orNull(valueSchema(field), field.nullable),
      field,
      text,
    );
    // In a multipart write a file field may come as a part instead of in `data`.
    const part = filesAsParts && isFileField(field);
    if (!field.nullable && !field.hasDefault && !part) {
      required.push(field.name);
    }
  }
  return {
    type: "object",
    title: `${collection.name}Create${filesAsParts ? "Data" : ""}`,
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * The body of an update: every writable, mutable field, each optional.
 *
 * @example
 * ```ts ignore
 * updateInputSchema(app.data.collections.get("Posts")!);
 * ```
 */
export function updateInputSchema(
  collection: ResolvedCollection,
  text: PresentationText = asWritten,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of collection.fieldList) {
    if (!field.writable || field.immutable) continue;
    properties[field.name] = annotate(
      orNull(valueSchema(field), field.nullable),
      field,
      text,
    );
  }
  return {
    type: "object",
    title: `${collection.name}Update`,
    properties,
    additionalProperties: false,
  };
}
