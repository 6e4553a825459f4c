/**
 * The file routes in the OpenAPI document: `POST /files` (an upload for one file field,
 * answered 201 with the file's descriptor) and `GET /files/{uuid}/{name}` (the stored bytes).
 * Their operationIds are the ones the route-file rule gives their paths, as before they
 * were described here.
 *
 * @module
 */
import { errorRefs } from "./errors.ts";
import { FILE_DESCRIPTOR_SCHEMA, type JsonSchema } from "./field_schema.ts";
import { GUARDED_SECURITY, type PlacedOperation } from "./collections.ts";

function param(
  name: string,
  where: "path" | "query",
  description: string,
  schema: JsonSchema = { type: "string" },
): JsonSchema {
  return { name, in: where, required: where === "path", description, schema };
}

/**
 * `POST /files?collection=&field=`: one file part named `file`, stored unattached until a
 * create or update names its UUID.
 *
 * @example
 * ```ts ignore
 * uploadOperation().path; // "/files"
 * ```
 */
export function uploadOperation(): PlacedOperation {
  return {
    path: "/files",
    method: "post",
    operation: {
      operationId: "postFiles",
      summary: "Upload a file for a file field",
      description:
        "The file is stored unattached; a create or update of the collection names its UUID in the field. The caller must be signed in and allowed to create or update the collection; the field's accept and maxSize apply (422, 413).",
      parameters: [
        { ...param("collection", "query", "Collection name"), required: true },
        { ...param("field", "query", "A file or files field"), required: true },
      ],
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: {
                file: {
                  type: "string",
                  contentMediaType: "application/octet-stream",
                },
              },
              required: ["file"],
            },
          },
        },
      },
      responses: {
        "201": {
          description: "The stored file",
          content: { "application/json": { schema: FILE_DESCRIPTOR_SCHEMA } },
        },
        ...errorRefs([400, 401, 404, 413, 415, 422, 503]),
      },
      security: GUARDED_SECURITY,
    },
  };
}

/**
 * `GET /files/{uuid}/{name}`: a stored file (ranges, ETags, image variants; a private file
 * only with a valid signature).
 *
 * @example
 * ```ts ignore
 * downloadOperation().path; // "/files/{uuid}/{name}"
 * ```
 */
export function downloadOperation(): PlacedOperation {
  const bytes = { "*/*": { schema: {} } };
  return {
    path: "/files/{uuid}/{name}",
    method: "get",
    operation: {
      operationId: "getFilesByUuidByName",
      summary: "Download a stored file",
      parameters: [
        param("uuid", "path", "The file's UUID", {
          type: "string",
          format: "uuid",
        }),
        param(
          "name",
          "path",
          "The file's name, as its descriptor's url has it",
        ),
        param("w", "query", "Width of an image variant", {
          type: "integer",
          minimum: 1,
        }),
        param("format", "query", "Format of an image variant", {
          type: "string",
          enum: ["webp", "avif", "jpeg", "png"],
        }),
        param("exp", "query", "Expiry of a private file's signed URL"),
        param("sig", "query", "Signature of a private file's signed URL"),
      ],
      responses: {
        "200": { description: "The file", content: bytes },
        "206": { description: "The requested range", content: bytes },
        "304": { description: "Not modified (If-None-Match)" },
        "416": { description: "The range cannot be satisfied" },
        ...errorRefs([400, 404, 503]),
      },
    },
  };
}
