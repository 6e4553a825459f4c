/**
 * `GET /dashboard/api/collections/<api path>/permissions?uuids=a,b,c`: which of the listed
 * records the signed-in caller may update and delete, so that the dashboard shows Edit and
 * Delete only where they would succeed.
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import type { StrataEvent } from "../router/event.ts";
import { badRequest, notFound } from "../router/errors.ts";
import { HTTPError } from "../router/errors.ts";
import { hostOf } from "../collections/api/host.ts";
import {
  type ApiCollection,
  apiRegistry,
} from "../collections/api/registry.ts";
import {
  authorizeOperation,
  targetReadPolicy,
} from "../collections/api/policy.ts";
import type { ApiHost } from "../collections/api/host.ts";
import { isUuid, normalizeUuid } from "../collections/types/_checks.ts";
import { requireUser } from "../auth/user.ts";

/** What the caller may do with one record. */
export interface RecordPermissions {
  /** An update of the record would pass the guard and the access scope. */
  readonly update: boolean;
  /** A delete of the record would pass the guard and the access scope. */
  readonly delete: boolean;
}

/** The most UUIDs one request may name (a page of the dashboard holds 20). */
export const MAX_PERMISSION_UUIDS = 100;

function parseUuids(value: string | null): string[] {
  if (value === null || value.trim() === "") {
    throw badRequest("The uuids parameter lists the records to check");
  }
  const list = value.split(",").map((item) => item.trim());
  if (list.length > MAX_PERMISSION_UUIDS) {
    throw badRequest(`At most ${MAX_PERMISSION_UUIDS} UUIDs per request`);
  }
  const out = new Set<string>();
  for (const item of list) {
    const uuid = normalizeUuid(item);
    if (!isUuid(uuid)) {
      throw badRequest(`Not a UUID: ${JSON.stringify(item.slice(0, 40))}`);
    }
    out.add(uuid);
  }
  return [...out];
}

// The UUIDs among `uuids` the caller may run `operation` on: none when the guard or the access
// verdict refuses, else those inside the scope's `where` (one query; a select-limited scope
// still updates the record, so only `where` counts).
async function allowed(
  host: ApiHost,
  event: StrataEvent,
  collection: ApiCollection,
  operation: "update" | "delete",
  uuids: readonly string[],
): Promise<Set<string>> {
  let scope;
  try {
    const outcome = await authorizeOperation(host, collection, operation, {
      runMiddleware: false,
      event,
    });
    if (!outcome.granted) return new Set();
    scope = outcome.grant.scope;
  } catch (error) {
    if (error instanceof HTTPError) return new Set();
    throw error;
  }
  let query = host.data.query(collection.name).where({
    UUID: { in: [...uuids] },
  });
  if (scope.where) query = query.where(scope.where);
  const rows = await query.select("UUID").limit(uuids.length).findMany();
  return new Set(rows.map((row) => String(row.UUID)));
}

/**
 * The permissions of `uuids` in the collection at API path `path` for the caller of `event`:
 * `{ "<uuid>": { update, delete } }`. A collection the caller may not read is 404.
 *
 * @example
 * ```ts ignore
 * const answer = await recordPermissions(event, "posts", [uuid]);
 * answer[uuid].update; // true when an update would pass guard and scope
 * ```
 */
export async function recordPermissions(
  event: StrataEvent,
  path: string,
  uuids: readonly string[],
): Promise<Record<string, RecordPermissions>> {
  const host = hostOf(event);
  const collection = apiRegistry(host).byPath.get(path);
  if (!collection || !collection.exposure.read) throw notFound();
  if (await targetReadPolicy(host, event, collection.name, false) === false) {
    throw notFound();
  }
  const update = await allowed(host, event, collection, "update", uuids);
  const remove = await allowed(host, event, collection, "delete", uuids);
  const out: Record<string, RecordPermissions> = {};
  for (const uuid of uuids) {
    out[uuid] = { update: update.has(uuid), delete: remove.has(uuid) };
  }
  return out;
}

/**
 * The route behind `GET /dashboard/api/collections/<api path>/permissions?uuids=a,b,c` (route
 * file key `dashboard/api/collections/[collection]/permissions.get.ts`, registered by the auth
 * layer): 401 when signed out, 400 for a missing or malformed list (at most
 * {@link MAX_PERMISSION_UUIDS}), 404 for a collection the caller may not read, else
 * {@link recordPermissions}.
 *
 * @example
 * ```ts ignore
 * import { defineLayer } from "../app/layer.ts";
 * import { permissionsRoute } from "./permissions_route.ts";
 * defineLayer({
 *   name: "auth",
 *   routes: {
 *     "dashboard/api/collections/[collection]/permissions.get.ts": permissionsRoute,
 *   },
 * });
 * ```
 */
export const permissionsRoute: HandlerDefinition = defineHandler(
  async (event): Promise<Record<string, RecordPermissions>> => {
    await requireUser();
    event.headers.set("cache-control", "no-store");
    const uuids = parseUuids(event.query.get("uuids"));
    return await recordPermissions(event, event.params.collection, uuids);
  },
  { openapi: false },
);
