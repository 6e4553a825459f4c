/**
 * Loads a folder layer: its config file and every piece under its folders.
 *
 * @module
 */
import {
  childHrefs,
  childPath,
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

/** The extensions of module files; sets and string calls, where regular expressions ran cold. */
const MODULE_EXTENSIONS: ReadonlySet<string> = new Set([
  "ts",
  "tsx",
  "js",
  "mjs",
  "mts",
  "jsx",
]);

/** The name without its extension when that is one of `extensions`, else `undefined`. */
function withoutExtension(
  name: string,
  extensions: ReadonlySet<string>,
): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot !== -1 && extensions.has(name.slice(dot + 1))
    ? name.slice(0, dot)
    : undefined;
}

const JSON_EXTENSION: ReadonlySet<string> = new Set(["json"]);

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
 * Lists module files under `dir` (recursively when asked), as paths relative to `dir`, in
 * name order. Synchronous on purpose: a route folder holds a directory per path segment, and
 * one async `readDir` per directory costs three times as long as the blocking calls (boot
 * serves nothing meanwhile anyway). The names are sorted by the built-in comparison: a
 * comparator function runs cold, in the interpreter, for every pair.
 */
function listFiles(
  dir: string,
  recursive: boolean,
  extensions: ReadonlySet<string>,
  prefix = "",
  files: string[] = [],
): string[] {
  const names: string[] = [];
  let dirs: Set<string> | undefined;
  try {
    for (
      const entry of Deno.readDirSync(prefix ? childPath(dir, prefix) : dir)
    ) {
      const name = entry.name;
      if (entry.isDirectory) {
        if (!recursive) continue;
        (dirs ??= new Set()).add(name);
        names.push(name);
      } else if (
        entry.isFile && withoutExtension(name, extensions) !== undefined &&
        !name.endsWith(".d.ts")
      ) {
        names.push(name);
      }
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return files;
    throw error;
  }
  names.sort();
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const rel = prefix ? `${prefix}/${name}` : name;
    if (dirs?.has(name)) listFiles(dir, true, extensions, rel, files);
    else files.push(rel);
  }
  return files;
}

function defaultOf(module: Record<string, unknown>, path: string): unknown {
  if (!("default" in module)) throw noDefaultExport(path);
  return module.default;
}

function noDefaultExport(path: string): Error {
  return new Error(`${path} has no default export`);
}

/** Stands for the default export of a module that has none, until its turn to be reported. */
const NO_DEFAULT = Symbol("no default export");

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
 * The default exports of many modules, imported at once: the files of each
 * `[folder, files]` group, in order ({@link NO_DEFAULT} for a module without one). One
 * generated module importing them all lets the runtime build the module graph once instead of
 * once per file (a thousand `import()` calls take seconds one after the other, minutes all at
 * once); it imports default exports alone, so no module namespace object is made for any of
 * them. The generated module is served from a `blob:` URL: every module it imports keeps its
 * importer's URL, and a `data:` URL holding a thousand specifiers makes that copying
 * quadratic (6.7 s against 0.65 s for a thousand route files). When any of them fails (one
 * without a default export among them), they load one by one so the error names the file.
 */
async function importDefaults(
  groups: readonly (readonly [string, readonly string[]])[],
): Promise<unknown[]> {
  let source = "";
  let list = "";
  let count = 0;
  for (const [dir, files] of groups) {
    if (files.length === 0) continue;
    const hrefs = childHrefs(dir, files);
    for (let i = 0; i < hrefs.length; i++) {
      source += `import d${count} from ${JSON.stringify(hrefs[i])};\n`;
      list += `d${count++},`;
    }
  }
  if (count === 0) return [];
  source += `export default [${list}];\n`;
  const url = URL.createObjectURL(
    new Blob([source], { type: "text/javascript" }),
  );
  try {
    return (await import(url)).default;
  } catch {
    // One after the other: a thousand `import()` calls at once take minutes.
    const values: unknown[] = [];
    for (const [dir, files] of groups) {
      for (const file of files) {
        const module = await importOne(childPath(dir, file));
        values.push("default" in module ? module.default : NO_DEFAULT);
      }
    }
    return values;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Converts the default exports of one folder's modules (from `values[from]` on), keyed by
 * file, or by base name when `byName`; `sources` (when given) gets each base name's path.
 */
function convertAll<T>(
  values: readonly unknown[],
  from: number,
  dir: string,
  files: readonly string[],
  convert: (value: unknown, file: string) => T,
  byName: boolean,
  sources?: Record<string, string>,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    const path = childPath(dir, file);
    const exported = values[from + i];
    if (exported === NO_DEFAULT) throw noDefaultExport(path);
    const value = convert(exported, path);
    if (!byName) {
      out[file] = value;
      continue;
    }
    const name = baseName(file);
    out[name] = value;
    if (sources) sources[name] = path;
  }
  return out;
}

/** A file without its module extension, then without `.json`. */
function baseName(file: string): string {
  const name = withoutExtension(file, MODULE_EXTENSIONS) ?? file;
  return withoutExtension(name, JSON_EXTENSION) ?? name;
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
  const list = (
    dir: string,
    recursive: boolean,
    extensions: ReadonlySet<string>,
  ) =>
    mayExist(present, dir)
      ? listFiles(join(root, dir), recursive, extensions)
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
    list(dirs.messages, false, JSON_EXTENSION),
    list(dirs.hooks, false, MODULE_EXTENSIONS),
    list(dirs.webhooks, false, MODULE_EXTENSIONS),
  ];
  const collectionsDir = join(root, dirs.collections);
  const globalDir = join(middlewareDir, "global");
  const rolesDir = join(root, dirs.roles);
  const hooksDir = join(root, dirs.hooks);
  const webhooksDir = join(root, dirs.webhooks);
  // In this order: convert() below takes them by position.
  const groups: [string, readonly string[]][] = [
    [apiDir, routeFiles],
    [collectionsDir, collectionFiles],
    [middlewareDir, middlewareFiles],
    [globalDir, globalFiles],
    [rolesDir, roleFiles],
    [hooksDir, hookFiles],
    [webhooksDir, webhookFiles],
  ];
  const [values, messages, layers] = await Promise.all([
    importDefaults(groups),
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
  // The default exports come back in the order of `groups`.
  let taken = 0;
  const convert = <T>(
    [dir, files]: readonly [string, readonly string[]],
    as: (value: unknown, file: string) => T,
    byName: boolean,
    sources?: Record<string, string>,
  ): Record<string, T> => {
    const from = taken;
    taken += files.length;
    return convertAll(values, from, dir, files, as, byName, sources);
  };
  const collectionSources: Record<string, string> = {};
  const roleSources: Record<string, string> = {};
  const routes = convert(groups[0], asHandler, false);
  const collections = convert(
    groups[1],
    asCollection,
    true,
    collectionSources,
  );
  const middleware = convert(groups[2], asMiddleware, true);
  const globalMiddleware = convert(groups[3], asMiddleware, true);
  const roles = convert(groups[4], asRole, true, roleSources);
  const hooks = convert(groups[5], asHooks, false);
  const webhooks = convert(groups[6], asWebhook, true);
  return Object.freeze({
    kind: "layer" as const,
    name: name ?? (relative(Deno.cwd(), root) || "."),
    root,
    routes,
    collections,
    sources: { collections: collectionSources, roles: roleSources },
    middleware,
    globalMiddleware,
    roles,
    messages: Object.fromEntries(messages),
    hooks: Object.values(hooks).flat(),
    webhooks,
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
