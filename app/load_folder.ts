/**
 * Loads a folder layer: its config file and every piece under its folders.
 *
 * @module
 */
import { join, relative, resolve, toFileUrl } from "./_path.ts";
import { DEFAULT_DIRS, type StrataConfig } from "./config.ts";
import { isLayer, type Layer } from "./layer.ts";
import {
  defineHandler,
  isHandlerDefinition,
  isMiddlewareDefinition,
} from "../router/handler.ts";
import type {
  HandlerDefinition,
  HandlerFunction,
  MiddlewareDefinition,
} from "../router/handler.ts";
import { type HookRegistration, isHookRegistration } from "./hooks.ts";
import type { CollectionDefinition } from "../collections/define.ts";
import type { RoleDefinition } from "../auth/capabilities.ts";

/** The file name of an app or layer config. */
export const CONFIG_FILE = "strata.config.ts";

const MODULE_EXTENSIONS = /\.(ts|tsx|js|mjs|mts|jsx)$/;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Lists module files under `dir` (recursively when asked), as paths relative to `dir`. */
async function listFiles(
  dir: string,
  recursive: boolean,
  pattern: RegExp,
  prefix = "",
): Promise<string[]> {
  const files: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(join(dir, prefix)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return files;
    throw error;
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory && recursive) {
      files.push(...await listFiles(dir, true, pattern, rel));
    } else if (
      entry.isFile && pattern.test(entry.name) && !entry.name.endsWith(".d.ts")
    ) {
      files.push(rel);
    }
  }
  return files;
}

function defaultOf(module: Record<string, unknown>, path: string): unknown {
  if (!("default" in module)) throw new Error(`${path} has no default export`);
  return module.default;
}

async function importOne(path: string): Promise<Record<string, unknown>> {
  try {
    return await import(toFileUrl(path).href);
  } catch (error) {
    throw new Error(`${path} failed to load: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function importDefault(path: string): Promise<unknown> {
  return defaultOf(await importOne(path), path);
}

/**
 * Imports many modules at once. One generated module re-exporting them all lets the runtime
 * build the module graph once instead of once per file (a 200-route app boots about twice as
 * fast); when any of them fails, they load one by one so the error names the file.
 */
async function importModules(
  paths: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  if (paths.length === 0) return new Map();
  try {
    const source = paths
      .map((path, i) =>
        `export * as m${i} from ${JSON.stringify(toFileUrl(path).href)};`
      )
      .join("\n");
    const batch = await import(
      `data:application/javascript,${encodeURIComponent(source)}`
    );
    return new Map(paths.map((path, i) => [path, batch[`m${i}`]]));
  } catch {
    const modules = await Promise.all(paths.map(importOne));
    return new Map(paths.map((path, i) => [path, modules[i]]));
  }
}

function convertAll<T>(
  modules: ReadonlyMap<string, Record<string, unknown>>,
  dir: string,
  files: readonly string[],
  convert: (value: unknown, file: string) => T,
): Record<string, T> {
  return Object.fromEntries(files.map((file) => {
    const path = join(dir, file);
    return [file, convert(defaultOf(modules.get(path)!, path), path)];
  }));
}

function baseName(file: string): string {
  return file.replace(MODULE_EXTENSIONS, "").replace(/\.json$/, "");
}

function asHandler(value: unknown, file: string): HandlerDefinition {
  if (isHandlerDefinition(value)) return value;
  if (typeof value === "function") {
    return defineHandler(value as HandlerFunction);
  }
  throw new Error(`${file} must default-export defineHandler(…)`);
}

function asMiddleware(value: unknown, file: string): MiddlewareDefinition {
  if (isMiddlewareDefinition(value)) return value;
  throw new Error(`${file} must default-export defineMiddleware(…)`);
}

function asCollection(value: unknown, file: string): CollectionDefinition {
  const fields = (value as CollectionDefinition | null)?.fields;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new Error(
      `${file} must default-export defineCollection({ fields: … })`,
    );
  }
  return value as CollectionDefinition;
}

function asRole(value: unknown, file: string): RoleDefinition {
  const capabilities = (value as RoleDefinition | null)?.capabilities;
  if (!Array.isArray(capabilities)) {
    throw new Error(
      `${file} must default-export defineRole({ capabilities: […] })`,
    );
  }
  return value as RoleDefinition;
}

function asHooks(value: unknown, file: string): HookRegistration[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isHookRegistration)) {
    throw new Error(`${file} must default-export hook(…) or an array of them`);
  }
  return list;
}

function byBaseName<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).map(([file, value]) => [baseName(file), value]),
  );
}

/**
 * Reads the config file of a folder, or `{}` when it has none.
 *
 * @example
 * ```ts
 * import { readConfigFile } from "./load_folder.ts";
 * const config = await readConfigFile("./examples/blog");
 * ```
 */
export async function readConfigFile(root: string): Promise<StrataConfig> {
  const file = join(root, CONFIG_FILE);
  if (!await exists(file)) return {};
  const config = await importDefault(file);
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new Error(`${file} must default-export defineConfig({ … })`);
  }
  return config as StrataConfig;
}

/**
 * Loads the folder `root` as a layer, with the layers its config names below it.
 * `config` replaces the folder's config file when given.
 *
 * @example
 * ```ts
 * import { loadFolderLayer } from "./load_folder.ts";
 * const layer = await loadFolderLayer("./examples/blog");
 * ```
 */
export async function loadFolderLayer(
  root: string,
  config?: StrataConfig,
  name?: string,
): Promise<Layer> {
  root = resolve(root);
  config ??= await readConfigFile(root);
  const dirs = { ...DEFAULT_DIRS, ...config.dirs };
  const apiDir = join(root, dirs.api);
  const middlewareDir = join(root, dirs.middleware);
  const messagesDir = join(root, dirs.messages);
  const [
    routeFiles,
    collectionFiles,
    middlewareFiles,
    globalFiles,
    roleFiles,
    messageFiles,
    hookFiles,
  ] = await Promise.all([
    listFiles(apiDir, true, MODULE_EXTENSIONS),
    listFiles(join(root, dirs.collections), false, MODULE_EXTENSIONS),
    listFiles(middlewareDir, false, MODULE_EXTENSIONS),
    listFiles(join(middlewareDir, "global"), false, MODULE_EXTENSIONS),
    listFiles(join(root, dirs.roles), false, MODULE_EXTENSIONS),
    listFiles(messagesDir, false, /\.json$/),
    listFiles(join(root, dirs.hooks), false, MODULE_EXTENSIONS),
  ]);
  const collectionsDir = join(root, dirs.collections);
  const globalDir = join(middlewareDir, "global");
  const rolesDir = join(root, dirs.roles);
  const hooksDir = join(root, dirs.hooks);
  const groups: [string, readonly string[]][] = [
    [apiDir, routeFiles],
    [collectionsDir, collectionFiles],
    [middlewareDir, middlewareFiles],
    [globalDir, globalFiles],
    [rolesDir, roleFiles],
    [hooksDir, hookFiles],
  ];
  const [modules, messages, layers] = await Promise.all([
    importModules(
      groups.flatMap(([dir, files]) => files.map((f) => join(dir, f))),
    ),
    Promise.all(messageFiles.map(async (file) => {
      const path = join(messagesDir, file);
      try {
        return [baseName(file), JSON.parse(await Deno.readTextFile(path))];
      } catch (error) {
        throw new Error(
          `${path} is not valid JSON: ${(error as Error).message}`,
        );
      }
    })),
    loadLayerList(root, config.layers ?? []),
  ]);
  const routes = convertAll(modules, apiDir, routeFiles, asHandler);
  const collections = convertAll(
    modules,
    collectionsDir,
    collectionFiles,
    asCollection,
  );
  const middleware = convertAll(
    modules,
    middlewareDir,
    middlewareFiles,
    asMiddleware,
  );
  const globalMiddleware = convertAll(
    modules,
    globalDir,
    globalFiles,
    asMiddleware,
  );
  const roles = convertAll(modules, rolesDir, roleFiles, asRole);
  const hooks = convertAll(modules, hooksDir, hookFiles, asHooks);
  const collectionSources = Object.fromEntries(
    collectionFiles.map((file) => [baseName(file), join(collectionsDir, file)]),
  );
  return Object.freeze({
    kind: "layer" as const,
    name: name ?? (relative(Deno.cwd(), root) || "."),
    root,
    routes,
    collections: byBaseName(collections),
    sources: { collections: collectionSources },
    middleware: byBaseName(middleware),
    globalMiddleware: byBaseName(globalMiddleware),
    roles: byBaseName(roles),
    messages: Object.fromEntries(messages),
    hooks: Object.values(hooks).flat(),
    layers,
  });
}

function loadLayerList(
  root: string,
  list: ReadonlyArray<string | Layer>,
): Promise<Layer[]> {
  if (!Array.isArray(list)) {
    throw new Error(`${join(root, CONFIG_FILE)}: layers must be an array`);
  }
  return Promise.all(list.map((entry) => {
    if (typeof entry === "string") return loadFolderLayer(resolve(root, entry));
    if (isLayer(entry)) return entry;
    throw new Error(
      `${
        join(root, CONFIG_FILE)
      }: layers must list folder paths or layer objects`,
    );
  }));
}
