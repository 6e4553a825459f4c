/**
 * What the collections API needs from the app serving it. The app satisfies this interface;
 * the API never imports the app module.
 *
 * @module
 */
import type { DataLayer } from "../data_layer.ts";
import type { HandlerFunction } from "../../router/handler.ts";
import type { StrataEvent } from "../../router/event.ts";
import type { RequestEvent } from "../../router/request_event.ts";
import type { QueryGuardsConfig } from "../../app/config.ts";

/** The app, as the collections API sees it. */
export interface ApiHost {
  /** The data layer. */
  readonly data: DataLayer;
  /** The resolved config (guards, locales, body limit). */
  readonly config: {
    readonly api: { readonly maxBodySize: number };
    readonly query: { readonly guards: Readonly<QueryGuardsConfig> };
  };
  /** The merged layers: named middleware. */
  readonly layers: {
    readonly middleware: ReadonlyMap<string, { readonly fn: HandlerFunction }>;
  };
  /** Functions registered on a hook. */
  hooks(name: string): readonly ((...args: never[]) => unknown)[];
}

/**
 * The host serving `event`.
 *
 * @example
 * ```ts ignore
 * const host = hostOf(useEvent());
 * ```
 */
export function hostOf(event: StrataEvent): ApiHost {
  const host = (event as RequestEvent).owner as ApiHost | undefined;
  if (!host?.data) {
    throw new Error("The collections API runs only inside an app");
  }
  return host;
}
