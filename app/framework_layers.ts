/**
 * The layers the framework itself stacks at the bottom of every app: the messages endpoint
 * and the collections API. An app overrides any of their routes by shipping one with the same
 * id, and drops them with `disable.routes`.
 *
 * @module
 */
import { defineLayer, type Layer } from "./layer.ts";
import { messagesRoute } from "./messages_route.ts";
import { collectionsApiRoutes } from "../collections/api/routes.ts";

const MESSAGES_LAYER: Layer = defineLayer({
  name: "strata:messages",
  routes: { "messages/[group]/[language].get.ts": messagesRoute },
});

const COLLECTIONS_LAYER: Layer = defineLayer({
  name: "strata:collections",
  routes: collectionsApiRoutes,
});

/**
 * The framework's own layers, furthest first.
 *
 * @example
 * ```ts
 * import { frameworkLayers } from "./framework_layers.ts";
 * frameworkLayers().map((layer) => layer.name); // ["strata:messages", "strata:collections"]
 * ```
 */
export function frameworkLayers(): Layer[] {
  return [MESSAGES_LAYER, COLLECTIONS_LAYER];
}
