/**
 * The framework layer of webhooks, stacked when any layer defines a webhook: the
 * `WebhookDeliveries` collection, its retry route and the dashboard's retry button.
 *
 * @module
 */

import { defineLayer, type Layer } from "../app/layer.ts";
import {
  WEBHOOK_DELIVERIES,
  webhookDeliveriesDefinition,
} from "./deliveries.ts";
import { RETRY_CAPABILITY, retryRoute } from "./retry_route.ts";
import { hook } from "../app/hooks.ts";
import {
  RECORD_ACTIONS_HOOK,
  type RecordActionsFunction,
} from "../dashboard/record_actions.ts";

/** The dashboard's retry button on pending and failed deliveries, for those who may retry. */
const retryButton: RecordActionsFunction = (collection, can) =>
  collection === WEBHOOK_DELIVERIES && can(RETRY_CAPABILITY)
    ? [{
      name: "retry",
      label: "retry",
      when: { field: "status", values: ["pending", "failed"] },
    }]
    : undefined;

/**
 * The webhooks layer.
 *
 * @example
 * ```ts
 * import { WEBHOOKS_LAYER } from "./layer.ts";
 * Object.keys(WEBHOOKS_LAYER.collections ?? {}); // ["WebhookDeliveries"]
 * ```
 */
export const WEBHOOKS_LAYER: Layer = defineLayer({
  name: "strata:webhooks",
  collections: { [WEBHOOK_DELIVERIES]: webhookDeliveriesDefinition },
  routes: {
    "collections/webhook-deliveries/[uuid]/retry.post.ts": retryRoute,
  },
  hooks: [hook(RECORD_ACTIONS_HOOK, retryButton)],
});
