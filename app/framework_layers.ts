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
import { openApiLayer } from "./openapi/route.ts";
import { fileRoutes } from "../files/routes.ts";

const MESSAGES_LAYER: Layer = defineLayer({
  name: "strata:messages",
  routes: { "messages/[group]/[language].get.ts": messagesRoute },
});

const COLLECTIONS_LAYER: Layer = defineLayer({
  name: "strata:collections",
  routes: collectionsApiRoutes,
});

const FILES_LAYER: Layer = defineLayer({
  name: "strata:files",
  routes: fileRoutes,
});

/**
 * The framework's own layers, furthest first; `openapi` is where the OpenAPI document is
 * served (`api.openapi`), `false` for nowhere; `files` adds the file routes (an app with a
 * file field).
 *
 * @example
 * ```ts
 * import { frameworkLayers } from "./framework_layers.ts";
 * frameworkLayers(false).map((layer) => layer.name); // ["strata:messages", "strata:collections"]
 * ```
 */
export function frameworkLayers(
  openapi: string | false,
  files = false,
): Layer[] {
  const layers = files
    ? [MESSAGES_LAYER, COLLECTIONS_LAYER, FILES_LAYER]
    : [MESSAGES_LAYER, COLLECTIONS_LAYER];
  return openapi === false ? layers : [...layers, openApiLayer(openapi)];
}
