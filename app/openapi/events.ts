/**
 * `GET /events` in the OpenAPI document: the change events of several collections over one
 * server-sent events connection, each collection decided as its list read would be.
 *
 * @module
 */
import type { ApiCollection } from "../../collections/api/registry.ts";
import { errorRefs, type ErrorStatus, GUARDED_SECURITY } from "./errors.ts";
import type { PlacedOperation } from "./collections.ts";

/**
 * The multiplexed stream's operation over the collections a caller may follow (those with a
 * read). Its error statuses are those of any followed collection's stream: an unknown or
 * unexposed name is 404, a guarded one 401/403.
 *
 * @example
 * ```ts ignore
 * eventsOperation([...registry.byName.values()]).path; // "/events"
 * ```
 */
export function eventsOperation(
  collections: Iterable<ApiCollection>,
): PlacedOperation {
  const readable = [...collections].filter((c) => c.exposure.read);
  const statuses = new Set<ErrorStatus>([400, 404, 429, 503]);
  for (const { exposure } of readable) {
    if (!exposure.read!.public) statuses.add(401).add(403);
    else if (exposure.read!.middleware.length > 0) statuses.add(401);
  }
  // Guarded only when every collection it can follow is.
  const guarded = readable.length > 0 &&
    readable.every((c) => !c.exposure.read!.public);
  return {
    path: "/events",
    method: "get",
    operation: {
      operationId: "getEvents",
      summary:
        "Stream committed changes of several collections as server-sent events",
      description:
        "Events are named <path>.create, .update and .delete (posts.create …); each carries the record as the caller's by-UUID read gives it. Each named collection is decided as its list read would be, and the first refusal answers the request. Last-Event-ID resumes a stream.",
      parameters: [{
        name: "collections",
        in: "query",
        required: true,
        description: `Comma-separated API path names, at most 20: ${
          readable.map((c) => c.path).join(", ") || "none"
        }`,
        schema: { type: "string" },
        ...(readable.length > 0
          ? {
            example: readable.slice(0, 2).map((c) => c.path).join(","),
          }
          : {}),
      }],
      responses: {
        "200": {
          description: "The event stream",
          content: { "text/event-stream": { schema: { type: "string" } } },
        },
        ...errorRefs(statuses),
      },
      ...(guarded ? { security: GUARDED_SECURITY } : {}),
    },
  };
}
