/**
 * The collections API's view of an app, computed once at boot: which collections are exposed
 * under which path, their normalised `api` policies with middleware resolved, and their wire
 * descriptions.
 *
 * @module
 */
import type { ResolvedCollection } from "../resolve.ts";
import type { HandlerFunction } from "../../router/handler.ts";
import type { QueryGuards, WireCollection, WireField } from "../wire/types.ts";
import { DEFAULT_QUERY_GUARDS } from "../wire/types.ts";
import type { ApiHost } from "./host.ts";
import {
  API_OPERATIONS,
  type ApiOperation,
  type ExposurePolicy,
  normalizeApiOption,
} from "./exposure.ts";
import { collectionPath } from "./names.ts";

/** One collection as the API serves it. */
export interface ApiCollection {
  /** The collection name. */
  readonly name: string;
  /** Its kebab-case path segment. */
  readonly path: string;
  /** The data layer's view of it. */
  readonly resolved: ResolvedCollection;
  /** Its operations; a missing one is closed. */
  readonly exposure: ExposurePolicy;
  /** Middleware of each open operation, resolved. */
  readonly middleware: Readonly<
    Partial<Record<ApiOperation, readonly HandlerFunction[]>>
  >;
  /** Its description for the wire grammar. */
  readonly wire: WireCollection;
  /** Whether it has translatable fields. */
  readonly translatable: boolean;
  /** The names of its translatable fields. */
  readonly translatableFields: ReadonlySet<string>;
}

/** Every collection of an app, by path and by name. */
export interface ApiRegistry {
  /** Collections by kebab-case path (exposed or not: the API answers alike). */
  readonly byPath: ReadonlyMap<string, ApiCollection>;
  /** Collections by name. */
  readonly byName: ReadonlyMap<string, ApiCollection>;
  /** Query guards in force. */
  readonly guards: Readonly<QueryGuards>;
  /** Content locales. */
  readonly locales: readonly string[];
  /** The default content locale. */
  readonly defaultLocale: string;
}

const registries = new WeakMap<ApiHost, ApiRegistry>();

/** The names of a collection without translatable fields (most collections): one for all. */
const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * One collection's entry. The wire description is made on the collection's first request,
 * not at boot: an app of a hundred collections serves a few of them at first, and made for
 * all it was a fifth of the registry's boot time (0.17 of 0.92 ms for the 100 of
 * bench/startup). A class keeps that getter on the prototype, where an object literal made
 * an accessor and a closure for every collection.
 */
class Entry implements ApiCollection {
  readonly name: string;
  readonly path: string;
  readonly resolved: ResolvedCollection;
  readonly exposure: ExposurePolicy;
  readonly middleware: Readonly<
    Partial<Record<ApiOperation, readonly HandlerFunction[]>>
  >;
  readonly translatable: boolean;
  readonly translatableFields: ReadonlySet<string>;
  #wire: WireCollection | undefined;

  constructor(
    resolved: ResolvedCollection,
    exposure: ExposurePolicy,
    middleware: Partial<Record<ApiOperation, readonly HandlerFunction[]>>,
  ) {
    this.name = resolved.name;
    this.path = collectionPath(resolved.name);
    this.resolved = resolved;
    this.exposure = exposure;
    this.middleware = Object.freeze(middleware);
    const translated = resolved.translatedFields;
    this.translatable = translated.length > 0;
    if (translated.length === 0) this.translatableFields = NO_FIELDS;
    else {
      const names = new Set<string>();
      for (let i = 0; i < translated.length; i++) names.add(translated[i].name);
      this.translatableFields = names;
    }
    Object.freeze(this);
  }

  get wire(): WireCollection {
    return this.#wire ??= wireCollection(this.resolved);
  }
}

function wireCollection(resolved: ResolvedCollection): WireCollection {
  const fields: Record<string, WireField> = {};
  for (const field of resolved.fieldList) {
    fields[field.name] = {
      kind: field.kind,
      nullable: field.nullable,
      readable: field.readable,
      translatable: field.translatable,
      target: field.target,
      choices: field.options.choices,
      search: field.search,
    };
  }
  return Object.freeze({ name: resolved.name, fields: Object.freeze(fields) });
}

/** The middleware of each open operation of `exposure`, resolved by name. */
function middlewareOf(
  host: ApiHost,
  name: string,
  exposure: ExposurePolicy,
): Partial<Record<ApiOperation, HandlerFunction[]>> {
  const middleware: Partial<Record<ApiOperation, HandlerFunction[]>> = {};
  for (let i = 0; i < API_OPERATIONS.length; i++) {
    const operation = API_OPERATIONS[i];
    const policy = exposure[operation];
    if (!policy) continue;
    const names = policy.middleware;
    const found: HandlerFunction[] = [];
    for (let m = 0; m < names.length; m++) {
      const definition = host.layers.middleware.get(names[m]);
      if (!definition) {
        throw new Error(
          `Collection ${name}: api.${operation} names middleware "${
            names[m]
          }" that no layer defines`,
        );
      }
      found.push(definition.fn);
    }
    middleware[operation] = found;
  }
  return middleware;
}

/**
 * Builds (once per host) the API registry; throws at boot for a bad `api` option or a
 * middleware name no layer defines.
 *
 * @example
 * ```ts ignore
 * const registry = apiRegistry(app);
 * registry.byPath.get("posts")?.name; // "Posts"
 * ```
 */
export function apiRegistry(host: ApiHost): ApiRegistry {
  const cached = registries.get(host);
  if (cached) return cached;
  const byPath = new Map<string, ApiCollection>();
  const byName = new Map<string, ApiCollection>();
  for (const resolved of host.data.collections.values()) {
    const exposure = normalizeApiOption(resolved.name, resolved.definition.api);
    const entry = new Entry(
      resolved,
      exposure,
      middlewareOf(host, resolved.name, exposure),
    );
    const twin = byPath.get(entry.path);
    if (twin) {
      throw new Error(
        `Collections ${twin.name} and ${entry.name} share the API path /collections/${entry.path}`,
      );
    }
    byPath.set(entry.path, entry);
    byName.set(entry.name, entry);
  }
  const registry: ApiRegistry = Object.freeze({
    byPath,
    byName,
    guards: Object.freeze({
      ...DEFAULT_QUERY_GUARDS,
      ...host.config.query.guards,
    }),
    locales: host.data.locales,
    defaultLocale: host.data.defaultLocale,
  });
  registries.set(host, registry);
  return registry;
}
