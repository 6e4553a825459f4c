/**
 * `GET /search` in the OpenAPI document: one full-text search across the searchable
 * collections, answering each one's records under its own key.
 *
 * @module
 */
import type { ApiCollection } from "../../collections/api/registry.ts";
import { errorRefs } from "./errors.ts";
import { type JsonSchema, recordRef } from "./field_schema.ts";
import type { PlacedOperation } from "./collections.ts";

/**
 * The search operation over `collections` (those with a searchable field and a read).
 *
 * @example
 * ```ts ignore
 * searchOperation([...registry.byName.values()], ["en"]).path; // "/search"
 * ```
 */
export function searchOperation(
  collections: Iterable<ApiCollection>,
  locales: readonly string[],
): PlacedOperation {
  const searchable = [...collections].filter((collection) =>
    collection.exposure.read && collection.resolved.searchFields.length > 0
  );
  const properties: Record<string, JsonSchema> = {};
  for (const collection of searchable) {
    properties[collection.path] = {
      type: "array",
      items: recordRef(collection.name),
    };
  }
  const param = (
    name: string,
    description: string,
    schema: JsonSchema,
    required = false,
  ): JsonSchema => ({ name, in: "query", required, description, schema });
  return {
    path: "/search",
    method: "get",
    operation: {
      operationId: "search",
      summary: "Search several collections at once",
      description:
        "Each collection answers its records in relevance order under its API path name, as the caller's list read with search= would: exposure, guard, middleware and scope decide. A named collection that is unknown or not readable is 400 invalidField at collections[i].",
      parameters: [
        param(
          "q",
          'The words to look for, as in search=: words are ANDed, "a phrase" matches a phrase, -word excludes, word* is a prefix; case and accents are ignored',
          { type: "string" },
          true,
        ),
        param(
          "collections",
          `Comma-separated API path names (default: every searchable collection the caller may list): ${
            searchable.map((c) => c.path).join(", ") || "none"
          }`,
          { type: "string" },
        ),
        param("limit", "Records per collection", {
          type: "integer",
          minimum: 0,
          maximum: 50,
          default: 5,
        }),
        param("locale", "Locale of translatable values", {
          type: "string",
          enum: [...locales],
        }),
      ],
      responses: {
        "200": {
          description: "The records of each collection searched",
          content: {
            "application/json": {
              schema: { type: "object", properties },
            },
          },
        },
        ...errorRefs([400, 503]),
      },
    },
  };
}
