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

async function importDefault(path: string): Promise<unknown> {
  const module = await import(toFileUrl(path).href);
  if (!("default" in module)) {
    throw new Error(`${path} has no default export`);
  }
  return module.default;
}

async function importAll<T>(
  dir: string,
  files: readonly string[],
  convert: (value: unknown, file: string) => T,
): Promise<Record<string, T>> {
  const values = await Promise.all(
    files.map(async (file) =>
      convert(await importDefault(join(dir, file)), join(dir, file))
    ),
  );
  return Object.fromEntries(files.map((file, i) => [file, values[i]]));
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
  const [
    routes,
    collections,
    middleware,
    globalMiddleware,
    roles,
    hooks,
    messages,
    layers,
  ] = await Promise.all([
    importAll(apiDir, routeFiles, asHandler),
    importAll(join(root, dirs.collections), collectionFiles, (value) => value),
    importAll(middlewareDir, middlewareFiles, asMiddleware),
    importAll(join(middlewareDir, "global"), globalFiles, asMiddleware),
    importAll(join(root, dirs.roles), roleFiles, (value) => value),
    importAll(join(root, dirs.hooks), hookFiles, asHooks),
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
  return Object.freeze({
    kind: "layer" as const,
    name: name ?? (relative(Deno.cwd(), root) || "."),
    root,
    routes,
    collections: byBaseName(collections) as Layer["collections"],
    middleware: byBaseName(middleware),
    globalMiddleware: byBaseName(globalMiddleware),
    roles: byBaseName(roles) as Layer["roles"],
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
