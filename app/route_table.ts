/**
 * The route table: compiled routes in a trie, and their printable summary.
 *
 * @module
 */
import type { ResolvedConfig } from "./config.ts";
import type { MergedLayers } from "./merge_layers.ts";
import type { MiddlewareDefinition } from "../router/handler.ts";
import type { CompiledRoute } from "../router/dispatch.ts";
import { RouteTrie } from "../router/trie.ts";
import { parseDuration, parseSize } from "../router/limits.ts";

/** One row of the route table. */
export interface RouteInfo {
  /** `METHOD /pattern`. */
  readonly id: string;
  /** Upper-case method or `*`. */
  readonly method: string;
  /** The pattern, with `api.basePath` in front. */
  readonly pattern: string;
  /** The layer the route came from. */
  readonly layer: string;
  /** The route's file or manifest key. */
  readonly file: string;
}

type MiddlewareResolver = (
  names: readonly string[] | undefined,
  registry: ReadonlyMap<string, MiddlewareDefinition>,
  routeFile: string,
) => MiddlewareDefinition[];

function routeLimit<T>(
  parse: (value: T | false, key: string) => number,
  value: T | false | undefined,
  fallback: number,
  key: string,
  file: string,
): number {
  if (value === undefined) return fallback;
  try {
    return parse(value, key);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Compiles merged routes into a trie with their middleware and limits resolved.
 *
 * @example
 * ```ts ignore
 * const { trie, routes } = buildRouteTable(merged, config, resolveMiddleware);
 * ```
 */
export function buildRouteTable(
  merged: MergedLayers,
  config: ResolvedConfig,
  resolveMiddleware: MiddlewareResolver,
): { trie: RouteTrie<CompiledRoute>; routes: RouteInfo[] } {
  const trie = new RouteTrie<CompiledRoute>();
  const routes: RouteInfo[] = [];
  for (const route of merged.routes) {
    const options = route.definition.options;
    const compiled: CompiledRoute = {
      id: route.id,
      method: route.method,
      pattern: route.pattern,
      file: route.file,
      layer: route.layer,
      handler: route.definition.fn,
      middleware: resolveMiddleware(
        options.middleware,
        merged.middleware,
        route.file,
      )
        .map((m) => m.fn),
      maxBodySize: routeLimit(
        parseSize,
        options.maxBodySize,
        config.api.maxBodySize,
        "maxBodySize",
        route.file,
      ),
      handlerTimeout: routeLimit(
        parseDuration,
        options.handlerTimeout,
        config.api.handlerTimeout,
        "handlerTimeout",
        route.file,
      ),
      waitUntilTimeout: routeLimit(
        parseDuration,
        options.waitUntilTimeout,
        config.api.waitUntilTimeout,
        "waitUntilTimeout",
        route.file,
      ),
      validateResponses: config.api.validateResponses,
    };
    trie.add(route.method, [...route.segments], compiled);
    routes.push(Object.freeze({
      id: route.id,
      method: route.method,
      pattern: config.api.basePath +
        (route.pattern === "/" && config.api.basePath ? "" : route.pattern),
      layer: route.layer,
      file: route.file,
    }));
  }
  return { trie, routes };
}

/**
 * Formats the route table for a terminal: method, pattern, layer, file.
 *
 * @example
 * ```ts
 * import { formatRouteTable } from "./route_table.ts";
 * console.log(formatRouteTable([{ id: "GET /", method: "GET", pattern: "/", layer: "app", file: "api/index.get.ts" }]));
 * ```
 */
export function formatRouteTable(routes: readonly RouteInfo[]): string {
  const rows = routes.map((
    r,
  ) => [r.method === "*" ? "ANY" : r.method, r.pattern, r.layer, r.file]);
  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((row) => row[i].length), 0)
  );
  return rows.map((row) =>
    row.map((cell, i) => i < 3 ? cell.padEnd(widths[i]) : cell).join("  ")
  ).join("\n");
}
