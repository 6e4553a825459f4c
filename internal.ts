/**
 * `@strata/strata/internal`: the types of the framework's own machinery that public types
 * mention (`app.data`, `app.layers`, `app.messages`, a query builder's read policy) — for
 * layers and tools that reach into an app. Not part of the stable API: these change with
 * the implementation, between minor versions too. Apps import from `@strata/strata`.
 *
 * @example
 * ```ts
 * import type { ResolvedCollection } from "@strata/strata/internal";
 * import { createApp } from "@strata/strata";
 * const app = await createApp({ root: import.meta.dirname!, database: ":memory:" });
 * const collections: ReadonlyMap<string, ResolvedCollection> = app.data.collections;
 * console.log([...collections.keys()]);
 * await app.close();
 * ```
 *
 * @module
 */
export type { MergedLayers, MergedRoute } from "./app/merge_layers.ts";
export type {
  ActingUser,
  DataLayer,
  FileUrls,
} from "./collections/data_layer.ts";
export type { FileService } from "./files/service.ts";
export type { FileLinks } from "./files/links.ts";
export type { FileRow, FileState } from "./collections/files/table.ts";
export type { Upload, UploadTarget } from "./files/store.ts";
export type { MultipartWrite } from "./files/record_write.ts";
export type { SqlDialect } from "./collections/db/open_database.ts";
export type { RouteSegment } from "./router/route_path.ts";
export type {
  FieldStorageKind,
  IncomingReference,
  ResolvedCollection,
  ResolvedField,
  ResolvedIndex,
} from "./collections/resolve.ts";
export type { DirectReader } from "./collections/db/sqlite_dialect.ts";
export type { AppMessages } from "./app/messages.ts";
export type {
  CollectionReadRule,
  ReadPolicy,
} from "./collections/read_policy.ts";
export type { MessageEntry, Translator } from "./i18n/translator.ts";
export type { WireError } from "./router/errors.ts";
