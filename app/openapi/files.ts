/**
 * Stored files in the OpenAPI document: the `FileDescriptor` reads answer, the
 * `multipart/form-data` bodies of record writes with file fields (a `data` part of JSON, one
 * binary part per file), `POST /files` (an upload for one file field, 201 and the descriptor)
 * and `GET /files/{uuid}/{name}` (the stored bytes). The two routes keep the operationIds the
 * route-file rule gives their paths, as before they were described here.
 *
 * @module
 */
import type { ApiCollection } from "../../collections/api/registry.ts";
import type {
  ResolvedCollection,
  ResolvedField,
} from "../../collections/resolve.ts";
import type { PlacedOperation } from "./collections.ts";
import { errorRefs, GUARDED_SECURITY } from "./errors.ts";
import type { JsonSchema } from "./field_schema.ts";

/** Where the descriptor schema lives in the document. */
export const FILE_DESCRIPTOR_REF: JsonSchema = Object.freeze({
  $ref: "#/components/schemas/FileDescriptor",
});

/**
 * A stored file as every read describes it (`components.schemas.FileDescriptor`).
 *
 * @example
 * ```ts
 * import { FILE_DESCRIPTOR_SCHEMA } from "./files.ts";
 * FILE_DESCRIPTOR_SCHEMA.required; // ["UUID", "name", "type", "size", "sha256", "url"]
 * ```
 */
export const FILE_DESCRIPTOR_SCHEMA: JsonSchema = {
  type: "object",
  title: "FileDescriptor",
  required: ["UUID", "name", "type", "size", "sha256", "url"],
  properties: {
    UUID: { type: "string", format: "uuid" },
    name: { type: "string", description: "The client's file name, sanitised" },
    type: {
      type: "string",
      description: "The MIME type sniffed from the bytes",
    },
    size: { type: "integer", description: "Size in bytes" },
    sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
    width: { type: "integer", description: "Images only: width in pixels" },
    height: { type: "integer", description: "Images only: height in pixels" },
    url: {
      type: "string",
      description: "Where to fetch it (signed and expiring for private files)",
    },
  },
};

const BINARY: JsonSchema = { type: "string", format: "binary" };

/**
 * Whether `field` stores files.
 *
 * @example
 * ```ts ignore
 * isFileField(photos.fields.get("gallery")!); // true
 * ```
 */
export function isFileField(field: ResolvedField): boolean {
  return field.kind === "file" || field.kind === "files";
}

function writableFileFields(collection: ResolvedCollection): ResolvedField[] {
  return collection.fieldList.filter((field) =>
    field.writable && isFileField(field)
  );
}

/**
 * The multipart body of a create or update of `collection` (`null` without a writable file
 * field): `data` is the JSON of the other fields (`dataSchema`), each file field a binary
 * part (repeated for a `files` field).
 *
 * @example
 * ```ts ignore
 * multipartWriteSchema(photos, { $ref: "#/components/schemas/PhotosUpdate" });
 * ```
 */
export function multipartWriteSchema(
  collection: ResolvedCollection,
  dataSchema: JsonSchema,
  operation: "create" | "update",
): JsonSchema | null {
  const fields = writableFileFields(collection).filter((field) =>
    operation === "create" || !field.immutable
  );
  if (fields.length === 0) return null;
  const properties: Record<string, JsonSchema> = {
    data: {
      ...dataSchema,
      description:
        "The record's other fields as JSON (a files field lists the UUIDs it keeps; the parts are appended)",
    },
  };
  for (const field of fields) {
    properties[field.name] = field.kind === "file"
      ? { ...BINARY, description: "The file (a part named by its field)" }
      : {
        type: "array",
        items: BINARY,
        description: "The files, one part each, in order",
      };
  }
  return {
    type: "object",
    title: `${collection.name}${
      operation === "create" ? "Create" : "Update"
    }Multipart`,
    properties,
    additionalProperties: false,
  };
}

/**
 * A write's request body: JSON, and `multipart/form-data` when the collection has a
 * `…Multipart` schema in the document.
 *
 * @example
 * ```ts ignore
 * writeBody(photos, "Create");
 * ```
 */
export function writeBody(
  collection: ApiCollection,
  suffix: "Create" | "Update",
): JsonSchema {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const content: Record<string, JsonSchema> = {
    "application/json": { schema: ref(`${collection.name}${suffix}`) },
  };
  const hasFiles = writableFileFields(collection.resolved).some((field) =>
    suffix === "Create" || !field.immutable
  );
  if (hasFiles) {
    content["multipart/form-data"] = {
      schema: ref(`${collection.name}${suffix}Multipart`),
      encoding: { data: { contentType: "application/json" } },
    };
  }
  return { required: true, content };
}

/** The collections whose file fields `POST /files` may upload for. */
function uploadTargets(
  collections: readonly ApiCollection[],
): [string[], string[]] {
  const names = new Set<string>();
  const fields = new Set<string>();
  for (const collection of collections) {
    if (!collection.exposure.create && !collection.exposure.update) continue;
    for (const field of writableFileFields(collection.resolved)) {
      names.add(collection.name);
      fields.add(field.name);
    }
  }
  return [[...names].sort(), [...fields].sort()];
}

/**
 * `POST /files?collection=&field=`: one file part named `file`, stored unattached until a
 * create or update names its UUID.
 *
 * @example
 * ```ts ignore
 * uploadOperation(collections).path; // "/files"
 * ```
 */
export function uploadOperation(
  collections: readonly ApiCollection[],
): PlacedOperation {
  const [names, fields] = uploadTargets(collections);
  const operation: JsonSchema = {
    operationId: "postFiles",
    tags: ["Files"],
    summary: "Upload a file first, to name by its UUID in a later write",
    description:
      "Needs a signed-in user who passes the guard of the collection's create or update operation; the field's accept and maxSize apply. The upload stays unattached until a write of that collection and field by the same user names it.",
    parameters: [
      {
        name: "collection",
        in: "query",
        required: true,
        description: "The collection's name",
        schema: { type: "string", ...(names.length ? { enum: names } : {}) },
      },
      {
        name: "field",
        in: "query",
        required: true,
        description: "A file or files field of that collection",
        schema: { type: "string", ...(fields.length ? { enum: fields } : {}) },
      },
    ],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file"],
            properties: { file: BINARY },
            additionalProperties: false,
          },
        },
      },
    },
    responses: {
      "201": {
        description: "The stored file, unattached",
        content: { "application/json": { schema: FILE_DESCRIPTOR_REF } },
      },
      ...errorRefs([400, 401, 404, 413, 415, 422, 503]),
    },
    security: GUARDED_SECURITY,
  };
  return { path: "/files", method: "post", operation };
}

const FILE_PARAMETERS: readonly JsonSchema[] = [
  {
    name: "uuid",
    in: "path",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  {
    name: "name",
    in: "path",
    required: true,
    description: "The file's name, as its descriptor's url gives it",
    schema: { type: "string" },
  },
  {
    name: "w",
    in: "query",
    required: false,
    description:
      "Images: a variant of this width (rounded up to uploads.imageWidths, never above the original's)",
    schema: { type: "integer", minimum: 1 },
  },
  {
    name: "format",
    in: "query",
    required: false,
    description: "Images: the variant's format (default the original's)",
    schema: { type: "string", enum: ["webp", "avif", "jpeg", "png"] },
  },
  {
    name: "exp",
    in: "query",
    required: false,
    description: "Private files: when the signed URL expires (unix seconds)",
    schema: { type: "integer" },
  },
  {
    name: "sig",
    in: "query",
    required: false,
    description: "Private files: the URL's signature",
    schema: { type: "string" },
  },
  {
    name: "Range",
    in: "header",
    required: false,
    description: "One byte range (bytes=start-end)",
    schema: { type: "string" },
  },
  {
    name: "If-None-Match",
    in: "header",
    required: false,
    schema: { type: "string" },
  },
];

/**
 * `GET /files/{uuid}/{name}`: a stored file (ranges, ETags, image variants; a private file
 * only with a valid signature). `HEAD` answers its headers alone.
 *
 * @example
 * ```ts ignore
 * downloadOperation().path; // "/files/{uuid}/{name}"
 * ```
 */
export function downloadOperation(): PlacedOperation {
  const bytes = (description: string) => ({
    description,
    headers: {
      ETag: { schema: { type: "string" } },
      "Content-Disposition": { schema: { type: "string" } },
    },
    content: { "*/*": { schema: BINARY } },
  });
  const operation: JsonSchema = {
    operationId: "getFilesByUuidByName",
    tags: ["Files"],
    summary: "Download a stored file (or an image variant)",
    description:
      "A private file answers only through the signed URL a read handed out; a missing, wrong or expired signature is the same 404 as an unknown file. HEAD answers the headers alone.",
    parameters: FILE_PARAMETERS,
    responses: {
      "200": bytes("The file"),
      "206": bytes("The requested range"),
      "304": { description: "Not modified (If-None-Match)" },
      "416": { description: "The range lies outside the file" },
      ...errorRefs([400, 404, 503]),
    },
  };
  return { path: "/files/{uuid}/{name}", method: "get", operation };
}
