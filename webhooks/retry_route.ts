/**
 * `POST /collections/webhook-deliveries/<uuid>/retry`: makes a pending or failed delivery due
 * now (the instance sending that webhook's deliveries takes it at once). Checked like a
 * collections API operation: exposure (the collection's `read`), then the guard — a signed-in
 * user (401) whose capabilities cover `collection.WebhookDeliveries.retry` (403) — then the
 * record (404) and its state (409 once delivered). Answers the delivery record.
 *
 * @module
 */

import { defineHandler, type HandlerDefinition } from "../router/handler.ts";
import {
  conflict,
  forbidden,
  notFound,
  unauthorized,
} from "../router/errors.ts";
import { hostOf } from "../collections/api/host.ts";
import { apiRegistry } from "../collections/api/registry.ts";
import { resolvePrincipal } from "../collections/api/policy.ts";
import { isUuid, normalizeUuid } from "../collections/types/_checks.ts";
import { readParams } from "../collections/wire/_params.ts";
import { kyselyOf } from "../collections/database.ts";
import { WEBHOOK_DELIVERIES } from "./deliveries.ts";
import { retryDelivery, webhookSenders } from "./sender.ts";

/** The capability the retry route needs. */
export const RETRY_CAPABILITY = `collection.${WEBHOOK_DELIVERIES}.retry`;

/**
 * The retry route's handler.
 *
 * @example
 * ```ts ignore
 * routes: { "collections/webhook-deliveries/[uuid]/retry.post.ts": retryRoute }
 * ```
 */
export const retryRoute: HandlerDefinition = defineHandler(async (event) => {
  const host = hostOf(event);
  const collection = apiRegistry(host).byName.get(WEBHOOK_DELIVERIES);
  if (!collection?.exposure.read) throw notFound();
  const principal = await resolvePrincipal(host);
  if (!principal.signedIn) throw unauthorized();
  if (!principal.can(RETRY_CAPABILITY)) throw forbidden();
  readParams(event.query, []);
  const uuid = normalizeUuid(event.params.uuid);
  if (!isUuid(uuid)) throw notFound();
  const now = (host as { now?: () => number }).now?.() ?? Date.now();
  const found = await retryDelivery(kyselyOf(host.data.db), uuid, now);
  if (found === "missing") throw notFound();
  if (found === "delivered") {
    throw conflict("This delivery was delivered already");
  }
  webhookSenders.get(host)?.wake();
  return await host.data.query(WEBHOOK_DELIVERIES).findByUUID(uuid);
}, {
  // The body is never read.
  maxBodySize: false,
  openapi: {
    summary: "Retry a webhook delivery now",
    description:
      "Makes a pending or failed delivery due now. Needs the capability collection.WebhookDeliveries.retry.",
    tags: ["webhook-deliveries"],
    requestBody: undefined,
    responses: {
      "200": { description: "The delivery, due now" },
      "401": { description: "Not signed in" },
      "403": { description: "Missing the capability" },
      "404": { description: "No such delivery" },
      "409": { description: "The delivery was delivered already" },
    },
  },
});
