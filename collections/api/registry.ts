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
    const middleware: Partial<Record<ApiOperation, HandlerFunction[]>> = {};
    for (const operation of API_OPERATIONS) {
      const policy = exposure[operation];
      if (!policy) continue;
      middleware[operation] = policy.middleware.map((name) => {
        const found = host.layers.middleware.get(name);
        if (!found) {
          throw new Error(
            `Collection ${resolved.name}: api.${operation} names middleware "${name}" that no layer defines`,
          );
        }
        return found.fn;
      });
    }
    // The wire description is made on the collection's first request, not at boot: an app
    // of a hundred collections serves a few of them at first, and made for all it was a
    // fifth of the registry's boot time (0.17 of 0.92 ms for the 100 of bench/startup).
    let wire: WireCollection | undefined;
    const entry: ApiCollection = Object.freeze({
      name: resolved.name,
      path: collectionPath(resolved.name),
      resolved,
      exposure,
      middleware: Object.freeze(middleware),
      get wire(): WireCollection {
        return wire ??= wireCollection(resolved);
      },
      translatable: resolved.translatedFields.length > 0,
      translatableFields: new Set(
        resolved.translatedFields.map((field) => field.name),
      ),
    });
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
