/**
 * `GET /openapi.json` (config `api.openapi`): the app's OpenAPI 3.1 document, built once per
 * boot on the first request.
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import type { App } from "../create_app.ts";
import { defineLayer, type Layer } from "../layer.ts";
import { buildOpenApiDocument } from "./document.ts";

const documents = new WeakMap<App, string>();

/** The handler serving the document, as JSON. */
const openApiRoute: HandlerDefinition = defineHandler((event) => {
  const app = (event as RequestEvent).owner as App;
  let body = documents.get(app);
  if (body === undefined) {
    body = JSON.stringify(buildOpenApiDocument(app, openApiRoute));
    documents.set(app, body);
  }
  return new Response(body, {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}, { openapi: false });

/**
 * The layer serving the OpenAPI document at `path` (without `api.basePath`).
 *
 * @example
 * ```ts
 * import { openApiLayer } from "./route.ts";
 * openApiLayer("/openapi.json").name; // "strata:openapi"
 * ```
 */
export function openApiLayer(path: string): Layer {
  return defineLayer({
    name: "strata:openapi",
    routes: { [`${path.slice(1)}.get.ts`]: openApiRoute },
  });
}
