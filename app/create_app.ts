/**
 * `createApp`: turns an app folder (and the layers it stacks) into a running service.
 *
 * @module
 */
import {
  resolveConfig,
  type ResolvedConfig,
  type StrataConfig,
} from "./config.ts";
import { CONFIG_FILE, loadFolderLayer, readConfigFile } from "./load_folder.ts";
import {
  flattenLayers,
  type MergedLayers,
  mergeLayers,
} from "./merge_layers.ts";
import { isLayer, type Layer } from "./layer.ts";
import { join, resolve } from "./_path.ts";
import type { HookFunction } from "./hooks.ts";
import { buildRouteTable, type RouteInfo } from "./route_table.ts";
import { createDispatcher, type ServeInfo } from "../router/dispatch.ts";
import type { MiddlewareDefinition } from "../router/handler.ts";
import { frameworkLayers } from "./framework_layers.ts";
import {
  type AppMessages,
  createAppMessages,
  USER_LANGUAGE_HOOK,
  type UserLanguageResolver,
} from "./messages.ts";
import { apiRegistry } from "../collections/api/registry.ts";
import {
  checkCollectionDefinitions,
  withCollectionSource,
} from "./check_definitions.ts";
import { type DataLayer, openDataLayer } from "../collections/data_layer.ts";
import type { QueryBuilder } from "../collections/query_builder.ts";
import type { Kysely } from "kysely";

/** Raw Kysely on an app's database (tables are not typed: collections are defined at run time). */
// deno-lint-ignore no-explicit-any
export type Database = Kysely<any>;

/** Options of {@link createApp}. */
export interface CreateAppOptions {
  /** The app folder; `strata.config.ts` there is read unless `config` is given. */
  root: string | URL;
  /** A config that replaces the config file. */
  config?: StrataConfig;
  /** A database URL that wins over the config and `DATABASE_URL` (tests use `":memory:"`). */
  database?: string;
  /** PostgreSQL schema to use (created when missing); for test isolation. */
  databaseSchema?: string;
  /** Layers stacked below everything else (used by `createTestApp`). */
  layers?: readonly Layer[];
  /** Clock in epoch ms; tests inject one to control time. */
  now?: () => number;
}

/** A running app. */
export interface App {
  /** Answers one request; `Deno.serve(app.fetch)` and `deno serve` use it. */
  fetch(request: Request, info?: ServeInfo): Promise<Response>;
  /** Waits for pending work and closes the database. */
  close(): Promise<void>;
  /** The resolved config. */
  readonly config: ResolvedConfig;
  /** The merged route table. */
  readonly routes: readonly RouteInfo[];
  /** Raw Kysely on the app's database, for anything the query builder does not cover. */
  readonly db: Database;
  /** A query builder on a collection (trusted, unscoped). */
  query(collection: string): QueryBuilder;
  /** Functions registered on a hook, furthest layer first. */
  hooks(name: string): readonly HookFunction[];
  /** The app's clock in epoch ms. */
  now(): number;
  /** The merged layers (collections, roles, middleware, messages). */
  readonly layers: MergedLayers;
  /** The data layer. */
  readonly data: DataLayer;
  /** Message catalogs and translation. */
  readonly messages: AppMessages;
}

function rootPath(root: string | URL): string {
  return root instanceof URL || root.startsWith("file:")
    ? decodeURIComponent(new URL(root).pathname)
    : resolve(root);
}

function resolveMiddleware(
  names: readonly string[] | undefined,
  registry: ReadonlyMap<string, MiddlewareDefinition>,
  routeFile: string,
): MiddlewareDefinition[] {
  return (names ?? []).map((name) => {
    const found = registry.get(name);
    if (!found) {
      throw new Error(
        `${routeFile}: middleware "${name}" is not defined by any layer`,
      );
    }
    return found;
  });
}

/**
 * Creates the app in folder `root`.
 *
 * @example
 * ```ts
 * // main.ts — serve with `deno serve -A main.ts`
 * import { createApp } from "@strata/strata";
 * export default await createApp({ root: import.meta.dirname! });
 * ```
 */
export async function createApp(options: CreateAppOptions): Promise<App> {
  const root = rootPath(options.root);
  const configSource = join(root, CONFIG_FILE);
  const fileConfig = options.config ?? await readConfigFile(root);
  const config = resolveConfig(fileConfig, configSource, {
    databaseUrl: options.database ??
      (options.config?.database?.url
        ? undefined
        : Deno.env.get("DATABASE_URL")),
  });
  const appLayer = await loadFolderLayer(root, fileConfig, "app");
  for (const layer of options.layers ?? []) {
    if (!isLayer(layer)) {
      throw new Error("createApp: layers must be layer objects");
    }
  }
  const stack = flattenLayers([
    ...frameworkLayers(),
    ...options.layers ?? [],
    appLayer,
  ]);
  const merged = mergeLayers(stack, {
    apiDir: config.dirs.api,
    disabledRoutes: config.disable.routes,
  });
  const { trie, routes } = buildRouteTable(merged, config, resolveMiddleware);
  const now = options.now ?? Date.now;
  const messages = createAppMessages(
    merged.messages,
    config.defaultLanguage,
    config.disable.messages,
    () =>
      (merged.hooks.get(USER_LANGUAGE_HOOK) ?? []) as UserLanguageResolver[],
  );
  checkCollectionDefinitions(merged);
  const data = await openDataLayer({
    url: options.database ?? config.database.url,
    pgSchema: options.databaseSchema,
    collections: merged.collections,
    fieldTypes: merged.fieldTypes,
    locales: [...config.collections.locales],
    defaultLocale: config.collections.defaultLocale,
    sync: { force: config.database.sync.force },
    busyTimeout: config.database.busyTimeout,
    queryFilters: (merged.hooks.get("query:filter") ?? []) as never,
    now,
    messages: messages.renderValidation,
  }).catch((error) => {
    throw withCollectionSource(error, merged);
  });
  const app: App = {
    fetch: undefined as never,
    close: undefined as never,
    config,
    routes,
    db: data.db,
    query: (name) => data.query(name),
    hooks: (name) => merged.hooks.get(name) ?? [],
    now,
    layers: merged,
    data,
    messages,
  };
  const dispatcher = createDispatcher({
    trie,
    basePath: config.api.basePath,
    globalMiddleware: merged.globalMiddleware.map(([, m]) => m.fn),
    owner: app,
    localizeError: messages.localizeError,
  });
  app.fetch = dispatcher.fetch;
  try {
    apiRegistry(app);
    for (const layer of stack) await layer.setup?.(app);
  } catch (error) {
    await data.close();
    throw error;
  }
  app.close = async () => {
    await dispatcher.close();
    await data.close();
  };
  return Object.freeze(app);
}
