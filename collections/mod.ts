/**
 * Strata's data layer: collection definitions, field types, the query builder, schema sync
 * and the database dialects.
 *
 * @module
 */

export {
  type CollectionDefinition,
  defineCollection,
  field,
  type FieldContext,
  type FieldDefinition,
  type FieldOptions,
  isValidFieldName,
  type RecordOnDelete,
  type Sanitizer,
  type ValidationIssue,
  type Validator,
  type WriteOperation,
} from "./define.ts";
export {
  type CollectionPresentationOptions,
  type FieldDisplay,
  type FieldPresentationOptions,
} from "./presentation.ts";
export {
  builtinFieldTypes,
  defineFieldType,
  type FieldType,
} from "./field_types.ts";
export {
  type DataLayer,
  type DataLayerOptions,
  openDataLayer,
  type QueryFilter,
  type QueryFilterContext,
} from "./data_layer.ts";
export type { QueryBuilder, WhereShorthand } from "./query_builder.ts";
export type {
  CreateResult,
  DataRecord,
  DeleteResult,
  Page,
  UpdateResult,
  WriteErrors,
} from "./results.ts";
export type { WriteOptions } from "./pipeline.ts";
export type {
  FieldStorageKind,
  IncomingReference,
  ResolvedCollection,
  ResolvedField,
  ResolvedIndex,
} from "./resolve.ts";
export { QueryError } from "./query_error.ts";
export { andFilters } from "./filters.ts";
export {
  DEFAULT_MESSAGES,
  interpolate,
  type MessageRenderer,
  renderDefaultMessage,
} from "./messages.ts";
export {
  type FieldCondition,
  type FieldKind,
  OPERATORS_BY_KIND,
  WHERE_OPERATORS,
  type WhereFilter,
  type WhereOperator,
  type WhereScalar,
} from "./where.ts";
export {
  busyError,
  isBusyError,
  isUnavailableError,
  mapBusyError,
} from "./db/busy.ts";
export {
  isPostgresUrl,
  openDatabase,
  type OpenDatabaseOptions,
  type OpenedDatabase,
  type SqlDialect,
} from "./db/open_database.ts";
