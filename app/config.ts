/**
 * The app config (`strata.config.ts`): its shape, `defineConfig`, and validation with defaults.
 *
 * @module
 */
import {
  type Duration,
  parseDuration,
  parseSize,
  type Size,
} from "../router/limits.ts";
import type { Layer } from "./layer.ts";

/** Folders of a layer, relative to its root. */
export interface DirsConfig {
  /** Route files. Default `api`. */
  api?: string;
  /** Collection definitions. Default `collections`. */
  collections?: string;
  /** Middleware (`global/` inside runs on every request). Default `middleware`. */
  middleware?: string;
  /** Role definitions. Default `roles`. */
  roles?: string;
  /** Message catalogs. Default `messages`. */
  messages?: string;
  /** Hook registrations. Default `hooks`. */
  hooks?: string;
}

/** Limits on queries that arrive over HTTP (DESIGN.md §6). */
export interface QueryGuardsConfig {
  /** Most conditions in one `where` (default 100). */
  maxConditions?: number;
  /** Deepest nesting of `has`, `or` and `not` (default 8). */
  maxHasDepth?: number;
  /** Longest list given to `in`, `includesAll` or `includesAny` (default 2000). */
  maxInLength?: number;
  /** Most fields in `select` (default 200). */
  maxSelect?: number;
  /** Most keys in `order` (default 10). */
  maxOrder?: number;
  /** Most relations in `populate` (default 20). */
  maxPopulate?: number;
  /** Deepest `populate` path (default 2). */
  maxPopulateDepth?: number;
  /** Largest string value in bytes (default 4096). */
  maxValueBytes?: number;
  /** Largest `like`/`contains` pattern in bytes (default 512). */
  maxPatternBytes?: number;
  /** Most rows of an unpaged list; a larger `limit` is lowered to it (default 2000). */
  maxLimit?: number;
  /** Largest `perPage`; a larger one is lowered to it (default 500). */
  maxPerPage?: number;
}

/** The folders of a layer when its config names none. */
export const DEFAULT_DIRS: Readonly<Required<DirsConfig>> = Object.freeze({
  api: "api",
  collections: "collections",
  middleware: "middleware",
  roles: "roles",
  messages: "messages",
  hooks: "hooks",
});

/** The app config; every key is optional. */
export interface StrataConfig {
  /** Farther layers, furthest first: folder paths relative to the config file, or layer objects. */
  layers?: ReadonlyArray<string | Layer>;
  /** Folder names. */
  dirs?: DirsConfig;
  /** The database. */
  database?: {
    /** SQLite path, `:memory:`, or `postgres://…`; env `DATABASE_URL` wins. Default `.data/app.db`. */
    url?: string;
    /** Schema sync options. */
    sync?: { force?: boolean };
    /** How long a write waits for a lock before answering 503. Default `2s`. */
    busyTimeout?: Duration;
  };
  /** Server-wide HTTP settings. */
  api?: {
    /** Prefix for every route. */
    basePath?: string;
    /** Larger bodies answer 413. Default `1mb`. */
    maxBodySize?: Size | false;
    /** Middleware + handler time limit (503). Default `30s`. */
    handlerTimeout?: Duration | false;
    /** How long a `waitUntil` promise may run after the response. Default `false`. */
    waitUntilTimeout?: Duration | false;
  };
  /** Routes and messages to drop after the merge. */
  disable?: {
    /** Globs over route ids: `GET /admin/**`, or `/collections/**` for every method. */
    routes?: readonly string[];
    /** Globs over message keys. */
    messages?: readonly string[];
  };
  /** Content locales. */
  collections?: {
    /** Content locales (BCP-47). Default `['en']`. */
    locales?: readonly string[];
    /** The default content locale. Default `'en'`. */
    defaultLocale?: string;
  };
  /** Query guards for HTTP queries. */
  query?: { guards?: QueryGuardsConfig };
  /** The default language of messages. Default `'en'`. */
  defaultLanguage?: string;
  /** Settings of the auth layer. */
  auth?: {
    /** Lifetime of a remembered session, and the ceiling of every session. Default `30d`. */
    sessionMaxAge?: Duration;
    /** Lifetime of a session opened without remember. Default `1d`. */
    transientSessionMaxAge?: Duration;
    /** Name of the session cookie. Default `session`. */
    cookieName?: string;
    /** Login throttling per IP; `false` turns it off. */
    loginRateLimit?: false | { maxFailures?: number; window?: Duration };
    /** scrypt parameters. Defaults `32768` / `8` / `1`. */
    password?: { cost?: number; blockSize?: number; parallelization?: number };
  };
}

/** The config after validation, with every default filled in. */
export interface ResolvedConfig {
  /** Folder names. */
  readonly dirs: Readonly<Required<DirsConfig>>;
  /** The database URL and sync options. */
  readonly database: {
    readonly url: string;
    readonly sync: { readonly force: boolean };
    /** Lock wait in ms. */
    readonly busyTimeout: number;
  };
  /** Server-wide HTTP settings; limits in bytes and ms, `Infinity` when lifted. */
  readonly api: {
    readonly basePath: string;
    readonly maxBodySize: number;
    readonly handlerTimeout: number;
    readonly waitUntilTimeout: number;
  };
  /** Route and message globs dropped after the merge. */
  readonly disable: {
    readonly routes: readonly string[];
    readonly messages: readonly string[];
  };
  /** Content locales, canonical. */
  readonly collections: {
    readonly locales: readonly string[];
    readonly defaultLocale: string;
  };
  /** Query guard overrides. */
  readonly query: { readonly guards: Readonly<QueryGuardsConfig> };
  /** The default language of messages. */
  readonly defaultLanguage: string;
  /** The `auth` section as written; the auth layer validates it. */
  readonly auth: Readonly<NonNullable<StrataConfig["auth"]>>;
}

/**
 * Declares an app config with type checking; `strata.config.ts` default-exports it.
 *
 * @example
 * ```ts
 * import { defineConfig } from "@strata/strata";
 * export default defineConfig({
 *   api: { basePath: "/api", maxBodySize: "2mb" },
 *   collections: { locales: ["en", "de"], defaultLocale: "en" },
 * });
 * ```
 */
export function defineConfig(config: StrataConfig): StrataConfig {
  return config;
}

const KNOWN_KEYS: Record<string, readonly string[] | null> = {
  "": [
    "layers",
    "dirs",
    "database",
    "api",
    "disable",
    "collections",
    "query",
    "defaultLanguage",
    "auth",
  ],
  dirs: ["api", "collections", "middleware", "roles", "messages", "hooks"],
  database: ["url", "sync", "busyTimeout"],
  "database.sync": ["force"],
  api: ["basePath", "maxBodySize", "handlerTimeout", "waitUntilTimeout"],
  disable: ["routes", "messages"],
  collections: ["locales", "defaultLocale"],
  query: ["guards"],
  "query.guards": [
    "maxConditions",
    "maxHasDepth",
    "maxInLength",
    "maxSelect",
    "maxOrder",
    "maxPopulate",
    "maxPopulateDepth",
    "maxValueBytes",
    "maxPatternBytes",
    "maxLimit",
    "maxPerPage",
  ],
  auth: [
    "sessionMaxAge",
    "transientSessionMaxAge",
    "cookieName",
    "loginRateLimit",
    "password",
  ],
  "auth.password": ["cost", "blockSize", "parallelization"],
};

function assertKnownKeys(value: unknown, path: string, source: string): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${source}: ${path || "the config"} must be an object`);
  }
  const known = KNOWN_KEYS[path];
  if (!known) return;
  for (const key of Object.keys(value)) {
    const keyPath = path ? `${path}.${key}` : key;
    if (!known.includes(key)) {
      throw new Error(`${source}: unknown config key "${keyPath}"`);
    }
    if (keyPath in KNOWN_KEYS) {
      assertKnownKeys((value as Record<string, unknown>)[key], keyPath, source);
    }
  }
}

function stringList(value: unknown, key: string, source: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new Error(`${source}: ${key} must be an array of strings`);
  }
  return [...value];
}

function canonicalLocale(tag: unknown, key: string, source: string): string {
  try {
    if (typeof tag === "string") return Intl.getCanonicalLocales(tag)[0];
  } catch { /* reported below */ }
  throw new Error(
    `${source}: ${key} has an invalid locale ${JSON.stringify(tag)}`,
  );
}

function normalizeBasePath(value: unknown, source: string): string {
  if (value === undefined || value === "" || value === "/") return "";
  if (
    typeof value !== "string" || !value.startsWith("/") || value.includes("?")
  ) {
    throw new Error(`${source}: api.basePath must be a path starting with "/"`);
  }
  return value.replace(/\/+$/, "");
}

function positiveIntegers(
  guards: Record<string, unknown> | undefined,
  source: string,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(guards ?? {})) {
    if (!Number.isSafeInteger(value) || (value as number) < 1) {
      throw new Error(
        `${source}: query.guards.${key} must be a positive integer`,
      );
    }
    out[key] = value as number;
  }
  return out;
}

/**
 * Validates a config and fills in defaults; a bad value throws an Error naming the key and
 * `source` (the config file).
 *
 * @example
 * ```ts
 * import { resolveConfig } from "./config.ts";
 * const config = resolveConfig({ api: { maxBodySize: "2mb" } }, "strata.config.ts");
 * config.api.maxBodySize; // 2097152
 * ```
 */
export function resolveConfig(
  config: StrataConfig,
  source: string,
  env: { databaseUrl?: string } = {},
): ResolvedConfig {
  assertKnownKeys(config, "", source);
  const locales = config.collections?.locales === undefined
    ? ["en"]
    : stringList(config.collections.locales, "collections.locales", source)
      .map((tag) => canonicalLocale(tag, "collections.locales", source));
  if (locales.length === 0) {
    throw new Error(
      `${source}: collections.locales must name at least one locale`,
    );
  }
  const defaultLocale = config.collections?.defaultLocale === undefined
    ? locales[0]
    : canonicalLocale(
      config.collections.defaultLocale,
      "collections.defaultLocale",
      source,
    );
  if (!locales.includes(defaultLocale)) {
    throw new Error(
      `${source}: collections.defaultLocale "${defaultLocale}" is not one of collections.locales`,
    );
  }
  const dirs = { ...DEFAULT_DIRS, ...config.dirs };
  for (const [key, value] of Object.entries(dirs)) {
    if (typeof value !== "string" || value === "") {
      throw new Error(`${source}: dirs.${key} must be a non-empty string`);
    }
  }
  const limit = <T>(
    parse: (v: T | false, key: string) => number,
    value: T | false | undefined,
    fallback: T | false,
    key: string,
  ) => {
    try {
      return parse(value === undefined ? fallback : value, key);
    } catch (error) {
      throw new Error(`${source}: ${(error as Error).message}`);
    }
  };
  const url = env.databaseUrl ?? config.database?.url ?? ".data/app.db";
  if (typeof url !== "string" || url === "") {
    throw new Error(`${source}: database.url must be a non-empty string`);
  }
  return Object.freeze({
    dirs: Object.freeze(dirs),
    database: Object.freeze({
      url,
      sync: Object.freeze({ force: config.database?.sync?.force === true }),
      busyTimeout: limit(
        parseDuration,
        config.database?.busyTimeout,
        "2s",
        "database.busyTimeout",
      ),
    }),
    api: Object.freeze({
      basePath: normalizeBasePath(config.api?.basePath, source),
      maxBodySize: limit(
        parseSize,
        config.api?.maxBodySize,
        "1mb",
        "api.maxBodySize",
      ),
      handlerTimeout: limit(
        parseDuration,
        config.api?.handlerTimeout,
        "30s",
        "api.handlerTimeout",
      ),
      waitUntilTimeout: limit(
        parseDuration,
        config.api?.waitUntilTimeout,
        false,
        "api.waitUntilTimeout",
      ),
    }),
    disable: Object.freeze({
      routes: Object.freeze(
        stringList(config.disable?.routes, "disable.routes", source),
      ),
      messages: Object.freeze(
        stringList(config.disable?.messages, "disable.messages", source),
      ),
    }),
    collections: Object.freeze({
      locales: Object.freeze(locales),
      defaultLocale,
    }),
    query: Object.freeze({
      guards: Object.freeze(
        positiveIntegers(
          config.query?.guards as Record<string, unknown> | undefined,
          source,
        ),
      ),
    }),
    defaultLanguage: config.defaultLanguage === undefined
      ? "en"
      : canonicalLocale(config.defaultLanguage, "defaultLanguage", source),
    auth: Object.freeze({ ...config.auth }),
  });
}
