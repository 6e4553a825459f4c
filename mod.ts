/**
 * Strata: a Deno-native application framework. An app is a folder — route files under `api/`,
 * collections under `collections/`, middleware, roles, messages and one `strata.config.ts` —
 * and {@link createApp} serves it: file-based routes, a REST collections API with roles,
 * access scopes, translations and a query grammar, and an optional email + password auth
 * layer with server-side sessions and a dashboard.
 *
 * Create an app, serve it, test it:
 *
 * ```sh
 * deno run -A jsr:@strata/strata/cli new my-app
 * cd my-app
 * deno task dev    # http://127.0.0.1:8000, restarts when files change
 * deno task test   # the app's own tests (createTestApp)
 * ```
 *
 * In an existing project, `deno add jsr:@strata/strata`, then serve `main.ts` with
 * `deno serve -A main.ts`:
 *
 * ```ts
 * // main.ts
 * import { createApp } from "@strata/strata";
 * export default await createApp({ root: import.meta.dirname! });
 * ```
 *
 * Entry points: `@strata/strata` (this module: createApp, define*, query, errors, cors),
 * `@strata/strata/auth` (authLayer, useUser, createSession, queryScoped, …),
 * `@strata/strata/testing` (createTestApp), `@strata/strata/client` (a typed client for
 * browsers, Deno and Node), `@strata/strata/cli` and `@strata/strata/utils/crypto`. The
 * guides ship with the package in its `docs/` folder: `getting-started.md`, `routes.md`,
 * `collections-and-fields.md`, `querying.md`, `collections-api-and-access.md`, `auth.md`,
 * `types-and-openapi.md`, `realtime.md`, `deployment.md` and more.
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
  type ResolvedUploadsConfig,
  type StorageConfig,
  type StrataConfig,
  type UploadsConfig,
} from "./app/config.ts";
export type { FileDescriptor } from "./collections/files/descriptors.ts";
export type {
  ByteRange,
  StorageDriver,
  StorageMeta,
  StorageStat,
} from "./files/storage/driver.ts";
export type { TrustProxy } from "./router/forwarded.ts";
export { defineLayer, type Layer, type LayerManifest } from "./app/layer.ts";
export {
  hook,
  type HookFunction,
  type HookRegistration,
  type RecordHookFilter,
} from "./app/hooks.ts";
export type {
  ChangeEntry,
  ChangeEvent,
  ChangeOp,
} from "./collections/changes/log.ts";
export type { ChangeFeed, ChangeListener } from "./collections/changes/feed.ts";
export type { BeforeWriteContext } from "./collections/changes/before_write.ts";
export { changes, query, translate, useConfig } from "./app/ambient.ts";
export {
  defineWebhook,
  type WebhookDefinition,
  type WebhookOptions,
} from "./webhooks/define.ts";
export {
  verifyWebhook,
  type VerifyWebhookOptions,
  type WebhookBody,
} from "./webhooks/signature.ts";
export type { ChangesOptions } from "./collections/changes/iterate.ts";
export type { RouteInfo } from "./app/route_table.ts";
export {
  defineHandler,
  defineMiddleware,
  type HandlerDefinition,
  type HandlerFunction,
  type HandlerResult,
  type MiddlewareDefinition,
  type OperationDoc,
  type RouteOptions,
  type ValidatedHandlerFunction,
  type ValidatedResult,
  type ValidatedRouteConfig,
} from "./router/handler.ts";
export type {
  RequestPart,
  RouteSchemas,
  ValidatedEvent,
  ValidOutputs,
} from "./router/validated_handler.ts";
export type {
  SchemaInput,
  SchemaOutput,
  StandardJsonSchemaOptions,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardSchemaV1,
} from "./router/standard_schema.ts";
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
} from "./router/errors.ts";
export { defineRole, type RoleDefinition } from "./auth/capabilities.ts";
export {
  type CollectionDefinition,
  defineCollection,
  field,
  type FieldContext,
  type FieldDefinition,
  type FieldMap,
  type FieldOptions,
  type RecordOnDelete,
  type Sanitizer,
  type Validator,
} from "./collections/define.ts";
export { defineFieldType, type FieldType } from "./collections/field_types.ts";
export {
  type CollectionPresentationOptions,
  type FieldDisplay,
  type FieldPresentationOptions,
} from "./collections/presentation.ts";
export { withQueryTimeout } from "./collections/db/deadline.ts";
export { QueryError } from "./collections/query_error.ts";
export type {
  CountOptions,
  QueryBuilder,
  SearchOptions,
} from "./collections/query_builder.ts";
export type {
  AnyCollectionDefinition,
  ChoiceOf,
  ClientRegistryOf,
  CollectionRegistry,
  ConditionOf,
  CreateInputOf,
  FieldFilter,
  FieldsOf,
  LinkKeys,
  NullTest,
  OptionalOnCreate,
  Ordered,
  PopulatedOf,
  ReadableFieldOf,
  ReadableKeys,
  ReadValueOf,
  RecordOf,
  RegisteredDefinition,
  RequiredCreateKeys,
  Simplify,
  StoredValueOf,
  TargetOf,
  TargetWhere,
  TextTypes,
  TranslatableKeys,
  UpdatableKeys,
  UpdateInputOf,
  ValueOf,
  WhereKeys,
  WhereOf,
  WithPopulated,
  WritableKeys,
} from "./collections/typed.ts";
export type {
  CollectionName,
  FieldAt,
  OperatorOf,
  OrderKeyOf,
  QueryFor,
  Selected,
  SelectKeyOf,
  TypedPage,
  TypedQuery,
  WhereValueOf,
} from "./collections/typed_query.ts";
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
export type { NestedMessages } from "./i18n/catalog.ts";
export type { ValidationIssue, WriteOperation } from "./collections/define.ts";
export type { WhereShorthand } from "./collections/query_builder.ts";
export type { WriteOptions } from "./collections/pipeline.ts";
export {
  type FieldCondition,
  WHERE_OPERATORS,
  type WhereScalar,
} from "./collections/where.ts";
export {
  type AppMail,
  isMailAddress,
  type MailComposer,
  type MailConfig,
  type MailMessage,
  type MailSettings,
  type OutgoingMail,
  sendMail,
  type SendOptions,
  type SentMail,
  type SmtpSettings,
} from "./mail/mod.ts";
