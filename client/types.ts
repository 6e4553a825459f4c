/**
 * The client's types: a registry maps each collection name to its record, create and update
 * shapes (`strata types` generates one for an app; without one, records are plain objects).
 *
 * @module
 */
import type { SubscribeHandlers, Subscription } from "./subscribe.ts";
import type { UploadProgress } from "./upload.ts";

/** The shapes of one collection, as the client sees it. */
export interface CollectionShapes {
  /** The record a read answers. */
  record: object;
  /** The body of a create. */
  create: object;
  /** The body of an update. */
  update: object;
}

/** Collection names → their shapes. */
export type ClientRegistry = { [name: string]: CollectionShapes };

/** The shapes of a collection the client knows nothing about. */
export interface UntypedShapes {
  /** Any record. */
  record: Record<string, unknown>;
  /** Any create body. */
  create: Record<string, unknown>;
  /** Any update body. */
  update: Record<string, unknown>;
}

/** The registry of a client created without one: any name, untyped records. */
export type UntypedRegistry = { [name: string]: UntypedShapes };

/** A field name of a record. */
export type FieldOf<T> = Extract<keyof T, string>;

/** A filter in object form, its top-level keys checked against the record's fields. */
export type ClientWhere<T> =
  & { [K in FieldOf<T>]?: unknown }
  & { or?: ClientWhere<T>[]; not?: ClientWhere<T>; UUID?: unknown };

/** The parameters a by-UUID read takes. */
export interface ReadOptions<T> {
  /** Fields to return. */
  select?: readonly FieldOf<T>[];
  /** Links to replace by their target records. */
  populate?: readonly FieldOf<T>[];
  /** Locale of translatable values. */
  locale?: string;
}

/** The parameters of a list read. */
export interface ListOptions<T> extends ReadOptions<T> {
  /** Filter in object form (`{ views: { atLeast: 10 } }`). */
  where?: ClientWhere<T>;
  /** Fields to order by; a leading `-` sorts descending (`_relevance` with `search`). */
  order?: readonly (
    | FieldOf<T>
    | `-${FieldOf<T>}`
    | "_relevance"
    | "-_relevance"
  )[];
  /**
   * Full-text search over the searchable fields: words ANDed, `"a phrase"`, `-word`,
   * `word*`; most relevant first unless `order` says otherwise.
   */
  search?: string;
  /** Most records to return. */
  limit?: number;
  /** Records to skip. */
  offset?: number;
  /** Page number; selects the paginated envelope. */
  page?: number;
  /** Records per page; selects the paginated envelope. */
  perPage?: number;
}

/** The paginated envelope a list answers when `page` or `perPage` is given. */
export interface PageOf<T> {
  /** The page's records. */
  records: T[];
  /** Matching records in all. */
  total: number;
  /** This page's number. */
  page: number;
  /** Records per page. */
  perPage: number;
  /** The last page's number. */
  lastPage: number;
}

/** Options of a write. */
export interface WriteOptions {
  /** The locale a write on a translatable collection addresses. */
  locale?: string;
}

/** Options of `upload`. */
export interface UploadOptions {
  /** The file name to send (default: a `File`'s name, else `file`). */
  filename?: string;
  /**
   * Called with the request body's bytes sent (`loaded`) of its size (`total`: the file and
   * its multipart framing), each call a larger `loaded`, the last one at `total` before the
   * upload answers. Where `XMLHttpRequest` exists (browsers) and no custom `fetch` was
   * given, calls come as the bytes go out; elsewhere (Deno, Node) fetch cannot tell, so the
   * one call comes at the end, once the server has answered. A failed upload makes no call
   * at the end; the calls made before it stand.
   */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborts the upload: it rejects with the signal's reason, as fetch does. */
  signal?: AbortSignal;
}

/** One collection's operations over the collections API. */
export interface CollectionClient<C extends CollectionShapes> {
  /** The collection's API path segment (`user-groups`). */
  readonly path: string;
  /** Lists records: a plain array. */
  list(
    options?: ListOptions<C["record"]> & {
      page?: undefined;
      perPage?: undefined;
    },
  ): Promise<C["record"][]>;
  /** Lists records: the paginated envelope, since `page` or `perPage` is given. */
  list(
    options:
      & ListOptions<C["record"]>
      & ({ page: number } | { perPage: number }),
  ): Promise<PageOf<C["record"]>>;
  /** The same read as `list`, the parameters in a JSON body (`POST …/query`). */
  query(
    body?: ListOptions<C["record"]>,
  ): Promise<C["record"][] | PageOf<C["record"]>>;
  /** Reads one record. */
  get(uuid: string, options?: ReadOptions<C["record"]>): Promise<C["record"]>;
  /** Creates a record; answers the stored record. */
  create(input: C["create"], options?: WriteOptions): Promise<C["record"]>;
  /** Updates a record; answers it in its final state. */
  update(
    uuid: string,
    input: C["update"],
    options?: WriteOptions,
  ): Promise<C["record"]>;
  /** Deletes a record. */
  delete(uuid: string): Promise<void>;
  /** The locales a record holds a translation at. */
  translations(uuid: string): Promise<{ locales: string[] }>;
  /** Copies the `source` locale's values (default: the default locale) onto `locale`. */
  copyTranslation(
    uuid: string,
    options: { locale: string; source?: string },
  ): Promise<C["record"]>;
  /** Deletes a record's translation at `locale`. */
  deleteTranslation(uuid: string, locale: string): Promise<void>;
  /**
   * Uploads a file for a `file`/`files` field first (`POST /files`, signed in): answers its
   * descriptor, unattached; a create or update then names its `UUID` in that field. The
   * third argument is the file name, or {@link UploadOptions} (progress, abort).
   */
  upload(
    field: string,
    file: Blob,
    options?: string | UploadOptions,
  ): Promise<UploadedFile>;
  /**
   * Follows the collection's change events (`GET …/events`) with the read's `where`,
   * `select`, `populate` and `locale`; reconnects with `Last-Event-ID` until closed.
   */
  subscribe(
    options: Pick<
      ListOptions<C["record"]>,
      "where" | "select" | "populate" | "locale"
    >,
    handlers: SubscribeHandlers<C["record"]>,
  ): Subscription;
}

/** The signed-in user, as the `/auth` routes answer it. */
export interface ClientUser {
  /** The user's UUID. */
  UUID: string;
  /** The email address. */
  email: string;
  /** Role names. */
  roles: string[];
  /** Account settings and any other field. */
  [key: string]: unknown;
}

/** The `/auth` routes. */
export interface AuthClient {
  /**
   * Signs in; outside browsers the client keeps the session token itself. With two-factor
   * sign-in on, `totp` (a current code) or `recoveryCode` completes it.
   */
  login(
    credentials: {
      email: string;
      password: string;
      remember?: boolean;
      totp?: string;
      recoveryCode?: string;
    },
  ): Promise<ClientUser>;
  /** Ends the session and forgets the token. */
  logout(): Promise<void>;
  /** The signed-in user (a `StrataError` with status 401 when signed out). */
  me(): Promise<ClientUser>;
}

/** Options of a raw request. */
export interface RequestOptions {
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (a `FormData` is sent as multipart). */
  body?: unknown;
  /** Extra headers. */
  headers?: HeadersInit;
}

/** A stored file as reads (and `upload`) describe it. */
export interface UploadedFile {
  /** The file's UUID: what a write names to attach it. */
  UUID: string;
  /** The file name (sanitised). */
  name: string;
  /** The MIME type sniffed from its bytes. */
  type: string;
  /** Size in bytes. */
  size: number;
  /** Lower-case hex SHA-256. */
  sha256: string;
  /** Image width in pixels. */
  width?: number;
  /** Image height in pixels. */
  height?: number;
  /** Where to fetch it (signed and expiring for a private file). */
  url: string;
}

/** A client of one Strata app. */
export interface StrataClient<R extends ClientRegistry> {
  /** The operations of collection `name` (as in the registry). */
  collection<N extends Extract<keyof R, string>>(
    name: N,
  ): CollectionClient<R[N]>;
  /** Sign-in, sign-out and the current user. */
  readonly auth: AuthClient;
  /** Any route of the app: answers the parsed JSON body (`undefined` for none). */
  request<T = unknown>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<T>;
  /** The session token the client sends as a bearer token, if any. */
  readonly token: string | undefined;
}

/** Options of `createClient`. */
export interface ClientOptions {
  /** The app's address, with `api.basePath` (`https://example.com/api`, or `/` in a page). */
  baseUrl: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
  /** A session token to send as a bearer token. */
  token?: string;
  /** Headers sent with every request, or a function giving them per request. */
  headers?: HeadersInit | (() => HeadersInit);
  /**
   * The app's session cookie name (`auth.cookieName`, default `session`): outside browsers
   * the token is read from that cookie of the login answer.
   */
  cookieName?: string;
}
