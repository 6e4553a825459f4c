/**
 * The client of a Strata app, for browsers, Deno and Node: {@link createClient} over `fetch`,
 * typed by the registry `strata types` generates, and {@link StrataError} for every answer
 * that is not a success.
 *
 * @example
 * ```ts ignore
 * import { createClient } from "@strata/strata/client";
 * const client = createClient({ baseUrl: "http://localhost:8000" });
 * const page = await client.collection("Posts").list({ page: 1, perPage: 10 });
 * console.log(page.total);
 * ```
 *
 * @module
 */
export { createClient } from "./create_client.ts";
export { StrataError, type WireErrorBody } from "./errors.ts";
export type {
  ChangeMessage,
  SubscribeHandlers,
  Subscription,
} from "./subscribe.ts";
export type {
  AuthClient,
  ClientOptions,
  ClientRegistry,
  ClientUser,
  ClientWhere,
  CollectionClient,
  CollectionShapes,
  FieldOf,
  ListOptions,
  PageOf,
  ReadOptions,
  RequestOptions,
  StrataClient,
  UntypedRegistry,
  UntypedShapes,
  UploadedFile,
  UploadOptions,
  WriteOptions,
} from "./types.ts";
export type { UploadProgress } from "./upload.ts";
