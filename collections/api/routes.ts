/**
 * The routes of the collections API, as a manifest layer's `routes` (the framework stacks
 * them at the bottom of every app; an app route with the same id wins, and
 * `disable.routes: ["/collections/**"]` drops them).
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import type { StrataEvent } from "../../router/event.ts";
import { withQueryTimeout } from "../db/deadline.ts";
import { hostOf } from "./host.ts";
import {
  listRecords,
  listTranslations,
  queryRecords,
  readRecord,
} from "./read_routes.ts";
import { streamEvents, streamManyEvents } from "./events_route.ts";
import { searchCollections } from "./search_route.ts";
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
 * An operation's handler: every statement it runs is bounded by `query.timeout`.
 */
function operation(
  handler: (event: StrataEvent) => unknown,
): HandlerDefinition {
  return defineHandler(
    (event) =>
      withQueryTimeout(
        hostOf(event).config.query.timeout,
        () => handler(event),
      ),
    UNLIMITED,
  );
}

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
    "collections/[collection]/index.get.ts": operation(listRecords),
    "collections/[collection]/events.get.ts": operation(streamEvents),
    "events.get.ts": operation(streamManyEvents),
    "search.get.ts": operation(searchCollections),
    "collections/[collection]/query.post.ts": operation(queryRecords),
    "collections/[collection]/index.post.ts": operation(createRecord),
    "collections/[collection]/[uuid].get.ts": operation(readRecord),
    "collections/[collection]/[uuid].patch.ts": operation(updateRecord),
    "collections/[collection]/[uuid].delete.ts": operation(deleteRecord),
    "collections/[collection]/[uuid]/translations.get.ts": operation(
      listTranslations,
    ),
    "collections/[collection]/[uuid]/translations.delete.ts": operation(
      deleteTranslation,
    ),
    "collections/[collection]/[uuid]/translations/copy.post.ts": operation(
      copyTranslation,
    ),
  });
