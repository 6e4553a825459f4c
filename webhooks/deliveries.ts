/**
 * The `WebhookDeliveries` framework collection: one record per (webhook, change), its state
 * and the outcome of its last attempt. Administrators read it at
 * `/collections/webhook-deliveries` (capability `collection.WebhookDeliveries.*`).
 *
 * @module
 */

import {
  type CollectionDefinition,
  defineCollection,
  field,
} from "../collections/define.ts";

/** The collection's name. */
export const WEBHOOK_DELIVERIES = "WebhookDeliveries";

/** Where a delivery stands. */
export type DeliveryStatus = "pending" | "delivered" | "failed";

/**
 * The definition of `WebhookDeliveries`. Framework bookkeeping: its writes produce no change
 * events, and nothing in it is writable over the API (a retry goes through its own route).
 *
 * @example
 * ```ts
 * import { webhookDeliveriesDefinition } from "./deliveries.ts";
 * Object.keys(webhookDeliveriesDefinition.fields).includes("nextAttemptAt"); // true
 * ```
 */
export const webhookDeliveriesDefinition: CollectionDefinition =
  defineCollection({
    fields: {
      webhook: field("text", { max: 200 }),
      seq: field("integer"),
      collection: field("text", { max: 200 }),
      op: field("select", { choices: ["create", "update", "delete"] }),
      recordUUID: field("text", { max: 36 }),
      at: field("dateTime"),
      status: field("select", {
        choices: ["pending", "delivered", "failed"],
        default: "pending",
      }),
      attempts: field("integer", { default: 0, min: 0 }),
      nextAttemptAt: field("dateTime", { nullable: true }),
      lastStatus: field("integer", { nullable: true }),
      lastError: field("text", { nullable: true, max: 2000 }),
      deliveredAt: field("dateTime", { nullable: true }),
    },
    api: { read: true, delete: true },
    uniques: [["webhook", "seq"]],
    indexes: [["webhook", "status", "nextAttemptAt"], ["status", "at"]],
    events: false,
  });
