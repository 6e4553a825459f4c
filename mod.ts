/**
 * Strata: a Deno-native application framework. An app is a folder — route files under `api/`,
 * collections under `collections/`, middleware, roles, messages and one `strata.config.ts` —
 * and {@link createApp} serves it.
 *
 * @example
 * ```ts
 * // main.ts — serve with `deno serve -A main.ts`
 * import { createApp } from "@strata/strata";
 * export default await createApp({ root: import.meta.dirname! });
 * ```
 *
 * @module
 */
export {
  type App,
  createApp,
  type CreateAppOptions,
  type Database,
} from "./app/create_app.ts";
export {
  defineConfig,
  type DirsConfig,
  type QueryGuardsConfig,
  type ResolvedConfig,
  type StrataConfig,
} from "./app/config.ts";
export { defineLayer, type Layer, type LayerManifest } from "./app/layer.ts";
export { hook, type HookFunction, type HookRegistration } from "./app/hooks.ts";
export { query, translate, useConfig } from "./app/ambient.ts";
export type { RouteInfo } from "./app/route_table.ts";
export {
  defineHandler,
  defineMiddleware,
  type HandlerDefinition,
  type HandlerFunction,
  type HandlerResult,
  type MiddlewareDefinition,
  type RouteOptions,
} from "./router/handler.ts";
export { type StrataEvent, useEvent } from "./router/event.ts";
export { cors, type CorsOptions } from "./router/cors.ts";
export type { Duration, Size } from "./router/limits.ts";
export {
  badRequest,
  conflict,
  type ErrorBuilder,
  forbidden,
  HTTPError,
  type HTTPErrorOptions,
  methodNotAllowed,
  notFound,
  notImplemented,
  payloadTooLarge,
  serviceUnavailable,
  tooManyRequests,
  unauthorized,
  unprocessableContent,
  unsupportedMediaType,
  type WireError,
} from "./router/errors.ts";
export { defineRole, type RoleDefinition } from "./auth/capabilities.ts";
export {
  type CollectionDefinition,
  defineCollection,
  field,
  type FieldContext,
  type FieldDefinition,
  type FieldOptions,
  type RecordOnDelete,
  type Sanitizer,
  type Validator,
} from "./collections/define.ts";
export { defineFieldType, type FieldType } from "./collections/field_types.ts";
export type { QueryBuilder } from "./collections/query_builder.ts";
export type {
  CreateResult,
  DataRecord,
  DeleteResult,
  Page,
  UpdateResult,
  WriteErrors,
} from "./collections/results.ts";
export type {
  FieldKind,
  WhereFilter,
  WhereOperator,
} from "./collections/where.ts";
export type {
  AccessContext,
  AccessFunction,
  AccessScope,
  AccessVerdict,
  ApiOperation,
  ApiOperationOptions,
  ApiOption,
} from "./collections/api/exposure.ts";
export type { ServeInfo } from "./router/dispatch.ts";
export type { MergedLayers, MergedRoute } from "./app/merge_layers.ts";
export type { DataLayer } from "./collections/data_layer.ts";
export type { NestedMessages } from "./i18n/catalog.ts";
export type { SqlDialect } from "./collections/db/open_database.ts";
export type { ValidationIssue, WriteOperation } from "./collections/define.ts";
export type { WhereShorthand } from "./collections/query_builder.ts";
export type { WriteOptions } from "./collections/pipeline.ts";
export {
  type FieldCondition,
  WHERE_OPERATORS,
  type WhereScalar,
} from "./collections/where.ts";
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
