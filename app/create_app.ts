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
  type MergedRoute,
  mergeLayers,
} from "./merge_layers.ts";
import { isLayer, type Layer } from "./layer.ts";
import { join, resolve } from "./_path.ts";
import type { HookFunction } from "./hooks.ts";
import { buildRouteTable, type RouteInfo } from "./route_table.ts";
import { createDispatcher, type ServeInfo } from "../router/dispatch.ts";
import type { MiddlewareDefinition } from "../router/handler.ts";
import { frameworkLayers } from "./framework_layers.ts";
import { writeTypesFile } from "./types_file.ts";
import {
  type AppMessages,
  createAppMessages,
  USER_LANGUAGE_HOOK,
  type UserLanguageResolver,
} from "./messages.ts";
import { apiRegistry } from "../collections/api/registry.ts";
import {
  checkCollectionDefinitions,
  checkRoleCapabilities,
  withCollectionSource,
} from "./check_definitions.ts";
import { type DataLayer, openDataLayer } from "../collections/data_layer.ts";
import type { QueryBuilder } from "../collections/query_builder.ts";
import type { AnyCollectionDefinition } from "../collections/typed.ts";
import type { TypedQuery } from "../collections/typed_query.ts";
import type { Database } from "../collections/database.ts";
import { clientResolver } from "../router/forwarded.ts";
import { likelyMethodSuffix } from "../router/route_path.ts";
import { databaseBootError, redactDatabaseUrl } from "./database_url.ts";
import {
  actingUserOf,
  afterCommitRunner,
  afterCommitRunners,
  beforeWriteOf,
} from "./_record_hooks.ts";
import {
  checkWebhooks,
  deletesAnnounced,
  webhookLayers,
  webhookSender,
} from "./_webhooks.ts";
import { webhookSenders } from "../webhooks/sender.ts";

import { type AppMail, type OpenMail, openMail } from "../mail/service.ts";
import { OUTBOX_TABLES } from "../mail/outbox.ts";
import { kyselyOf } from "../collections/database.ts";

import { FileLinks } from "../files/links.ts";
import { type FileService, openFileService } from "../files/service.ts";

export type { Database } from "../collections/database.ts";

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
  /** The default of `api.validateResponses` when the config does not set it (`createTestApp`: on). */
  validateResponses?: boolean;
  /**
   * Rewrites `strata.gen.ts` (the registry of typed collections) when the collections changed.
   * Default: when the environment variable `STRATA_WRITE_TYPES` is `1`, as `deno task dev`
   * sets it.
   */
  writeTypes?: boolean;
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
  /** The raw database (Kysely at run time, see {@link Database}), for what the query builder does not cover. */
  readonly db: Database;
  /** A query builder on a collection (trusted, unscoped), typed when given its definition. */
  query<C extends AnyCollectionDefinition>(definition: C): TypedQuery<C>;
  /** A query builder on a collection by name (trusted, unscoped). */
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
  /** Outgoing mail: the outbox, its worker and (with the `log` transport) the mail sent. */
  readonly mail: AppMail;
  /** Stored files (storage, links, sweeper), or `null` when no field stores files. */
  readonly files: FileService | null;
}

/** Whether a collection of the layers has a `file` or `files` field. */
function storesFiles(layers: readonly Layer[]): boolean {
  return layers.some((layer) =>
    Object.values(layer.collections ?? {}).some((collection) =>
      Object.values(collection.fields).some((field) =>
        field.type === "file" || field.type === "files"
      )
    )
  );
}

/** The name of a collection given by name or by its definition (as its file exported it). */
function collectionName(
  collection: string | AnyCollectionDefinition,
  merged: MergedLayers,
): string {
  if (typeof collection === "string") return collection;
  for (const [name, definition] of Object.entries(merged.collections)) {
    if (definition === collection) return name;
  }
  throw new Error(
    "query() was given a collection definition that is not one of the app's collections",
  );
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

/** `layer` without the routes its `omitRoutes` names for `config`. */
function withoutOmitted(layer: Layer, config: ResolvedConfig): Layer {
  const omitted = layer.omitRoutes?.(config);
  if (!omitted?.length || !layer.routes) return layer;
  const routes = Object.fromEntries(
    Object.entries(layer.routes).filter(([file]) => !omitted.includes(file)),
  );
  return Object.freeze({ ...layer, routes });
}

/** Warns about route files whose suffix is one edit from a method (`ping.gett.ts`). */
function warnMethodSuffixTypos(routes: readonly MergedRoute[]): void {
  for (const route of routes) {
    if (route.method !== "*") continue;
    const meant = likelyMethodSuffix(route.file);
    if (meant === undefined) continue;
    console.warn(
      `Warning: ${route.file} answers every method on ${route.pattern}: its suffix is not a method. Did you mean .${meant}? Rename it to ${
        route.file.replace(/\.[^./]+(\.[a-z]+)$/i, `.${meant}$1`)
      }`,
    );
  }
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
  try {
    return await bootApp(options);
  } catch (error) {
    throw withoutInternalFrames(error);
  }
}

/**
 * A boot error as one clean message: its stack is cut to the message line, so an uncaught
 * boot failure (`deno serve main.ts`) prints the file and the fix, not the framework's frames.
 * `STRATA_DEBUG=1` keeps the original error, stack and cause.
 */
function withoutInternalFrames(error: unknown): unknown {
  if (!(error instanceof Error) || debugging()) return error;
  const clean = new Error(error.message);
  clean.name = error.name;
  clean.stack = `${error.name}: ${error.message}`;
  return clean;
}

function debugging(): boolean {
  return envFlag("STRATA_DEBUG");
}

/** Whether the environment variable `name` is `1` (false without env permission). */
function envFlag(name: string): boolean {
  try {
    return Deno.env.get(name) === "1";
  } catch {
    return false;
  }
}

/** The dev request log: method, path, status and milliseconds, one line per request. */
function logged(fetch: App["fetch"]): App["fetch"] {
  return async (request, info) => {
    const start = performance.now();
    const response = await fetch(request, info);
    const { pathname } = new URL(request.url);
    console.log(
      `${request.method} ${pathname} ${response.status} ${
        (performance.now() - start).toFixed(1)
      }ms`,
    );
    return response;
  };
}

async function bootApp(options: CreateAppOptions): Promise<App> {
  const root = rootPath(options.root);
  const configSource = join(root, CONFIG_FILE);
  const fileConfig = options.config ?? await readConfigFile(root);
  const envUrl = options.config?.database?.url
    ? undefined
    : Deno.env.get("DATABASE_URL");
  const config = resolveConfig(fileConfig, configSource, {
    databaseUrl: options.database ?? envUrl,
    databaseUrlSource: options.database !== undefined
      ? "createApp({ database })"
      : "DATABASE_URL",
    validateResponses: options.validateResponses,
  });
  const appLayer = await loadFolderLayer(root, fileConfig, "app");
  for (const layer of options.layers ?? []) {
    if (!isLayer(layer)) {
      throw new Error("createApp: layers must be layer objects");
    }
  }
  const own = flattenLayers([...options.layers ?? [], appLayer]);
  const stack = flattenLayers([
    ...frameworkLayers(config.api.openapi, storesFiles(own)),
    ...webhookLayers(own),
    ...own,
  ]);
  const merged = mergeLayers(
    stack.map((layer) => withoutOmitted(layer, config)),
    {
      apiDir: config.dirs.api,
      disabledRoutes: config.disable.routes,
    },
  );
  const { trie, routes } = buildRouteTable(merged, config, resolveMiddleware);
  // `deno task dev` and `strata dev` ask for strata.gen.ts to be kept up to date.
  if (options.writeTypes ?? envFlag("STRATA_WRITE_TYPES")) {
    await writeTypesFile(merged, root);
  }
  const now = options.now ?? Date.now;
  const messages = createAppMessages(
    merged.messages,
    config.defaultLanguage,
    config.disable.messages,
    () =>
      (merged.hooks.get(USER_LANGUAGE_HOOK) ?? []) as UserLanguageResolver[],
  );
  warnMethodSuffixTypos(merged.routes);
  checkCollectionDefinitions(merged);
  checkRoleCapabilities(merged);
  checkWebhooks(merged, config);
  const links = new FileLinks(
    config.api.basePath,
    config.uploads.signedUrlMaxAge,
    now,
  );
  const data = await openDataLayer({
    url: config.database.url,
    pgSchema: options.databaseSchema,
    collections: merged.collections,
    fieldTypes: merged.fieldTypes,
    locales: [...config.collections.locales],
    defaultLocale: config.collections.defaultLocale,
    sync: { force: config.database.sync.force },
    busyTimeout: config.database.busyTimeout,
    preparedStatements: config.database.preparedStatements,
    queryFilters: (merged.hooks.get("query:filter") ?? []) as never,
    now,
    messages: messages.renderValidation,
    actingUser: actingUserOf(merged),
    beforeWrite: beforeWriteOf(merged),
    events: config.events,
    keepDeleted: deletesAnnounced(merged),
    files: links,
    ownTables: OUTBOX_TABLES,
  }).catch((error) => {
    const source = databaseSource(options, envUrl, configSource);
    throw withCollectionSource(
      databaseBootError(error, config.database.url, source),
      merged,
    );
  });
  let mail: OpenMail;
  try {
    mail = openMail(config.mail, {
      executor: () => kyselyOf(data.executor()),
      afterCommit: data.afterCommit,
      now,
    });
  } catch (error) {
    await data.close();
    throw error;
  }
  const files = await openFiles(data, mail, config, root, links, now, messages);
  const app: App = {
    fetch: undefined as never,
    close: undefined as never,
    config,
    routes,
    db: data.db,
    query:
      ((collection: string | AnyCollectionDefinition) =>
        data.query(collectionName(collection, merged))) as App["query"],
    hooks: (name) => merged.hooks.get(name) ?? [],
    now,
    layers: merged,
    data,
    messages,
    mail,
    files,
  };
  const dispatcher = createDispatcher({
    trie,
    basePath: config.api.basePath,
    globalMiddleware: merged.globalMiddleware.map(([, m]) => m.fn),
    owner: app,
    localizeError: messages.localizeError,
    logError: (error, event) =>
      console.error(
        `Unhandled error in ${
          event ? `${event.method} ${event.path}` : "a request"
        } (answered 500):`,
        error,
      ),
    resolveClient: config.api.trustProxy === false
      ? undefined
      : clientResolver(config.api.trustProxy, "api.trustProxy"),
  });
  app.fetch = envFlag("STRATA_DEV")
    ? logged(dispatcher.fetch)
    : dispatcher.fetch;
  const runner = afterCommitRunner(merged, data, config, now);
  const sender = webhookSender(merged, data, config, now);
  try {
    apiRegistry(app);
    for (const layer of stack) await layer.setup?.(app);
    await runner?.start();
    await sender?.start();
  } catch (error) {
    await closeServices(sender, runner, mail, files, data);
    throw error;
  }
  if (runner) afterCommitRunners.set(app, runner);
  if (sender) webhookSenders.set(app, sender);
  if (envFlag("STRATA_DEV")) {
    logBootSummary(routes.length, data.dialect, config);
  }
  app.close = async () => {
    await dispatcher.close();
    await closeServices(sender, runner, mail, files, data);
  };
  return Object.freeze(app);
}

// The functions below hold what a boot runs only with an option or a failure (and the file
// service's opening, whose failure closes what boot opened): apart from bootApp they are
// compiled only when called, where inline every boot compiled them with it.

/** Where the database URL came from, for a boot error that names it. */
function databaseSource(
  options: CreateAppOptions,
  envUrl: string | undefined,
  configSource: string,
): string {
  return options.database !== undefined
    ? "createApp({ database })"
    : envUrl !== undefined
    ? "DATABASE_URL"
    : `${configSource}: database.url`;
}

/** Opens the file service; when it fails, closes what boot opened before it. */
async function openFiles(
  data: DataLayer,
  mail: OpenMail,
  config: ResolvedConfig,
  root: string,
  links: FileLinks,
  now: () => number,
  messages: AppMessages,
): Promise<FileService | null> {
  try {
    return await openFileService({
      data,
      config: config.uploads,
      root,
      links,
      now,
      render: messages.renderValidation,
    });
  } catch (error) {
    await closeServices(null, null, mail, null, data);
    throw error;
  }
}

/** Closes the app's services, the last opened first. */
async function closeServices(
  sender: { close(): Promise<void> } | null,
  runner: { close(): Promise<void> } | null,
  mail: OpenMail,
  files: FileService | null,
  data: DataLayer,
): Promise<void> {
  await sender?.close();
  await runner?.close();
  await mail.close();
  await files?.close();
  await data.close();
}

/** The dev boot log: it names the database, so a wrong DATABASE_URL or path shows at once. */
function logBootSummary(
  routes: number,
  dialect: string,
  config: ResolvedConfig,
): void {
  console.log(
    `Strata: ${routes} routes, ${dialect} database ${
      redactDatabaseUrl(config.database.url)
    }`,
  );
}
