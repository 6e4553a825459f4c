/**
 * The app's OpenAPI 3.1 document: every route the app serves (the collections API expanded
 * per exposed collection operation, file routes, layer routes such as `/auth/*`, the messages
 * route), except the dashboard and the document itself, with stable operationIds.
 *
 * @module
 */
import type { App } from "../create_app.ts";
import { apiRegistry } from "../../collections/api/registry.ts";
import { collectionsApiRoutes } from "../../collections/api/routes.ts";
import type { HandlerDefinition } from "../../router/handler.ts";
import {
  collectionOperations,
  type CollectionRouteKind,
  type PlacedOperation,
} from "./collections.ts";
import { ERROR_SCHEMA, errorResponses } from "./errors.ts";
import {
  createInputSchema,
  type JsonSchema,
  recordSchema,
  updateInputSchema,
} from "./field_schema.ts";
import { eventsOperation } from "./events.ts";
import { fileRouteOperations } from "./file_routes.ts";
import {
  downloadOperation,
  FILE_DESCRIPTOR_SCHEMA,
  multipartWriteSchema,
  uploadOperation,
} from "./files.ts";
import { fileRoutes } from "../../files/routes.ts";
import { searchOperation } from "./search.ts";
import { literalOrMessage } from "../../i18n/literal_or_key.ts";

/** The collections API route files, by the operation kind each serves. */
const ROUTE_KINDS: Record<string, CollectionRouteKind> = {
  "collections/[collection]/index.get.ts": "list",
  "collections/[collection]/events.get.ts": "events",
  "collections/[collection]/query.post.ts": "query",
  "collections/[collection]/index.post.ts": "create",
  "collections/[collection]/[uuid].get.ts": "get",
  "collections/[collection]/[uuid].patch.ts": "update",
  "collections/[collection]/[uuid].delete.ts": "delete",
  "collections/[collection]/[uuid]/translations.get.ts": "translations",
  "collections/[collection]/[uuid]/translations.delete.ts": "deleteTranslation",
  "collections/[collection]/[uuid]/translations/copy.post.ts":
    "copyTranslation",
};

const KIND_OF = new Map<HandlerDefinition, CollectionRouteKind>(
  Object.entries(ROUTE_KINDS).map(([file, kind]) => [
    collectionsApiRoutes[file],
    kind,
  ]),
);

/** The app's OpenAPI document as a JSON-ready object. */
export type OpenApiDocument = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document of `app`; `self` is the document's own route, left out.
 *
 * @example
 * ```ts ignore
 * const doc = buildOpenApiDocument(app);
 * doc.openapi; // "3.1.0"
 * ```
 */
export function buildOpenApiDocument(
  app: App,
  self?: HandlerDefinition,
): OpenApiDocument {
  const registry = apiRegistry(app);
  const collections = [...registry.byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const readable = (name: string) =>
    registry.byName.get(name)?.exposure.read !== undefined;
  // The framework's routes that span collections, each with an operation of its own.
  const spanning = new Map<HandlerDefinition, () => PlacedOperation>([
    [
      collectionsApiRoutes["search.get.ts"],
      () => searchOperation(collections, registry.locales),
    ],
    [collectionsApiRoutes["events.get.ts"], () => eventsOperation(collections)],
    [fileRoutes["files/index.post.ts"], () => uploadOperation(collections)],
    [fileRoutes["files/[uuid]/[name].get.ts"], downloadOperation],
  ]);
  const placed: PlacedOperation[] = [];
  const routes = app.layers.routes.filter((route) => route.definition !== self);
  for (const route of routes) {
    const kind = KIND_OF.get(route.definition);
    if (kind) {
      placed.push(...collectionOperations(kind, collections, registry.locales));
    } else {
      const operation = spanning.get(route.definition);
      if (operation) placed.push(operation());
    }
  }
  // File routes come second so that a clash renames them, never a collection operation.
  const usedIds = new Set(placed.map((p) => String(p.operation.operationId)));
  for (const route of routes) {
    if (!KIND_OF.has(route.definition) && !spanning.has(route.definition)) {
      placed.push(...fileRouteOperations(route, usedIds));
    }
  }
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { path, method, operation } of placed) {
    (paths[path] ??= {})[method] = operation;
  }
  const sortedPaths = Object.fromEntries(
    Object.keys(paths).sort().map((path) => [path, paths[path]]),
  );
  const schemas: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  if (app.files) schemas.FileDescriptor = FILE_DESCRIPTOR_SCHEMA;
  // Labels and descriptions that name messages read in the default language.
  const text = (value: string) =>
    literalOrMessage(app.messages.translator, value, []);
  const exposed = collections.filter((c) => Object.keys(c.exposure).length > 0);
  for (const collection of exposed) {
    schemas[collection.name] = recordSchema(
      collection.resolved,
      readable,
      text,
    );
    const name = collection.name;
    if (collection.exposure.create) {
      schemas[`${name}Create`] = createInputSchema(collection.resolved, text);
      const multipart = multipartWriteSchema(
        collection.resolved,
        createInputSchema(collection.resolved, text, true),
        "create",
      );
      if (multipart) schemas[`${name}CreateMultipart`] = multipart;
    }
    if (collection.exposure.update) {
      schemas[`${name}Update`] = updateInputSchema(collection.resolved, text);
      const multipart = multipartWriteSchema(
        collection.resolved,
        { $ref: `#/components/schemas/${name}Update` },
        "update",
      );
      if (multipart) schemas[`${name}UpdateMultipart`] = multipart;
    }
  }
  const cookieName = typeof app.config.auth.cookieName === "string"
    ? app.config.auth.cookieName
    : "session";
  return {
    openapi: "3.1.0",
    info: { title: "Strata app", version: "1.0.0" },
    servers: [{ url: app.config.api.basePath || "/" }],
    tags: [
      ...exposed.map((c) => ({
        name: c.name,
        description: `The ${c.name} collection`,
      })),
      ...(app.files ? [{ name: "Files", description: "Stored files" }] : []),
    ],
    paths: sortedPaths,
    components: {
      schemas,
      responses: errorResponses(),
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: cookieName },
        bearerToken: { type: "http", scheme: "bearer" },
      },
    },
  };
}
