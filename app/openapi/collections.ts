/**
 * The collections API in the OpenAPI document: for every collection, the operations its `api`
 * option exposes (a closed operation never appears), with the wire grammar's parameters,
 * bodies from the create and update shapes, answers, error statuses and security.
 *
 * @module
 */
import type { ApiCollection } from "../../collections/api/registry.ts";
import type { ApiOperation } from "../../collections/api/exposure.ts";
import { errorRefs, type ErrorStatus, GUARDED_SECURITY } from "./errors.ts";
import { writeBody } from "./files.ts";
import { type JsonSchema, recordRef } from "./field_schema.ts";

/** The collections API routes, by the operation kind each one serves. */
export type CollectionRouteKind =
  | "list"
  | "events"
  | "query"
  | "create"
  | "get"
  | "update"
  | "delete"
  | "translations"
  | "deleteTranslation"
  | "copyTranslation";

interface KindSpec {
  readonly method: "get" | "post" | "patch" | "delete";
  readonly suffix: string;
  readonly gate: ApiOperation;
  readonly translatable: boolean;
  readonly verb: (name: string) => string;
}

const KINDS: Record<CollectionRouteKind, KindSpec> = {
  list: {
    method: "get",
    suffix: "",
    gate: "read",
    translatable: false,
    verb: (n) => `list${n}`,
  },
  events: {
    method: "get",
    suffix: "/events",
    gate: "read",
    translatable: false,
    verb: (n) => `subscribe${n}`,
  },
  query: {
    method: "post",
    suffix: "/query",
    gate: "read",
    translatable: false,
    verb: (n) => `query${n}`,
  },
  create: {
    method: "post",
    suffix: "",
    gate: "create",
    translatable: false,
    verb: (n) => `create${n}`,
  },
  get: {
    method: "get",
    suffix: "/{uuid}",
    gate: "read",
    translatable: false,
    verb: (n) => `get${n}`,
  },
  update: {
    method: "patch",
    suffix: "/{uuid}",
    gate: "update",
    translatable: false,
    verb: (n) => `update${n}`,
  },
  delete: {
    method: "delete",
    suffix: "/{uuid}",
    gate: "delete",
    translatable: false,
    verb: (n) => `delete${n}`,
  },
  translations: {
    method: "get",
    suffix: "/{uuid}/translations",
    gate: "read",
    translatable: true,
    verb: (n) => `list${n}Translations`,
  },
  copyTranslation: {
    method: "post",
    suffix: "/{uuid}/translations/copy",
    gate: "update",
    translatable: true,
    verb: (n) => `copy${n}Translation`,
  },
  deleteTranslation: {
    method: "delete",
    suffix: "/{uuid}/translations",
    gate: "delete",
    translatable: true,
    verb: (n) => `delete${n}Translation`,
  },
};

/** One operation of the document, ready to be placed under `paths`. */
export interface PlacedOperation {
  /** The path, `{param}` style, without `api.basePath`. */
  readonly path: string;
  /** The lower-case method. */
  readonly method: string;
  /** The operation object. */
  readonly operation: JsonSchema;
}

const UUID_PARAM: JsonSchema = {
  name: "uuid",
  in: "path",
  required: true,
  schema: { type: "string", format: "uuid" },
};

function queryParam(
  name: string,
  description: string,
  schema: JsonSchema,
  example?: string,
): JsonSchema {
  return {
    name,
    in: "query",
    required: false,
    description,
    schema,
    ...(example === undefined ? {} : { example }),
  };
}

const LITERAL_NOTE =
  "Relaxed literal syntax (JSON also accepted): 10 is a number, true/false/null, [a,b] a list, {k:v} an object, a leading backtick forces a string.";

const SEARCH_NOTE =
  'Full-text search, raw text (not a literal): words are ANDed, "a phrase" matches a phrase, -word excludes, word* is a prefix; case and accents are ignored. Results come most relevant first unless order says otherwise.';

function searchFields(collection: ApiCollection): string[] {
  return collection.resolved.searchFields.filter((f) => f.readable).map((f) =>
    f.name
  );
}

function grammarParams(
  collection: ApiCollection,
  locales: readonly string[],
  only?: readonly string[],
): JsonSchema[] {
  const fields = collection.resolved.readableFields.map((field) => field.name);
  const first = fields[0] ?? "UUID";
  const searchable = searchFields(collection).length > 0;
  const params: Record<string, JsonSchema> = {
    where: queryParam(
      "where",
      `Filter in object form: {field:value} is equality, {field:{operator:value}} applies an operator (equalsTo in greaterThan atLeast lessThan atMost contains startsWith endsWith like isNull includes includesAll includesAny has empty, each field type its own subset), sibling keys AND, or:[…] and not:{…} combine. ${LITERAL_NOTE}`,
      { type: "string" },
      `{${first}:{equalsTo:"x"}}`,
    ),
    select: queryParam(
      "select",
      `Fields to return, as a list: ${fields.join(", ") || "UUID"}`,
      { type: "string" },
      `[${first}]`,
    ),
    order: queryParam(
      "order",
      `Fields to order by, as a list; a leading - sorts descending${
        searchable
          ? "; _relevance orders by a search's relevance (-_relevance, the default when searching)"
          : ""
      }`,
      { type: "string" },
      `[-${first}]`,
    ),
    populate: queryParam(
      "populate",
      "Links to replace by their target records, as a list",
      { type: "string" },
    ),
    limit: queryParam("limit", "Most records to return (without page)", {
      type: "integer",
      minimum: 0,
    }),
    offset: queryParam("offset", "Records to skip (without page)", {
      type: "integer",
      minimum: 0,
    }),
    page: queryParam("page", "Page number; selects the paginated envelope", {
      type: "integer",
      minimum: 1,
    }),
    perPage: queryParam(
      "perPage",
      "Records per page (default 20); selects the paginated envelope",
      { type: "integer", minimum: 1 },
    ),
    locale: queryParam("locale", "Locale of translatable values", {
      type: "string",
      enum: [...locales],
    }),
    search: queryParam(
      "search",
      `${SEARCH_NOTE} Searches ${searchFields(collection).join(", ")}.`,
      { type: "string" },
      first === "UUID" ? "word" : "deno routes",
    ),
  };
  const names = only ??
    Object.keys(params).filter((name) => name !== "search" || searchable);
  return names.map((name) => params[name]);
}

function jsonBody(schema: JsonSchema, required = true): JsonSchema {
  return { required, content: { "application/json": { schema } } };
}

function jsonAnswer(description: string, schema: JsonSchema): JsonSchema {
  return { description, content: { "application/json": { schema } } };
}

function listAnswer(name: string): JsonSchema {
  return jsonAnswer(
    "The records: a plain array, or the paginated envelope when page or perPage is given",
    {
      oneOf: [
        { type: "array", items: recordRef(name) },
        {
          type: "object",
          properties: {
            records: { type: "array", items: recordRef(name) },
            total: { type: "integer" },
            page: { type: "integer" },
            perPage: { type: "integer" },
            lastPage: { type: "integer" },
          },
          required: ["records", "total", "page", "perPage", "lastPage"],
        },
      ],
    },
  );
}

function queryBody(
  collection: ApiCollection,
  locales: readonly string[],
): JsonSchema {
  const search = searchFields(collection).length > 0
    ? { search: { type: "string", description: SEARCH_NOTE } }
    : {};
  return {
    type: "object",
    description: "The list parameters as a JSON object",
    properties: {
      where: { type: "object" },
      select: { type: "array", items: { type: "string" } },
      order: { type: "array", items: { type: "string" } },
      populate: { type: "array", items: { type: "string" } },
      limit: { type: "integer", minimum: 0 },
      offset: { type: "integer", minimum: 0 },
      page: { type: "integer", minimum: 1 },
      perPage: { type: "integer", minimum: 1 },
      locale: { type: "string", enum: [...locales] },
      ...search,
    },
    additionalProperties: false,
  };
}

function hasRestrictReferences(collection: ApiCollection): boolean {
  return collection.resolved.incoming.some((reference) =>
    reference.field.onDelete === "restrict"
  );
}

function shape(
  kind: CollectionRouteKind,
  collection: ApiCollection,
  locales: readonly string[],
): { operation: JsonSchema; errors: ErrorStatus[] } {
  const name = collection.name;
  const writeLocale = grammarParams(collection, locales, ["locale"]);
  switch (kind) {
    case "list":
      return {
        operation: {
          summary: `List ${name} records`,
          parameters: grammarParams(collection, locales),
          responses: { "200": listAnswer(name) },
        },
        errors: [],
      };
    case "events":
      return {
        operation: {
          summary:
            `Stream committed changes of ${name} records as server-sent events`,
          description:
            "Events are named <collection>.create, .update and .delete; each carries the record as the caller's by-UUID read gives it. Last-Event-ID resumes a stream.",
          parameters: grammarParams(collection, locales, [
            "where",
            "select",
            "populate",
            "locale",
          ]),
          responses: {
            "200": {
              description: "The event stream",
              content: { "text/event-stream": { schema: { type: "string" } } },
            },
          },
        },
        errors: [429],
      };
    case "query":
      return {
        operation: {
          summary: `List ${name} records, the parameters in a JSON body`,
          requestBody: jsonBody(queryBody(collection, locales), false),
          responses: { "200": listAnswer(name) },
        },
        errors: [413, 415],
      };
    case "create":
      return {
        operation: {
          summary: `Create a ${name} record`,
          parameters: writeLocale,
          requestBody: writeBody(collection, "Create"),
          responses: {
            "201": jsonAnswer("The stored record", recordRef(name)),
          },
        },
        errors: [413, 415, 422],
      };
    case "get":
      return {
        operation: {
          summary: `Read one ${name} record`,
          parameters: [
            UUID_PARAM,
            ...grammarParams(collection, locales, [
              "select",
              "populate",
              "locale",
            ]),
          ],
          responses: { "200": jsonAnswer("The record", recordRef(name)) },
        },
        errors: [404],
      };
    case "update":
      return {
        operation: {
          summary: `Update one ${name} record`,
          parameters: [UUID_PARAM, ...writeLocale],
          requestBody: writeBody(collection, "Update"),
          responses: {
            "200": jsonAnswer("The record in its final state", recordRef(name)),
          },
        },
        errors: [404, 413, 415, 422],
      };
    case "delete":
      return {
        operation: {
          summary: `Delete one ${name} record`,
          parameters: [UUID_PARAM],
          responses: { "204": { description: "Deleted" } },
        },
        errors: hasRestrictReferences(collection) ? [404, 409] : [404],
      };
    case "translations":
      return {
        operation: {
          summary: `List the locales a ${name} record holds a translation at`,
          parameters: [UUID_PARAM],
          responses: {
            "200": jsonAnswer("The locales, in the configured order", {
              type: "object",
              properties: {
                locales: { type: "array", items: { type: "string" } },
              },
              required: ["locales"],
            }),
          },
        },
        errors: [404],
      };
    case "copyTranslation":
      return {
        operation: {
          summary:
            `Copy one locale's translatable values of a ${name} record onto the locale named by ?locale`,
          parameters: [
            UUID_PARAM,
            { ...writeLocale[0], required: true, description: "Target locale" },
          ],
          requestBody: jsonBody({
            type: "object",
            properties: {
              source: {
                type: "string",
                enum: [...locales],
                description: "Source locale (default: the default locale)",
              },
            },
            additionalProperties: false,
          }, false),
          responses: {
            "200": jsonAnswer("The target locale's new state", recordRef(name)),
          },
        },
        errors: [404, 413, 415, 422],
      };
    case "deleteTranslation":
      return {
        operation: {
          summary: `Delete one locale's translation of a ${name} record`,
          parameters: [
            UUID_PARAM,
            { ...writeLocale[0], required: true },
          ],
          responses: { "204": { description: "Deleted" } },
        },
        errors: [404],
      };
  }
}

/**
 * The operations one collections API route serves across the app's collections: one per
 * collection whose gating operation is open (and, for translation routes, that has
 * translatable fields).
 *
 * @example
 * ```ts ignore
 * collectionOperations("list", registry.byName.values(), ["en"]);
 * ```
 */
export function collectionOperations(
  kind: CollectionRouteKind,
  collections: Iterable<ApiCollection>,
  locales: readonly string[],
): PlacedOperation[] {
  const spec = KINDS[kind];
  const placed: PlacedOperation[] = [];
  for (const collection of collections) {
    const policy = collection.exposure[spec.gate];
    if (!policy) continue;
    if (spec.translatable && !collection.translatable) continue;
    const { operation, errors } = shape(kind, collection, locales);
    const statuses: ErrorStatus[] = [400, ...errors, 503];
    if (!policy.public) statuses.push(401, 403);
    else if (policy.middleware.length > 0) statuses.push(401);
    if (policy.access) statuses.push(404);
    placed.push({
      path: `/collections/${collection.path}${spec.suffix}`,
      method: spec.method,
      operation: {
        operationId: spec.verb(collection.name),
        tags: [collection.name],
        ...operation,
        responses: {
          ...(operation.responses as JsonSchema),
          ...errorRefs(statuses),
        },
        ...(policy.public ? {} : { security: GUARDED_SECURITY }),
      },
    });
  }
  return placed;
}
