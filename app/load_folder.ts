/**
 * Loads a folder layer: its config file and every piece under its folders.
 *
 * @module
 */
import {
  childPath,
  fileHref,
  join,
  relative,
  resolve,
  toFileUrl,
} from "./_path.ts";
import { DEFAULT_DIRS, type StrataConfig } from "./config.ts";
import { isLayer, type Layer } from "./layer.ts";
import { flattenMessages, type NestedMessages } from "../i18n/catalog.ts";
import { parseMessage } from "../i18n/_message_format.ts";
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
import {
  type CollectionDefinition,
  FieldOptionError,
} from "../collections/define.ts";
import type { RoleDefinition } from "../auth/capabilities.ts";
import { isWebhook, type WebhookDefinition } from "../webhooks/define.ts";

/** The file name of an app or layer config. */
export const CONFIG_FILE = "strata.config.ts";

const MODULE_EXTENSIONS = /\.(ts|tsx|js|mjs|mts|jsx)$/;

/**
 * The names in folder `dir`, none when it does not exist. Boot lists the app folder once to
 * learn which of its folders and files exist: asking for each one that does not cost a
 * thrown NotFound apiece, more than listing the folder.
 */
function namesIn(dir: string): Set<string> {
  try {
    const names = new Set<string>();
    for (const entry of Deno.readDirSync(dir)) names.add(entry.name);
    return names;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return new Set();
    throw error;
  }
}

/** Whether `path` (relative to a folder holding `names`) can exist: its first segment does. */
function mayExist(names: ReadonlySet<string>, path: string): boolean {
  const first = path.split(/[\\/]/).find((segment) => segment !== "");
  return first === undefined || first === "." || first === ".." ||
    names.has(first);
}

/**
 * Lists module files under `dir` (recursively when asked), as paths relative to `dir`.
 * Synchronous on purpose: a route folder holds a directory per path segment, and one async
 * `readDir` per directory costs three times as long as the blocking calls (boot serves
 * nothing meanwhile anyway).
 */
function listFiles(
  dir: string,
  recursive: boolean,
  pattern: RegExp,
  prefix = "",
  files: string[] = [],
): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(prefix ? join(dir, prefix) : dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return files;
    throw error;
  }
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory && recursive) {
      listFiles(dir, true, pattern, rel, files);
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
    if (error instanceof FieldOptionError) {
      const field = error.field;
      // A collection file: name the field as Collection.field.
      const name = `${
        baseName(path.slice(path.lastIndexOf("/") + 1))
      }.${field}`;
      throw new Error(
        `${path}: ${name}: ${
          error.message.replace(` on field "${field}"`, "")
        }`,
        { cause: error },
      );
    }
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
 * build the module graph once instead of once per file (a thousand `import()` calls take
 * seconds one after the other, minutes all at once). The generated module is
 * served from a `blob:` URL: every module it imports keeps its importer's URL, and a `data:`
 * URL holding a thousand specifiers makes that copying quadratic (6.7 s against 0.65 s for a
 * thousand route files). When any of them fails, they load one by one so the error names
 * the file.
 */
async function importModules(
  paths: readonly string[],
): Promise<Record<string, unknown>[]> {
  if (paths.length === 0) return [];
  let source = "";
  for (let i = 0; i < paths.length; i++) {
    source += `export * as m${i} from ${JSON.stringify(fileHref(paths[i]))};\n`;
  }
  const url = URL.createObjectURL(
    new Blob([source], { type: "text/javascript" }),
  );
  try {
    const batch = await import(url);
    return paths.map((_, i) => batch[`m${i}`]);
  } catch {
    // One after the other: a thousand `import()` calls at once take minutes.
    const modules: Record<string, unknown>[] = [];
    for (const path of paths) modules.push(await importOne(path));
    return modules;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Converts the default exports of one folder's modules, keyed by file. */
function convertAll<T>(
  modules: readonly Record<string, unknown>[],
  dir: string,
  files: readonly string[],
  convert: (value: unknown, file: string) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (let i = 0; i < files.length; i++) {
    const path = childPath(dir, files[i]);
    out[files[i]] = convert(defaultOf(modules[i], path), path);
  }
  return out;
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

function asWebhook(value: unknown, file: string): WebhookDefinition {
  if (isWebhook(value)) return value;
  throw new Error(`${file} must default-export defineWebhook({ … })`);
}

function asHooks(value: unknown, file: string): HookRegistration[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every(isHookRegistration)) {
    throw new Error(`${file} must default-export hook(…) or an array of them`);
  }
  // The file names the hook (record:afterCommit remembers its runs under it).
  const name = baseName(file.slice(file.lastIndexOf("/") + 1));
  return list.map((registration, i) =>
    Object.freeze({
      ...registration,
      id: registration.id ?? (list.length > 1 ? `${name}#${i}` : name),
    })
  );
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
  if (!namesIn(root).has(CONFIG_FILE)) return {};
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
  const present = namesIn(root);
  const list = (dir: string, recursive: boolean, pattern: RegExp) =>
    mayExist(present, dir)
      ? listFiles(join(root, dir), recursive, pattern)
      : [];
  const [
    routeFiles,
    collectionFiles,
    middlewareFiles,
    globalFiles,
    roleFiles,
    messageFiles,
    hookFiles,
    webhookFiles,
  ] = [
    list(dirs.api, true, MODULE_EXTENSIONS),
    list(dirs.collections, false, MODULE_EXTENSIONS),
    list(dirs.middleware, false, MODULE_EXTENSIONS),
    list(join(dirs.middleware, "global"), false, MODULE_EXTENSIONS),
    list(dirs.roles, false, MODULE_EXTENSIONS),
    list(dirs.messages, false, /\.json$/),
    list(dirs.hooks, false, MODULE_EXTENSIONS),
    list(dirs.webhooks, false, MODULE_EXTENSIONS),
  ];
  const collectionsDir = join(root, dirs.collections);
  const globalDir = join(middlewareDir, "global");
  const rolesDir = join(root, dirs.roles);
  const hooksDir = join(root, dirs.hooks);
  const webhooksDir = join(root, dirs.webhooks);
  const groups: [string, readonly string[]][] = [
    [apiDir, routeFiles],
    [collectionsDir, collectionFiles],
    [middlewareDir, middlewareFiles],
    [globalDir, globalFiles],
    [rolesDir, roleFiles],
    [hooksDir, hookFiles],
    [webhooksDir, webhookFiles],
  ];
  const [modules, messages, layers] = await Promise.all([
    importModules(
      groups.flatMap(([dir, files]) => files.map((f) => childPath(dir, f))),
    ),
    Promise.all(messageFiles.map(async (file) => {
      const path = childPath(messagesDir, file);
      let catalog: unknown;
      try {
        catalog = JSON.parse(await Deno.readTextFile(path));
      } catch (error) {
        throw new Error(
          `${path} is not valid JSON: ${(error as Error).message}`,
        );
      }
      checkCatalog(catalog, path);
      return [baseName(file), catalog];
    })),
    loadLayerList(root, config.layers ?? []),
  ]);
  // The modules come back in the order of `groups`.
  let taken = 0;
  const next = (files: readonly string[]) =>
    modules.slice(taken, taken += files.length);
  const routes = convertAll(next(routeFiles), apiDir, routeFiles, asHandler);
  const collections = convertAll(
    next(collectionFiles),
    collectionsDir,
    collectionFiles,
    asCollection,
  );
  const middleware = convertAll(
    next(middlewareFiles),
    middlewareDir,
    middlewareFiles,
    asMiddleware,
  );
  const globalMiddleware = convertAll(
    next(globalFiles),
    globalDir,
    globalFiles,
    asMiddleware,
  );
  const roles = convertAll(next(roleFiles), rolesDir, roleFiles, asRole);
  const hooks = convertAll(next(hookFiles), hooksDir, hookFiles, asHooks);
  const webhooks = convertAll(
    next(webhookFiles),
    webhooksDir,
    webhookFiles,
    asWebhook,
  );
  const collectionSources = Object.fromEntries(
    collectionFiles.map((
      file,
    ) => [baseName(file), childPath(collectionsDir, file)]),
  );
  return Object.freeze({
    kind: "layer" as const,
    name: name ?? (relative(Deno.cwd(), root) || "."),
    root,
    routes,
    collections: byBaseName(collections),
    sources: {
      collections: collectionSources,
      roles: Object.fromEntries(
        roleFiles.map((file) => [baseName(file), childPath(rolesDir, file)]),
      ),
    },
    middleware: byBaseName(middleware),
    globalMiddleware: byBaseName(globalMiddleware),
    roles: byBaseName(roles),
    messages: Object.fromEntries(messages),
    hooks: Object.values(hooks).flat(),
    webhooks: byBaseName(webhooks),
    layers,
  });
}

/** Throws, naming the file and key, for a catalog whose message is not valid ICU syntax. */
function checkCatalog(catalog: unknown, path: string): void {
  let flat: Record<string, string>;
  try {
    flat = flattenMessages(catalog as NestedMessages);
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
  for (const [key, template] of Object.entries(flat)) {
    try {
      parseMessage(template);
    } catch (error) {
      throw new Error(
        `${path}: message "${key}" is not valid ICU MessageFormat (${
          (error as Error).message
        }); fix its braces or quote literal ones as '{'`,
      );
    }
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

function loadLayerList(
  root: string,
  list: ReadonlyArray<string | Layer>,
): Promise<Layer[]> {
  if (!Array.isArray(list)) {
    throw new Error(`${join(root, CONFIG_FILE)}: layers must be an array`);
  }
  return Promise.all(list.map(async (entry) => {
    if (typeof entry === "string") {
      const folder = resolve(root, entry);
      if (!(await isDirectory(folder))) {
        throw new Error(
          `${
            join(root, CONFIG_FILE)
          }: layer "${entry}" not found (no folder at ${folder}); fix the path in layers (relative to this file)`,
        );
      }
      return await loadFolderLayer(folder);
    }
    if (isLayer(entry)) return entry;
    throw new Error(
      `${
        join(root, CONFIG_FILE)
      }: layers must list folder paths or layer objects`,
    );
  }));
}
