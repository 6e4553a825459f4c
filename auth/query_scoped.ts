/**
 * `queryScoped`: the collections API policy for trusted code acting on the caller's behalf.
 *
 * @module
 */
import { useEvent } from "../router/event.ts";
import { hostOf } from "../collections/api/host.ts";
import { scopedQuery } from "../collections/api/scoped_query.ts";
import type { ApiOperation } from "../collections/api/exposure.ts";
import type { QueryBuilder } from "../collections/query_builder.ts";

/**
 * Opens a query builder on `collection` under the collections API policy of `operation` for
 * the signed-in caller: a closed operation or a `false` verdict throws 404, no user 401, a
 * missing capability 403. A read carries the whole scope; update and delete AND the scope's
 * `where`; create and update pass `input` (the intended values) to the access function. The
 * operation's middleware do not run.
 *
 * @example
 * ```ts
 * // api/my-posts.get.ts
 * import { defineHandler } from "@strata/strata";
 * import { queryScoped } from "@strata/strata/auth";
 * export default defineHandler(async () => {
 *   const posts = await queryScoped("Posts", "read");
 *   return await posts.order("-views").findMany();
 * });
 * ```
 */
export async function queryScoped(
  collection: string,
  operation: ApiOperation,
  input?: unknown,
): Promise<QueryBuilder> {
  const event = useEvent();
  return await scopedQuery(hostOf(event), event, collection, operation, input);
}
