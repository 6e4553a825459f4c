// The webhooks of an app: the framework layer they need, their boot checks, the collections
// whose deletes keep their last state, and the sender.
import type { Layer } from "./layer.ts";
import type { MergedLayers } from "./merge_layers.ts";
import type { ResolvedConfig } from "./config.ts";
import type { DataLayer } from "../collections/data_layer.ts";
import { WEBHOOKS_LAYER } from "../webhooks/layer.ts";
import { WebhookSender } from "../webhooks/sender.ts";

/** The webhooks layer when any layer of `stack` defines a webhook, else nothing. */
export function webhookLayers(stack: readonly Layer[]): Layer[] {
  const defined = stack.some((layer) =>
    Object.keys(layer.webhooks ?? {}).length > 0
  );
  return defined ? [WEBHOOKS_LAYER] : [];
}

/**
 * Refuses a webhook naming a collection that does not exist or produces no events, or an
 * `http:` URL without `webhooks.allowInsecure`.
 */
export function checkWebhooks(
  merged: MergedLayers,
  config: ResolvedConfig,
): void {
  for (const [name, webhook] of merged.webhooks) {
    for (const collection of webhook.collections ?? []) {
      const definition = merged.collections[collection];
      if (!definition) {
        throw new Error(
          `Webhook ${name}: collection "${collection}" is not defined by any layer`,
        );
      }
      if (definition.events === false) {
        throw new Error(
          `Webhook ${name}: collection "${collection}" produces no events (events: false)`,
        );
      }
    }
    if (webhook.url.protocol === "http:" && !config.webhooks.allowInsecure) {
      throw new Error(
        `Webhook ${name}: ${webhook.url.href} is not https: (set webhooks.allowInsecure to allow http: targets)`,
      );
    }
  }
}

/** The collections some webhook announces deletes of (their deleted records are kept). */
export function deletesAnnounced(merged: MergedLayers): string[] {
  const names = new Set<string>();
  for (const webhook of merged.webhooks.values()) {
    if (!webhook.ops.includes("delete")) continue;
    const collections = webhook.collections ??
      Object.entries(merged.collections)
        .filter(([, definition]) => definition.events !== false)
        .map(([collection]) => collection);
    for (const collection of collections) names.add(collection);
  }
  return [...names];
}

/** The sender of the app's webhooks, or `null` when it has none. */
export function webhookSender(
  merged: MergedLayers,
  data: DataLayer,
  config: ResolvedConfig,
  now: () => number,
): WebhookSender | null {
  if (merged.webhooks.size === 0) return null;
  return new WebhookSender({
    data,
    webhooks: merged.webhooks,
    settings: config.webhooks,
    retention: config.events.retention,
    now,
    keptDeleted: new Set(deletesAnnounced(merged)),
  });
}
