/**
 * The typed face of the query builder: `query(Posts)` (a definition) and, with a generated
 * registry, `query("Posts")` answer a {@link TypedQuery}, the same builder at run time whose
 * `where` keys, operators and values, `select`, `order`, `populate` and write inputs are
 * checked per field type.
 *
 * @module
 */
import type {
  CountOptions,
  QueryBuilder,
  SearchOptions,
  WhereShorthand,
} from "./query_builder.ts";
import type { ReadPolicy } from "./read_policy.ts";
import type { WriteOptions } from "./pipeline.ts";
import type { WriteErrors } from "./results.ts";
import type {
  AnyCollectionDefinition,
  CollectionRegistry,
  ConditionOf,
  CreateInputOf,
  FieldsOf,
  LinkKeys,
  ReadableFieldOf,
  RecordOf,
  UpdateInputOf,
  ValueOf,
  WhereKeys,
  WhereOf,
  WithPopulated,
} from "./typed.ts";

/** The definition of field `K` of collection `C`. */
export type FieldAt<C, K> = K extends keyof FieldsOf<C> ? FieldsOf<C>[K]
  : never;

/** The operator names a field accepts in `where(field, op, value)`. */
export type OperatorOf<C, K> = K extends "UUID" ? "equalsTo" | "in"
  : Extract<keyof ConditionOf<FieldAt<C, K>>, string>;

/** A value `where(field, op, value)` takes for field `K`. */
export type WhereValueOf<C, K> = K extends "UUID" ? string | string[]
  : ValueOf<FieldAt<C, K>> | ValueOf<FieldAt<C, K>>[] | boolean | null;

/** An order key: a readable field, `-` in front to descend. */
export type OrderKeyOf<C> =
  | ReadableFieldOf<C>
  | `-${ReadableFieldOf<C>}`
  | "UUID"
  | "-UUID"
  | "_updatedAt"
  | "-_updatedAt"
  | "_relevance"
  | "-_relevance";

/** What `select` may name: readable fields, `_updatedAt`, or a path inside a link. */
export type SelectKeyOf<C> =
  | ReadableFieldOf<C>
  | "_updatedAt"
  | `${LinkKeys<FieldsOf<C>>}.${string}`;

/** The record narrowed to the selected fields (with `UUID` and `_translations`). */
export type Selected<R, K> = Pick<
  R,
  Extract<K | "UUID" | "_translations", keyof R>
>;

/** A page of typed records. */
export interface TypedPage<R> {
  /** The records on this page. */
  records: R[];
  /** How many records match in all. */
  total: number;
  /** This page's number (from 1). */
  page: number;
  /** Page size. */
  perPage: number;
  /** The last page's number (at least 1). */
  lastPage: number;
}

/**
 * A query over collection `C` whose answers are `R` (the record, narrowed by `select`,
 * links swapped by `populate`). The same builder as {@link QueryBuilder} at run time.
 */
export interface TypedQuery<
  C extends AnyCollectionDefinition,
  R = RecordOf<C>,
> {
  /** The collection queried. */
  readonly collection: string;
  /** ANDs a condition on one field, with an operator and a value its type allows. */
  where<K extends WhereKeys<FieldsOf<C>>>(
    field: K,
    op: WhereShorthand | OperatorOf<C, K>,
    value: WhereValueOf<C, K>,
  ): TypedQuery<C, R>;
  /** ANDs a typed filter object. */
  where(filter: WhereOf<C>): TypedQuery<C, R>;
  /** Returns only these fields (plus `UUID`, and `_translations` where applicable). */
  select<K extends SelectKeyOf<C>>(
    ...fields: K[]
  ): TypedQuery<C, Selected<R, K>>;
  /** Orders by fields; `-views` descends. */
  order(...keys: OrderKeyOf<C>[]): TypedQuery<C, R>;
  /** Replaces links by their target records (typed through the registry). */
  populate<K extends LinkKeys<FieldsOf<C>>>(
    ...paths: K[]
  ): TypedQuery<C, WithPopulated<R, FieldsOf<C>, K>>;
  /** Reads and writes translatable fields at this locale. */
  locale(locale: string): TypedQuery<C, R>;
  /** Full-text search over the searchable fields (see `QueryBuilder.search`). */
  search(text: string, options?: SearchOptions): TypedQuery<C, R>;
  /** At most `n` rows. */
  limit(n: number): TypedQuery<C, R>;
  /** Skips `n` rows. */
  offset(n: number): TypedQuery<C, R>;
  /** Every matching record. */
  findMany(): Promise<R[]>;
  /** The first matching record, or `null`. */
  findFirst(): Promise<R | null>;
  /** The matching record with this UUID, or `null`. */
  findByUUID(uuid: string): Promise<R | null>;
  /** One page with the total count. */
  paginate(page: number, perPage: number): Promise<TypedPage<R>>;
  /** How many records match; with `atMost`, counting stops there. */
  count(options?: CountOptions): Promise<number>;
  /** Creates a record from a checked input. */
  create(
    input: CreateInputOf<C>,
    options?: WriteOptions,
  ): Promise<{ ok: true; record: R } | { ok: false; errors: WriteErrors }>;
  /** Updates every matching record from a checked input. */
  update(
    input: UpdateInputOf<C>,
    options?: WriteOptions,
  ): Promise<{ ok: true; records: R[] } | { ok: false; errors: WriteErrors }>;
  /** Deletes every matching record. */
  delete(): Promise<{ ok: true; records: R[] }>;
  /** Removes the translation at `locale` of every matching record. */
  deleteTranslation(locale: string): Promise<boolean>;
  /** A builder whose reads and writes also pass `policy`. */
  withPolicy(policy: ReadPolicy): TypedQuery<C, R>;
}

/** The collection names `query(name)` accepts: the registry's, or any without one. */
export type CollectionName = [keyof CollectionRegistry] extends [never] ? string
  : Extract<keyof CollectionRegistry, string>;

/** What `query(name)` answers: typed through the registry, untyped without one. */
export type QueryFor<N> = N extends keyof CollectionRegistry
  ? CollectionRegistry[N] extends AnyCollectionDefinition
    ? TypedQuery<CollectionRegistry[N]>
  : QueryBuilder
  : QueryBuilder;
