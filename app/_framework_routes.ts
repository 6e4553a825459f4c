// The route files of the framework's own layers (messages, collections API, OpenAPI at its
// default path, files, webhooks) parsed ahead: what parseRouteFile answers for each, frozen.
// An app without route files of its own then boots without compiling or running the route
// file parser, which cost createApp ~0.6 ms for these files alone. Parsing is a pure function
// of the file name, so an app's file of the same name takes the same entry.
// tests/app/framework_routes_test.ts compares every entry with parseRouteFile.
import type { RouteSegment } from "../router/route_path.ts";

/** A parsed route file that nobody may change. */
export interface FrozenRouteFile {
  /** Upper-case method. */
  readonly method: string;
  /** The canonical pattern string. */
  readonly pattern: string;
  /** The pattern, segment by segment. */
  readonly segments: readonly RouteSegment[];
}

const COLLECTIONS: RouteSegment = { kind: "static", value: "collections" };
const COLLECTION: RouteSegment = { kind: "param", name: "collection" };
const UUID: RouteSegment = { kind: "param", name: "uuid" };
const TRANSLATIONS: RouteSegment = { kind: "static", value: "translations" };
const FILES: RouteSegment = { kind: "static", value: "files" };

const C = "/collections/[collection]";
const ONE = `${C}/[uuid]`;

/** File, method, pattern, segments. */
const ROUTES: [string, string, string, RouteSegment[]][] = [
  [
    "messages/[group]/[language].get.ts",
    "GET",
    "/messages/[group]/[language]",
    [
      { kind: "static", value: "messages" },
      { kind: "param", name: "group" },
      { kind: "param", name: "language" },
    ],
  ],
  ["collections/[collection]/index.get.ts", "GET", C, [
    COLLECTIONS,
    COLLECTION,
  ]],
  [
    "collections/[collection]/index.post.ts",
    "POST",
    C,
    [COLLECTIONS, COLLECTION],
  ],
  [
    "collections/[collection]/events.get.ts",
    "GET",
    `${C}/events`,
    [COLLECTIONS, COLLECTION, { kind: "static", value: "events" }],
  ],
  [
    "collections/[collection]/query.post.ts",
    "POST",
    `${C}/query`,
    [COLLECTIONS, COLLECTION, { kind: "static", value: "query" }],
  ],
  [
    "collections/[collection]/[uuid].get.ts",
    "GET",
    ONE,
    [COLLECTIONS, COLLECTION, UUID],
  ],
  [
    "collections/[collection]/[uuid].patch.ts",
    "PATCH",
    ONE,
    [COLLECTIONS, COLLECTION, UUID],
  ],
  [
    "collections/[collection]/[uuid].delete.ts",
    "DELETE",
    ONE,
    [COLLECTIONS, COLLECTION, UUID],
  ],
  [
    "collections/[collection]/[uuid]/translations.get.ts",
    "GET",
    `${ONE}/translations`,
    [COLLECTIONS, COLLECTION, UUID, TRANSLATIONS],
  ],
  [
    "collections/[collection]/[uuid]/translations.delete.ts",
    "DELETE",
    `${ONE}/translations`,
    [COLLECTIONS, COLLECTION, UUID, TRANSLATIONS],
  ],
  [
    "collections/[collection]/[uuid]/translations/copy.post.ts",
    "POST",
    `${ONE}/translations/copy`,
    [
      COLLECTIONS,
      COLLECTION,
      UUID,
      TRANSLATIONS,
      { kind: "static", value: "copy" },
    ],
  ],
  [
    "events.get.ts",
    "GET",
    "/events",
    [{ kind: "static", value: "events" }],
  ],
  [
    "search.get.ts",
    "GET",
    "/search",
    [{ kind: "static", value: "search" }],
  ],
  [
    "openapi.json.get.ts",
    "GET",
    "/openapi.json",
    [{ kind: "static", value: "openapi.json" }],
  ],
  ["files/index.post.ts", "POST", "/files", [FILES]],
  [
    "files/[uuid]/[name].get.ts",
    "GET",
    "/files/[uuid]/[name]",
    [FILES, UUID, { kind: "param", name: "name" }],
  ],
  [
    "collections/webhook-deliveries/[uuid]/retry.post.ts",
    "POST",
    "/collections/webhook-deliveries/[uuid]/retry",
    [
      COLLECTIONS,
      { kind: "static", value: "webhook-deliveries" },
      UUID,
      { kind: "static", value: "retry" },
    ],
  ],
];

const parsed = new Map<string, FrozenRouteFile>();
// Top-level statements, not a helper: module code is compiled once into Deno's code cache,
// a function would be compiled again by every process.
for (const [file, method, pattern, segments] of ROUTES) {
  for (const segment of segments) Object.freeze(segment);
  parsed.set(
    file,
    Object.freeze({ method, pattern, segments: Object.freeze(segments) }),
  );
}

/**
 * `parseRouteFile(file)` of the framework's own route files, frozen (see the module
 * comment); other files are not here.
 */
export const FRAMEWORK_ROUTE_FILES: ReadonlyMap<string, FrozenRouteFile> =
  parsed;
