/**
 * Flattens a layer stack and merges its pieces by identity; the closer layer wins.
 *
 * @module
 */
import type { Layer } from "./layer.ts";
import type {
  HandlerDefinition,
  MiddlewareDefinition,
} from "../router/handler.ts";
import type { HookFunction, HookRegistration } from "./hooks.ts";
import type { CollectionDefinition } from "../collections/define.ts";
import type { FieldType } from "../collections/field_types.ts";
import type { RoleDefinition } from "../auth/capabilities.ts";
import type { NestedMessages } from "../i18n/catalog.ts";
import {
  parseRouteFile,
  routeId,
  type RouteSegment,
} from "../router/route_path.ts";
import { compileRouteGlob } from "../router/glob.ts";
import { childPath, join } from "./_path.ts";
import type { WebhookDefinition } from "../webhooks/define.ts";

/** A route after the merge. */
export interface MergedRoute {
  /** `METHOD /pattern`. */
  readonly id: string;
  /** Upper-case method or `*`. */
  readonly method: string;
  /** The pattern, e.g. `/posts/[id]`. */
  readonly pattern: string;
  /** The parsed segments. */
  readonly segments: readonly RouteSegment[];
  /** The route's file (folder layers) or manifest key. */
  readonly file: string;
  /** The name of the layer it came from. */
  readonly layer: string;
  /** The handler with its options. */
  readonly definition: HandlerDefinition;
}

/** Everything a layer stack contributes, merged. */
export interface MergedLayers {
  /** The flattened stack, furthest first. */
  readonly stack: readonly Layer[];
  /** Routes after the merge and `disable.routes`, in a stable order. */
  readonly routes: readonly MergedRoute[];
  /** Collections by name. */
  readonly collections: Readonly<Record<string, CollectionDefinition>>;
  /** Where each collection came from (its file, or its layer's name), for boot errors. */
  readonly collectionSources: ReadonlyMap<string, string>;
  /** Where each role came from (its file, or its layer's name), for boot errors. */
  readonly roleSources: ReadonlyMap<string, string>;
  /** Named middleware. */
  readonly middleware: ReadonlyMap<string, MiddlewareDefinition>;
  /** Global middleware in run order (sorted by name). */
  readonly globalMiddleware:
    readonly (readonly [string, MiddlewareDefinition])[];
  /** Roles by name. */
  readonly roles: ReadonlyMap<string, RoleDefinition>;
  /** Message catalogs per layer, furthest first. */
  readonly messages: readonly Readonly<Record<string, NestedMessages>>[];
  /** Hook functions by hook name, furthest layer first. */
  readonly hooks: ReadonlyMap<string, readonly HookFunction[]>;
  /**
   * Hook registrations by hook name, furthest layer first, each with an `id` (its file's name,
   * else `<layer>#<position>`) and its filter.
   */
  readonly hookRegistrations: ReadonlyMap<string, readonly HookRegistration[]>;
  /** Field types by name. */
  readonly fieldTypes: Readonly<Record<string, FieldType>>;
  /** Webhooks by name. */
  readonly webhooks: ReadonlyMap<string, WebhookDefinition>;
}

function layerKey(layer: Layer): string {
  return layer.root ?? `manifest:${layer.name}`;
}

/**
 * The stack below and including `layers`, furthest first; a layer listed twice loads once.
 *
 * @example
 * ```ts
 * import { defineLayer } from "./layer.ts";
 * import { flattenLayers } from "./merge_layers.ts";
 * const base = defineLayer({ name: "base" });
 * flattenLayers([defineLayer({ name: "app", layers: [base] })]).map((l) => l.name); // ["base", "app"]
 * ```
 */
export function flattenLayers(layers: readonly Layer[]): Layer[] {
  const seen = new Set<string>();
  const stack: Layer[] = [];
  const visit = (layer: Layer) => {
    const key = layerKey(layer);
    if (seen.has(key)) return;
    seen.add(key);
    for (const below of layer.layers ?? []) visit(below);
    stack.push(layer);
  };
  for (const layer of layers) visit(layer);
  return stack;
}

/** Segments a folder walk never yields: `join` would resolve them. */
const ODD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)|\\|^\//;

/** Where a route came from: its file under the layer's API folder, or `layer:key`. */
function routeLocation(
  layer: Layer,
  file: string,
  apiRoot: string | undefined,
): string {
  if (apiRoot === undefined) return `${layer.name}:${file}`;
  return ODD_SEGMENT.test(file)
    ? join(apiRoot, file)
    : childPath(apiRoot, file);
}

function mergeRoutes(
  stack: readonly Layer[],
  apiDir: string,
  disabled: readonly string[],
): MergedRoute[] {
  const byId = new Map<string, MergedRoute>();
  for (const layer of stack) {
    const own = new Map<string, MergedRoute>();
    const apiRoot = layer.root ? join(layer.root, apiDir) : undefined;
    for (const [file, definition] of Object.entries(layer.routes ?? {})) {
      const location = routeLocation(layer, file, apiRoot);
      const parsed = parseRouteFile(file);
      const id = routeId(parsed.method, parsed.pattern);
      const twin = own.get(id);
      if (twin) {
        throw new Error(
          `Duplicate route ${id}: ${twin.file} and ${location} define the same route`,
        );
      }
      own.set(id, {
        id,
        method: parsed.method,
        pattern: parsed.pattern,
        segments: parsed.segments,
        file: location,
        layer: layer.name,
        definition,
      });
    }
    for (const [id, route] of own) byId.set(id, route);
  }
  const drops = disabled.map(compileRouteGlob);
  return [...byId.values()]
    .filter((route) => !drops.some((drop) => drop(route.id)))
    .sort((a, b) =>
      a.pattern < b.pattern
        ? -1
        : a.pattern > b.pattern
        ? 1
        : a.method < b.method
        ? -1
        : 1
    );
}

function mergeByName<T>(
  stack: readonly Layer[],
  pick: (layer: Layer) => Readonly<Record<string, T>> | undefined,
): Map<string, T> {
  const merged = new Map<string, T>();
  for (const layer of stack) {
    for (const [name, value] of Object.entries(pick(layer) ?? {})) {
      merged.set(name, value);
    }
  }
  return merged;
}

function mergeCollections(
  stack: readonly Layer[],
): Record<string, CollectionDefinition> {
  const merged = mergeByName(stack, (layer) => layer.collections);
  const byLowerName = new Map<string, string>();
  for (const name of merged.keys()) {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
      throw new Error(
        `Collection name "${name}" must start with an upper-case letter and contain only letters and digits`,
      );
    }
    const twin = byLowerName.get(name.toLowerCase());
    if (twin) {
      throw new Error(
        `Collections "${twin}" and "${name}" differ only by case`,
      );
    }
    byLowerName.set(name.toLowerCase(), name);
  }
  return Object.fromEntries(merged);
}

/**
 * Merges a flattened stack: routes by id, collections, middleware and roles by name, messages
 * per key (later), hooks in stack order; the closer layer wins.
 *
 * @example
 * ```ts
 * import { defineLayer } from "./layer.ts";
 * import { mergeLayers } from "./merge_layers.ts";
 * const merged = mergeLayers([defineLayer({ name: "app" })], { apiDir: "api", disabledRoutes: [] });
 * merged.routes.length; // 0
 * ```
 */
export function mergeLayers(
  stack: readonly Layer[],
  options: { apiDir: string; disabledRoutes: readonly string[] },
): MergedLayers {
  const hooks = new Map<string, HookFunction[]>();
  const hookRegistrations = new Map<string, HookRegistration[]>();
  for (const layer of stack) {
    for (const [index, registration] of (layer.hooks ?? []).entries()) {
      const { hook, fn } = registration;
      hooks.set(hook, [...hooks.get(hook) ?? [], fn]);
      const id = `${layer.name}:${registration.id ?? `#${index}`}`;
      hookRegistrations.set(hook, [
        ...hookRegistrations.get(hook) ?? [],
        Object.freeze({ ...registration, id }),
      ]);
    }
  }
  const globals = mergeByName(stack, (layer) => layer.globalMiddleware);
  return {
    stack,
    routes: mergeRoutes(stack, options.apiDir, options.disabledRoutes),
    collections: mergeCollections(stack),
    collectionSources: mergeByName(stack, (layer) =>
      Object.fromEntries(
        Object.keys(layer.collections ?? {}).map((name) => [
          name,
          layer.sources?.collections?.[name] ?? `the ${layer.name} layer`,
        ]),
      )),
    roleSources: mergeByName(stack, (layer) =>
      Object.fromEntries(
        Object.keys(layer.roles ?? {}).map((name) => [
          name,
          layer.sources?.roles?.[name] ?? `the ${layer.name} layer`,
        ]),
      )),
    middleware: mergeByName(stack, (layer) => layer.middleware),
    globalMiddleware: [...globals].sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    ),
    roles: mergeByName(stack, (layer) => layer.roles),
    messages: stack.map((layer) => layer.messages ?? {}),
    hooks,
    hookRegistrations,
    fieldTypes: Object.fromEntries(
      mergeByName(stack, (layer) => layer.fieldTypes),
    ),
    webhooks: mergeByName(stack, (layer) => layer.webhooks),
  };
}
