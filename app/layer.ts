/**
 * Layers: the pieces an app is stacked from. A folder layer is walked from disk; a manifest
 * layer ({@link defineLayer}) lists its pieces statically, which is how a layer inside a package
 * (imported from a URL, never walked) ships.
 *
 * @module
 */
import type {
  HandlerDefinition,
  MiddlewareDefinition,
} from "../router/handler.ts";
import type { HookRegistration } from "./hooks.ts";
import type { CollectionDefinition } from "../collections/define.ts";
import type { FieldType } from "../collections/field_types.ts";
import type { RoleDefinition } from "../auth/capabilities.ts";
import type { NestedMessages } from "../i18n/catalog.ts";
import type { App } from "./create_app.ts";
import type { WebhookDefinition } from "../webhooks/define.ts";
import type { ResolvedConfig } from "./config.ts";

/** What a layer contributes; every key is optional except `name`. */
export interface LayerManifest {
  /** The layer's name, shown in the route table. */
  readonly name: string;
  /** Routes keyed by their file path under the api folder (`posts/[id].get.ts`). */
  readonly routes?: Readonly<Record<string, HandlerDefinition>>;
  /** Collections keyed by name. */
  readonly collections?: Readonly<Record<string, CollectionDefinition>>;
  /** Named middleware. */
  readonly middleware?: Readonly<Record<string, MiddlewareDefinition>>;
  /** Global middleware, run on every request sorted by name. */
  readonly globalMiddleware?: Readonly<Record<string, MiddlewareDefinition>>;
  /** Roles keyed by name. */
  readonly roles?: Readonly<Record<string, RoleDefinition>>;
  /** Message catalogs keyed by language. */
  readonly messages?: Readonly<Record<string, NestedMessages>>;
  /** Hook registrations. */
  readonly hooks?: readonly HookRegistration[];
  /** Webhooks keyed by name (a folder layer's `webhooks/<name>.ts`). */
  readonly webhooks?: Readonly<Record<string, WebhookDefinition>>;
  /**
   * The TypeScript type of each collection's definition, for the registry `strata types`
   * writes (`typeof import("@my/pkg").postsDefinition`); a packaged layer's collections are
   * untyped without it.
   */
  readonly collectionTypes?: Readonly<Record<string, string>>;
  /** Field types the layer adds. */
  readonly fieldTypes?: Readonly<Record<string, FieldType>>;
  /** Layers below this one, furthest first. */
  readonly layers?: readonly Layer[];
  /**
   * The keys of {@link LayerManifest.routes} that the app's config turns off: a feature that
   * is off has no route at all (404, absent from the OpenAPI document), while a route of
   * the same id in a closer layer stays. May throw to refuse a bad config value.
   */
  readonly omitRoutes?: (config: ResolvedConfig) => readonly string[];
  /**
   * Runs once at boot after the database is open, farther layers first; throw to refuse
   * the boot (e.g. a bad config value of the layer's own section).
   */
  readonly setup?: (app: App) => void | Promise<void>;
}

/** A layer, from a folder or a manifest. */
export interface Layer extends LayerManifest {
  /** Brand telling a layer apart from other values. */
  readonly kind: "layer";
  /** The folder a folder layer was loaded from. */
  readonly root?: string;
  /** Where a folder layer's pieces came from, for boot error messages. */
  readonly sources?: {
    readonly collections?: Readonly<Record<string, string>>;
    readonly roles?: Readonly<Record<string, string>>;
  };
}

/**
 * Declares a manifest layer: a layer whose pieces are listed statically.
 *
 * @example
 * ```ts
 * import { defineHandler, defineLayer } from "@strata/strata";
 * export const pingLayer = defineLayer({
 *   name: "ping",
 *   routes: { "ping.get.ts": defineHandler(() => ({ pong: true })) },
 * });
 * ```
 */
export function defineLayer(manifest: LayerManifest): Layer {
  if (typeof manifest?.name !== "string" || manifest.name === "") {
    throw new TypeError("defineLayer() needs a name");
  }
  return Object.freeze({ ...manifest, kind: "layer" as const });
}

/**
 * Whether `value` is a {@link Layer}.
 *
 * @example
 * ```ts
 * import { defineLayer, isLayer } from "./layer.ts";
 * isLayer(defineLayer({ name: "empty" })); // true
 * ```
 */
export function isLayer(value: unknown): value is Layer {
  return typeof value === "object" && value !== null &&
    (value as Layer).kind === "layer";
}
