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
import { clientResolver, type TrustProxy } from "../router/forwarded.ts";
import { checkDatabaseUrl, resolveDatabaseUrl } from "./database_url.ts";
import { dirname } from "node:path";
import {
  MAIL_DEFAULTS,
  type MailConfig,
  type MailSettings,
  resolveMailSettings,
} from "../mail/settings.ts";

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
  /** Webhook definitions. Default `webhooks`. */
  webhooks?: string;
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
  /** Most `like`/`contains`/`startsWith`/`endsWith` conditions in one filter (default 8). */
  maxPatterns?: number;
  /** Most bytes of all patterns of one filter together (default 1024). */
  maxPatternBytesTotal?: number;
  /** Largest `search` text in bytes (default 256). */
  maxSearchBytes?: number;
  /** Most rows of an unpaged list; a larger `limit` is lowered to it (default 2000). */
  maxLimit?: number;
  /** Largest `perPage`; a larger one is lowered to it (default 500). */
  maxPerPage?: number;
}

/** Where uploaded files are stored. */
export type StorageConfig =
  | {
    /** A folder (relative to the app's root); the default. */
    driver: "fs";
    /** Default `.data/uploads`. */
    dir?: string;
  }
  | {
    /** Any S3-compatible service (SigV4). */
    driver: "s3";
    /** The bucket. */
    bucket: string;
    /** The service's URL, e.g. `https://s3.eu-central-1.amazonaws.com`. */
    endpoint: string;
    /** The signing region. Default `us-east-1`. */
    region?: string;
    /** The access key. */
    accessKeyId: string;
    /** The secret key. */
    secretAccessKey: string;
    /** Path-style URLs (`endpoint/bucket/key`), as most S3-compatible servers want. Default true. */
    forcePathStyle?: boolean;
  };

/** The `uploads` section (see docs/files.md). */
export interface UploadsConfig {
  /** The largest `maxSize` a file field may name. Default `100mb`. */
  maxSize?: Size;
  /** Unattached uploads older than this are deleted. Default `1d`. */
  orphanTtl?: Duration;
  /** How often the sweeper runs on each instance. Default `1m`. */
  sweepInterval?: Duration;
  /** The key private file links are signed with (required when `STRATA_ENV=production`). */
  secret?: string;
  /** Lifetime of a signed link. Default `1h`. */
  signedUrlMaxAge?: Duration;
  /** The widths image variants are made in. Default `[64,128,256,320,640,960,1280,1920]`. */
  imageWidths?: readonly number[];
  /** Larger images are refused at upload. Default 50,000,000 pixels. */
  maxImagePixels?: number;
  /** Where files are stored. Default `{ driver: "fs", dir: ".data/uploads" }`. */
  storage?: StorageConfig;
}

/** The `uploads` section with defaults filled, sizes in bytes and durations in ms. */
export interface ResolvedUploadsConfig {
  /** The largest `maxSize` a field may name, in bytes. */
  readonly maxSize: number;
  /** Age in ms after which an unattached upload is deleted. */
  readonly orphanTtl: number;
  /** Sweeper period in ms. */
  readonly sweepInterval: number;
  /** The configured signing secret, or `null` (then one is kept in the database). */
  readonly secret: string | null;
  /** Signed link lifetime in ms. */
  readonly signedUrlMaxAge: number;
  /** Allowed variant widths, ascending. */
  readonly imageWidths: readonly number[];
  /** Largest image accepted, in pixels. */
  readonly maxImagePixels: number;
  /** Where files are stored. */
  readonly storage: Readonly<StorageConfig>;
}

/** The folders of a layer when its config names none. */
export const DEFAULT_DIRS: Readonly<Required<DirsConfig>> = Object.freeze({
  api: "api",
  collections: "collections",
  middleware: "middleware",
  roles: "roles",
  messages: "messages",
  hooks: "hooks",
  webhooks: "webhooks",
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
    /**
     * PostgreSQL: how many distinct statement texts each process sends as named prepared
     * statements, parsed and planned once per connection instead of once per request (a
     * text is named the second time it runs). `false` sends every statement unnamed, as
     * PgBouncer in transaction pooling mode before 1.21 needs. Default `200`.
     */
    preparedStatements?: number | false;
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
    /**
     * Whether validated routes check their answers against their `response` schema (a
     * mismatch is a logged 500). Default: on under `createTestApp`, off otherwise.
     */
    validateResponses?: boolean;
    /**
     * The OpenAPI 3.1 document of the app: `true` serves it at `/openapi.json`, a path
     * string serves it there, `false` serves none. Default `true`.
     */
    openapi?: boolean | string;
    /**
     * Reverse proxies whose `X-Forwarded-For` / `Forwarded` headers are believed: a hop count
     * or their addresses (IPs, IPv4 CIDR ranges). Default `false`: the socket address is the
     * client (login throttling keys on it).
     */
    trustProxy?: TrustProxy;
    /**
     * The public origin of the app (`https://example.com`, with a path prefix if the app is
     * mounted under one): links in mails start with it. Default: the origin of the request
     * that caused the mail.
     */
    publicUrl?: string;
  };
  /** Outgoing mail: sender, transport (`log` or SMTP) and retries. */
  mail?: MailConfig;
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
  /** Limits on queries that arrive over HTTP. */
  query?: {
    /** Guards on a query's shape. */
    guards?: QueryGuardsConfig;
    /**
     * How long one statement of a query that arrived over HTTP may run before the request
     * answers 503 `queryTimeout` (default `'10s'`; `false` lifts it).
     */
    timeout?: Duration | false;
  };
  /** The default language of messages. Default `'en'`. */
  defaultLanguage?: string;
  /** Change events: the change log, record hooks and realtime streams. */
  events?: {
    /** How long the change log keeps a change. Default `24h`. */
    retention?: Duration;
    /** Most changes the log keeps (the newest). Default 1,000,000. */
    maxRows?: number;
    /** How soon a process notices another process's writes on SQLite. Default `100ms`. */
    pollInterval?: Duration;
    /** First retry of a failing `record:afterCommit` function (then doubling, up to 1h). Default `30s`. */
    retryBase?: Duration;
    /** How long a failing `record:afterCommit` function is retried. Default `24h`. */
    retryFor?: Duration;
    /** Open event streams per user (anonymous: per client address), per process. Default 10. */
    maxStreamsPerUser?: number;
    /** Open event streams per process. Default 10,000. */
    maxStreams?: number;
    /** Events waiting for a slow client before it gets `reset` and is closed. Default 1,000. */
    maxBuffered?: number;
  };
  /** Webhook deliveries (`webhooks/<name>.ts`). */
  webhooks?: {
    /** How long a receiver has to answer an attempt. Default `10s`. */
    timeout?: Duration;
    /** First retry of a failed attempt (then doubling with jitter, up to 1h). Default `30s`. */
    retryBase?: Duration;
    /** How long a failing delivery is retried before it is `failed`. Default `24h`. */
    retryFor?: Duration;
    /**
     * How long an instance's claim on a webhook's deliveries lasts without renewal (a killed
     * instance's claims are taken over after it). At least twice `timeout`. Default `1m`.
     */
    claimTtl?: Duration;
    /** Allow `http:` targets. Default `false` (https only). */
    allowInsecure?: boolean;
    /** Allow private, loopback and link-local target addresses. Default `false`. */
    allowPrivateNetworks?: boolean;
  };
  /** File fields: limits, storage, private links and image variants (docs/files.md). */
  uploads?: UploadsConfig;
  /** Settings of the auth layer. */
  auth?: {
    /** Lifetime of a remembered session, and the ceiling of every session. Default `30d`. */
    sessionMaxAge?: Duration;
    /** Lifetime of a session opened without remember. Default `1d`. */
    transientSessionMaxAge?: Duration;
    /** Name of the session cookie. Default `session`. */
    cookieName?: string;
    /** Login throttling per IP; `false` turns it off. */
    loginRateLimit?: false | {
      /** Failed logins per client address inside `window`. Default 10. */
      maxFailures?: number;
      /** Default `1m`. */
      window?: Duration;
      /** Failed logins per account (email) inside `accountWindow`. Default 20. */
      maxAccountFailures?: number;
      /** Default `15m`. */
      accountWindow?: Duration;
    };
    /**
     * scrypt parameters (defaults `32768` / `8` / `1`) and the shortest password any write
     * accepts (`minLength`, default 8; the 10,000 most common passwords are always refused).
     */
    password?: {
      cost?: number;
      blockSize?: number;
      parallelization?: number;
      minLength?: number;
    };
    /**
     * Self-service sign-up at `POST /auth/signup`: `false` (default: the route does not
     * exist), `true`, or `{ roles, requireVerifiedEmail }`.
     */
    signup?: boolean | {
      /** Roles a new account receives. Default none. */
      roles?: readonly string[];
      /** Sign-in needs a verified email; sign-up then reveals nothing. Default false. */
      requireVerifiedEmail?: boolean;
    };
    /** Lifetime of an email verification or email change link. Default `24h`. */
    verifyTokenMaxAge?: Duration;
    /** Lifetime of a password reset link. Default `1h`. */
    resetTokenMaxAge?: Duration;
    /** Throttling of reset and verification mails; `false` turns it off. */
    resetRateLimit?: false | {
      /** Mails one address may receive inside `window`. Default 5. */
      maxPerEmail?: number;
      /** Requests one client address may make inside `window`. Default 20. */
      maxPerIp?: number;
      /** Default `1h`. */
      window?: Duration;
    };
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
    /** PostgreSQL: statement texts named per process; 0 when off. */
    readonly preparedStatements: number;
  };
  /** Server-wide HTTP settings; limits in bytes and ms, `Infinity` when lifted. */
  readonly api: {
    readonly basePath: string;
    readonly maxBodySize: number;
    readonly handlerTimeout: number;
    readonly waitUntilTimeout: number;
    /** Whether validated routes check their answers. */
    readonly validateResponses: boolean;
    /** Where the OpenAPI document is served, `false` for nowhere. */
    readonly openapi: string | false;
    /** Trusted reverse proxies (`false`: none). */
    readonly trustProxy: TrustProxy;
    /** The public origin links in mails start with, without a trailing slash; null: the request's. */
    readonly publicUrl: string | null;
  };
  /** Outgoing mail, durations in ms. */
  readonly mail: MailSettings;
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
  /** Query guard overrides and the statement deadline (ms; `Infinity` for none). */
  readonly query: {
    readonly guards: Readonly<QueryGuardsConfig>;
    readonly timeout: number;
  };
  /** The default language of messages. */
  readonly defaultLanguage: string;
  /** The `auth` section as written; the auth layer validates it. */
  readonly auth: Readonly<NonNullable<StrataConfig["auth"]>>;
  /** Webhook deliveries, durations in ms. */
  readonly webhooks: {
    readonly timeout: number;
    readonly retryBase: number;
    readonly retryFor: number;
    readonly claimTtl: number;
    readonly allowInsecure: boolean;
    readonly allowPrivateNetworks: boolean;
  };
  /** File uploads. */
  readonly uploads: ResolvedUploadsConfig;
  /** Change events, durations in ms. */
  readonly events: {
    readonly retention: number;
    readonly maxRows: number;
    readonly pollInterval: number;
    readonly retryBase: number;
    readonly retryFor: number;
    readonly maxStreamsPerUser: number;
    readonly maxStreams: number;
    readonly maxBuffered: number;
  };
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
    "events",
    "mail",
    "webhooks",
    "uploads",
  ],
  webhooks: [
    "timeout",
    "retryBase",
    "retryFor",
    "claimTtl",
    "allowInsecure",
    "allowPrivateNetworks",
  ],
  uploads: [
    "maxSize",
    "orphanTtl",
    "sweepInterval",
    "secret",
    "signedUrlMaxAge",
    "imageWidths",
    "maxImagePixels",
    "storage",
  ],
  events: [
    "retention",
    "maxRows",
    "pollInterval",
    "retryBase",
    "retryFor",
    "maxStreamsPerUser",
    "maxStreams",
    "maxBuffered",
  ],
  dirs: [
    "api",
    "collections",
    "middleware",
    "roles",
    "messages",
    "hooks",
    "webhooks",
  ],
  database: ["url", "sync", "busyTimeout", "preparedStatements"],
  "database.sync": ["force"],
  api: [
    "basePath",
    "maxBodySize",
    "handlerTimeout",
    "waitUntilTimeout",
    "validateResponses",
    "openapi",
    "trustProxy",
    "publicUrl",
  ],
  disable: ["routes", "messages"],
  collections: ["locales", "defaultLocale"],
  query: ["guards", "timeout"],
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
    "maxPatterns",
    "maxPatternBytesTotal",
    "maxSearchBytes",
    "maxLimit",
    "maxPerPage",
  ],
  auth: [
    "sessionMaxAge",
    "transientSessionMaxAge",
    "cookieName",
    "loginRateLimit",
    "password",
    "signup",
    "verifyTokenMaxAge",
    "resetTokenMaxAge",
    "resetRateLimit",
  ],
  "auth.password": ["cost", "blockSize", "parallelization", "minLength"],
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

function trustProxy(value: unknown, source: string): TrustProxy {
  if (value === undefined || value === false) return false;
  try {
    clientResolver(value, "api.trustProxy");
  } catch (error) {
    throw new Error(
      `${source}: ${(error as Error).message.replace("Invalid config: ", "")}`,
    );
  }
  return Array.isArray(value)
    ? Object.freeze([...value as string[]])
    : value as number;
}

function publicUrl(value: unknown, source: string): string | null {
  if (value === undefined) return null;
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    !url || (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.search !== "" || url.hash !== "" || url.username !== ""
  ) {
    throw new Error(
      `${source}: api.publicUrl must be an http(s) URL without query or fragment`,
    );
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
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

function finite(value: number, key: string, source: string): number {
  if (!Number.isFinite(value) || value < 1) {
    throw new Error(`${source}: ${key} must be a duration of at least 1ms`);
  }
  return value;
}

function positiveInteger(
  value: unknown,
  fallback: number,
  key: string,
  source: string,
  orElse = "",
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new Error(`${source}: ${key} must be a positive integer${orElse}`);
  }
  return value as number;
}

function booleanOption(
  value: unknown,
  fallback: boolean,
  key: string,
  source: string,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new Error(`${source}: ${key} must be true or false`);
  }
  return value;
}

/**
 * Parses a limit the config gives (`parse`: parseDuration or parseSize), or answers the
 * default, kept as a number: a config that leaves a limit out parses nothing for it.
 */
type Limit = <T>(
  parse: (v: T | false, key: string) => number,
  value: T | false | undefined,
  fallback: number,
  key: string,
) => number;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const MB = 1024 * 1024;

const DEFAULT_IMAGE_WIDTHS = [64, 128, 256, 320, 640, 960, 1280, 1920];

function storageConfig(value: unknown, source: string): StorageConfig {
  if (value === undefined) return { driver: "fs", dir: ".data/uploads" };
  const bad = (message: string) => new Error(`${source}: ${message}`);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad("uploads.storage must be an object");
  }
  const given = value as Record<string, unknown>;
  const allowed = given.driver === "fs"
    ? ["driver", "dir"]
    : given.driver === "s3"
    ? [
      "driver",
      "bucket",
      "endpoint",
      "region",
      "accessKeyId",
      "secretAccessKey",
      "forcePathStyle",
    ]
    : null;
  if (allowed === null) {
    throw bad('uploads.storage.driver must be "fs" or "s3"');
  }
  for (const key of Object.keys(given)) {
    if (!allowed.includes(key)) {
      throw bad(`unknown config key "uploads.storage.${key}"`);
    }
  }
  if (given.driver === "fs") {
    const dir = given.dir ?? ".data/uploads";
    if (typeof dir !== "string" || dir === "") {
      throw bad("uploads.storage.dir must be a non-empty string");
    }
    return { driver: "fs", dir };
  }
  for (const key of ["bucket", "endpoint", "accessKeyId", "secretAccessKey"]) {
    if (typeof given[key] !== "string" || given[key] === "") {
      throw bad(`uploads.storage.${key} must be a non-empty string`);
    }
  }
  try {
    new URL(given.endpoint as string);
  } catch {
    throw bad("uploads.storage.endpoint must be a URL");
  }
  if (given.region !== undefined && typeof given.region !== "string") {
    throw bad("uploads.storage.region must be a string");
  }
  return {
    driver: "s3",
    bucket: given.bucket as string,
    endpoint: given.endpoint as string,
    region: (given.region as string | undefined) ?? "us-east-1",
    accessKeyId: given.accessKeyId as string,
    secretAccessKey: given.secretAccessKey as string,
    forcePathStyle: booleanOption(
      given.forcePathStyle,
      true,
      "uploads.storage.forcePathStyle",
      source,
    ),
  };
}

function imageWidths(value: unknown, source: string): readonly number[] {
  if (value === undefined) return UPLOADS_DEFAULTS.imageWidths;
  if (
    !Array.isArray(value) || value.length === 0 || value.length > 32 ||
    value.some((w) => !Number.isSafeInteger(w) || w < 1 || w > 16384)
  ) {
    throw new Error(
      `${source}: uploads.imageWidths must be a list of 1 to 32 widths between 1 and 16384`,
    );
  }
  return Object.freeze([...new Set(value as number[])].sort((a, b) => a - b));
}

/** The `uploads` section of a config that leaves it out. */
const UPLOADS_DEFAULTS: ResolvedUploadsConfig = Object.freeze({
  maxSize: 100 * MB,
  orphanTtl: 24 * HOUR,
  sweepInterval: MINUTE,
  secret: null,
  signedUrlMaxAge: HOUR,
  imageWidths: Object.freeze([...DEFAULT_IMAGE_WIDTHS]),
  maxImagePixels: 50_000_000,
  storage: Object.freeze({ driver: "fs", dir: ".data/uploads" } as const),
});

/** The `uploads` section a config gives (one left out is {@link UPLOADS_DEFAULTS}). */
function uploadsConfig(
  uploads: UploadsConfig,
  source: string,
  limit: Limit,
): ResolvedUploadsConfig {
  const secret = uploads.secret;
  if (
    secret !== undefined && (typeof secret !== "string" || secret.length < 16)
  ) {
    throw new Error(
      `${source}: uploads.secret must be a string of at least 16 characters`,
    );
  }
  const duration = (
    value: Duration | undefined,
    fallback: number,
    key: string,
  ) => finite(limit(parseDuration, value, fallback, key), key, source);
  const maxSize = limit(
    parseSize,
    uploads.maxSize,
    UPLOADS_DEFAULTS.maxSize,
    "uploads.maxSize",
  );
  if (!Number.isFinite(maxSize) || maxSize < 1) {
    throw new Error(
      `${source}: uploads.maxSize must be a size of at least 1 byte`,
    );
  }
  return Object.freeze({
    maxSize,
    orphanTtl: duration(
      uploads.orphanTtl,
      UPLOADS_DEFAULTS.orphanTtl,
      "uploads.orphanTtl",
    ),
    sweepInterval: duration(
      uploads.sweepInterval,
      UPLOADS_DEFAULTS.sweepInterval,
      "uploads.sweepInterval",
    ),
    secret: secret ?? null,
    signedUrlMaxAge: duration(
      uploads.signedUrlMaxAge,
      UPLOADS_DEFAULTS.signedUrlMaxAge,
      "uploads.signedUrlMaxAge",
    ),
    imageWidths: imageWidths(uploads.imageWidths, source),
    maxImagePixels: positiveInteger(
      uploads.maxImagePixels,
      UPLOADS_DEFAULTS.maxImagePixels,
      "uploads.maxImagePixels",
      source,
    ),
    storage: uploads.storage === undefined
      ? UPLOADS_DEFAULTS.storage
      : Object.freeze(storageConfig(uploads.storage, source)),
  });
}

function openapiPath(value: unknown, source: string): string | false {
  if (value === undefined || value === true) return "/openapi.json";
  if (value === false) return false;
  if (
    typeof value !== "string" || !value.startsWith("/") || value.length < 2 ||
    /[?#\s]|\/\/|\[|\]/.test(value)
  ) {
    throw new Error(
      `${source}: api.openapi must be true, false or a path starting with "/"`,
    );
  }
  return value.endsWith("/") ? value.slice(0, -1) : value;
}

/** The `api` section of a config that leaves it out. */
const API_DEFAULTS: ResolvedConfig["api"] = Object.freeze({
  basePath: "",
  maxBodySize: MB,
  handlerTimeout: 30 * SECOND,
  waitUntilTimeout: Infinity,
  validateResponses: false,
  openapi: "/openapi.json",
  trustProxy: false,
  publicUrl: null,
});

/** {@link API_DEFAULTS} where `createApp` turns `validateResponses` on (`createTestApp`). */
const VALIDATING_API_DEFAULTS: ResolvedConfig["api"] = Object.freeze({
  ...API_DEFAULTS,
  validateResponses: true,
});

/**
 * The `api` section a config gives (one left out is {@link API_DEFAULTS}: its checks, and
 * their compiling at boot, are for a section a config gives).
 */
function resolveApi(
  api: NonNullable<StrataConfig["api"]>,
  source: string,
  limit: Limit,
  validateResponses: boolean,
): ResolvedConfig["api"] {
  return Object.freeze({
    basePath: normalizeBasePath(api.basePath, source),
    maxBodySize: limit(
      parseSize,
      api.maxBodySize,
      API_DEFAULTS.maxBodySize,
      "api.maxBodySize",
    ),
    handlerTimeout: limit(
      parseDuration,
      api.handlerTimeout,
      API_DEFAULTS.handlerTimeout,
      "api.handlerTimeout",
    ),
    waitUntilTimeout: limit(
      parseDuration,
      api.waitUntilTimeout,
      API_DEFAULTS.waitUntilTimeout,
      "api.waitUntilTimeout",
    ),
    validateResponses: booleanOption(
      api.validateResponses,
      validateResponses,
      "api.validateResponses",
      source,
    ),
    openapi: openapiPath(api.openapi, source),
    trustProxy: trustProxy(api.trustProxy, source),
    publicUrl: publicUrl(api.publicUrl, source),
  });
}

/** The `webhooks` section of a config that leaves it out. */
const WEBHOOK_DEFAULTS: ResolvedConfig["webhooks"] = Object.freeze({
  timeout: 10 * SECOND,
  retryBase: 30 * SECOND,
  retryFor: 24 * HOUR,
  claimTtl: MINUTE,
  allowInsecure: false,
  allowPrivateNetworks: false,
});

/** The `webhooks` section a config gives (one left out is {@link WEBHOOK_DEFAULTS}). */
function resolveWebhooks(
  webhooks: NonNullable<StrataConfig["webhooks"]>,
  source: string,
  limit: Limit,
): ResolvedConfig["webhooks"] {
  const duration = (key: "timeout" | "retryBase" | "retryFor" | "claimTtl") =>
    finite(
      limit(
        parseDuration,
        webhooks[key] as Duration | undefined,
        WEBHOOK_DEFAULTS[key],
        `webhooks.${key}`,
      ),
      `webhooks.${key}`,
      source,
    );
  const resolved = {
    timeout: duration("timeout"),
    retryBase: duration("retryBase"),
    retryFor: duration("retryFor"),
    claimTtl: duration("claimTtl"),
    allowInsecure: booleanOption(
      webhooks.allowInsecure,
      WEBHOOK_DEFAULTS.allowInsecure,
      "webhooks.allowInsecure",
      source,
    ),
    allowPrivateNetworks: booleanOption(
      webhooks.allowPrivateNetworks,
      WEBHOOK_DEFAULTS.allowPrivateNetworks,
      "webhooks.allowPrivateNetworks",
      source,
    ),
  };
  // A claim is renewed before an attempt once half of it is gone: an attempt (at most
  // `timeout`) must end before the claim can expire and another instance take over.
  if (resolved.claimTtl < 2 * resolved.timeout) {
    throw new Error(
      `${source}: webhooks.claimTtl must be at least twice webhooks.timeout`,
    );
  }
  return Object.freeze(resolved);
}

/** The `events` section of a config that leaves it out. */
const EVENT_DEFAULTS: ResolvedConfig["events"] = Object.freeze({
  retention: 24 * HOUR,
  maxRows: 1_000_000,
  pollInterval: 100,
  retryBase: 30 * SECOND,
  retryFor: 24 * HOUR,
  maxStreamsPerUser: 10,
  maxStreams: 10_000,
  maxBuffered: 1_000,
});

/** The `events` section a config gives (one left out is {@link EVENT_DEFAULTS}). */
function resolveEvents(
  events: NonNullable<StrataConfig["events"]>,
  source: string,
  limit: Limit,
): ResolvedConfig["events"] {
  return Object.freeze({
    retention: limit(
      parseDuration,
      events.retention,
      EVENT_DEFAULTS.retention,
      "events.retention",
    ),
    maxRows: positiveInteger(
      events.maxRows,
      EVENT_DEFAULTS.maxRows,
      "events.maxRows",
      source,
    ),
    pollInterval: finite(
      limit(
        parseDuration,
        events.pollInterval,
        EVENT_DEFAULTS.pollInterval,
        "events.pollInterval",
      ),
      "events.pollInterval",
      source,
    ),
    retryBase: finite(
      limit(
        parseDuration,
        events.retryBase,
        EVENT_DEFAULTS.retryBase,
        "events.retryBase",
      ),
      "events.retryBase",
      source,
    ),
    retryFor: limit(
      parseDuration,
      events.retryFor,
      EVENT_DEFAULTS.retryFor,
      "events.retryFor",
    ),
    maxStreamsPerUser: positiveInteger(
      events.maxStreamsPerUser,
      EVENT_DEFAULTS.maxStreamsPerUser,
      "events.maxStreamsPerUser",
      source,
    ),
    maxStreams: positiveInteger(
      events.maxStreams,
      EVENT_DEFAULTS.maxStreams,
      "events.maxStreams",
      source,
    ),
    maxBuffered: positiveInteger(
      events.maxBuffered,
      EVENT_DEFAULTS.maxBuffered,
      "events.maxBuffered",
      source,
    ),
  });
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
  env: {
    databaseUrl?: string;
    /** Where `databaseUrl` came from, for errors (default `DATABASE_URL`). */
    databaseUrlSource?: string;
    validateResponses?: boolean;
  } = {},
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
  const limit: Limit = (parse, value, fallback, key) => {
    if (value === undefined) return fallback;
    try {
      return parse(value, key);
    } catch (error) {
      throw new Error(`${source}: ${(error as Error).message}`);
    }
  };
  const given = env.databaseUrl ?? config.database?.url ?? ".data/app.db";
  if (typeof given !== "string" || given === "") {
    throw new Error(`${source}: database.url must be a non-empty string`);
  }
  checkDatabaseUrl(
    given,
    env.databaseUrl === undefined
      ? `${source}: database.url`
      : env.databaseUrlSource ?? "DATABASE_URL",
  );
  // A relative SQLite path lives in the app's folder, wherever the process was started.
  const url = resolveDatabaseUrl(given, dirname(source));
  return Object.freeze({
    dirs: Object.freeze(dirs),
    database: Object.freeze({
      url,
      sync: Object.freeze({ force: config.database?.sync?.force === true }),
      busyTimeout: limit(
        parseDuration,
        config.database?.busyTimeout,
        2 * SECOND,
        "database.busyTimeout",
      ),
      preparedStatements: config.database?.preparedStatements === false
        ? 0
        : positiveInteger(
          config.database?.preparedStatements,
          200,
          "database.preparedStatements",
          source,
          " or false",
        ),
    }),
    api: config.api === undefined
      ? (env.validateResponses ? VALIDATING_API_DEFAULTS : API_DEFAULTS)
      : resolveApi(config.api, source, limit, env.validateResponses ?? false),
    mail: config.mail === undefined
      ? MAIL_DEFAULTS
      : resolveMailSettings(config.mail, source),
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
      timeout: limit(
        parseDuration,
        config.query?.timeout,
        10 * SECOND,
        "query.timeout",
      ),
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
    webhooks: config.webhooks === undefined
      ? WEBHOOK_DEFAULTS
      : resolveWebhooks(config.webhooks, source, limit),
    uploads: config.uploads === undefined
      ? UPLOADS_DEFAULTS
      : uploadsConfig(config.uploads, source, limit),
    events: config.events === undefined
      ? EVENT_DEFAULTS
      : resolveEvents(config.events, source, limit),
  });
}
