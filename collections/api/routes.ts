/**
 * The routes of the collections API, as a manifest layer's `routes` (the framework stacks
 * them at the bottom of every app; an app route with the same id wins, and
 * `disable.routes: ["/collections/**"]` drops them).
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import {
  listRecords,
  listTranslations,
  queryRecords,
  readRecord,
} from "./read_routes.ts";
import {
  copyTranslation,
  createRecord,
  deleteRecord,
  deleteTranslation,
  updateRecord,
} from "./write_routes.ts";

// Bodies are read inside the handlers under the server-wide limit, after the access verdict
// a refused caller gets the same answer whatever it sent.
const UNLIMITED = { maxBodySize: false } as const;

/**
 * The collections API routes keyed by their file path under the api folder.
 *
 * @example
 * ```ts
 * import { collectionsApiRoutes } from "./routes.ts";
 * Object.keys(collectionsApiRoutes).includes("collections/[collection]/index.get.ts"); // true
 * ```
 */
export const collectionsApiRoutes: Readonly<Record<string, HandlerDefinition>> =
  Object.freeze({
    "collections/[collection]/index.get.ts": defineHandler(
      listRecords,
      UNLIMITED,
    ),
    "collections/[collection]/query.post.ts": defineHandler(
      queryRecords,
      UNLIMITED,
    ),
    "collections/[collection]/index.post.ts": defineHandler(
      createRecord,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid].get.ts": defineHandler(
      readRecord,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid].patch.ts": defineHandler(
      updateRecord,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid].delete.ts": defineHandler(
      deleteRecord,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid]/translations.get.ts": defineHandler(
      listTranslations,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid]/translations.delete.ts": defineHandler(
      deleteTranslation,
      UNLIMITED,
    ),
    "collections/[collection]/[uuid]/translations/copy.post.ts": defineHandler(
      copyTranslation,
      UNLIMITED,
    ),
  });
