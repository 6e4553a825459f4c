/**
 * The query builder of trusted server code: `dataLayer.query("Posts")`. It is immutable:
 * every refining method returns a new builder and leaves the receiver untouched, so a
 * builder can be kept, shared and refined freely.
 *
 * @module
 */

import { policyFilter, type ReadPolicy } from "./read_policy.ts";
import type { LayerContext } from "./_context.ts";
import type { ResolvedCollection } from "./resolve.ts";
import type { WhereFilter, WhereOperator } from "./where.ts";
import type {
  CreateResult,
  DataRecord,
  DeleteResult,
  Page,
  UpdateResult,
} from "./results.ts";
import type { WriteOptions } from "./pipeline.ts";
import { QueryError } from "./query_error.ts";
import { andConditions, hookFilters } from "./compile_where.ts";
import {
  compileCount,
  filtersRows,
  readByUuid,
  readCondition,
  type ReadOptions,
  readPage,
  readRecords,
  runRead,
} from "./read.ts";
import { buildReadSpec, DEFAULT_SPEC, type ReadSpec } from "./read_spec.ts";
import { createRecord, updateRecords } from "./writes.ts";
import { removeRecords } from "./deletes.ts";
import { beforeDelete } from "./changes/before_write.ts";
import { deleteTranslation } from "./translations.ts";
import { atomic } from "./_atomic.ts";
import { parseSearch } from "./search/syntax.ts";
import { sql } from "kysely";
import { type MaybePromise, thenMaybe } from "../utils/_maybe_promise.ts";
import {
  compileSearch,
  searchedFields,
  type SearchSpec,
} from "./search/condition.ts";

/** Options of {@link QueryBuilder.search}. */
export interface SearchOptions {
  /**
   * The searchable fields matched and ranked (default: every readable one); the
   * collections API passes those the caller may read.
   */
  readonly fields?: readonly string[];
}

/** Comparison shorthands of `where(field, op, value)`, besides the operator names. */
export type WhereShorthand =
  | "="
  | "!="
  | ">"
  | ">="
  | "<"
  | "<="
  | "in"
  | "like";

const SHORTHANDS: Readonly<Record<string, WhereOperator>> = {
  "=": "equalsTo",
  ">": "greaterThan",
  ">=": "atLeast",
  "<": "lessThan",
  "<=": "atMost",
  "in": "in",
  "like": "like",
};

/** Options of {@link QueryBuilder.count}. */
export interface CountOptions {
  /** Stop counting at this many matches. */
  readonly atMost?: number;
}

/**
 * A query over one collection (see the module documentation: immutable).
 *
 * Reads apply the `query:filter` hooks (also to populated records and `has` targets) and
 * never return write-only fields unless `.select()` names them. Writes answer
 * `{ ok: false, errors }` instead of throwing when the input is refused.
 */
export interface QueryBuilder {
  /** The collection queried. */
  readonly collection: string;
  /**
   * ANDs a condition: `where("views", ">=", 10)` (`= != > >= < <= in like` or an operator
   * name; `= null` / `!= null` test for null) or `where({ views: { atLeast: 10 } })`.
   */
  where(
    field: string,
    op: WhereShorthand | WhereOperator,
    value: unknown,
  ): QueryBuilder;
  /** ANDs a filter object (see `where.ts`). */
  where(filter: WhereFilter): QueryBuilder;
  /**
   * Returns only these fields (plus `UUID`, and `_translations` where applicable);
   * `_updatedAt` only when named; `author.email` selects inside a populated relation.
   * Trusted code may name write-only fields.
   */
  select(...fields: string[]): QueryBuilder;
  /** Orders by fields; `-views` descends. NULLs sort first ascending. Replaces earlier order. */
  order(...keys: string[]): QueryBuilder;
  /** Replaces relation UUIDs by records: `populate("author", "tags.owner")`. */
  populate(...paths: string[]): QueryBuilder;
  /** Reads and writes translatable fields at this locale (default: the default locale). */
  locale(locale: string): QueryBuilder;
  /**
   * Keeps the records matching a full-text search over the searchable fields (`search: true`)
   * and orders them by relevance unless `order` says otherwise (`_relevance` names it there).
   * Words are ANDed, `"a phrase"` matches a phrase, `-word` excludes, `word*` is a prefix;
   * case and accents are ignored. Reads and counts honour it; `update` and
   * `deleteTranslation` refuse a search, `delete` removes what it finds.
   */
  search(text: string, options?: SearchOptions): QueryBuilder;
  /** At most `n` rows. */
  limit(n: number): QueryBuilder;
  /** Skips `n` rows. */
  offset(n: number): QueryBuilder;
  /** Every matching record. */
  findMany(): Promise<DataRecord[]>;
  /** The first matching record, or `null`. */
  findFirst(): Promise<DataRecord | null>;
  /** The matching record with this UUID, or `null`. */
  findByUUID(uuid: string): Promise<DataRecord | null>;
  /** One page (`page` from 1) with the total count; ignores limit/offset. */
  paginate(page: number, perPage: number): Promise<Page>;
  /**
   * How many records match (ignores limit/offset). With `atMost`, counting stops there:
   * the answer is at most `atMost` and the database reads no further matches.
   */
  count(options?: CountOptions): Promise<number>;
  /** Creates a record (the locale, selection and populate shape the answer). */
  create(
    input: Record<string, unknown>,
    options?: WriteOptions,
  ): Promise<CreateResult>;
  /** Updates every matching record (within limit/offset when set). */
  update(
    input: Record<string, unknown>,
    options?: WriteOptions,
  ): Promise<UpdateResult>;
  /** Deletes every matching record; a `restrict` reference throws a 409 `HTTPError`. */
  delete(): Promise<DeleteResult>;
  /** Removes the translation at `locale` of every matching record; whether one existed. */
  deleteTranslation(locale: string): Promise<boolean>;
  /**
   * A builder whose every read, count, populate, `has`, reference check and write selection
   * also passes `policy` (see `read_policy.ts`); the collections API scopes requests with it.
   */
  withPolicy(policy: ReadPolicy): QueryBuilder;
}

interface State {
  readonly wheres: readonly WhereFilter[];
  readonly select: readonly string[] | null;
  readonly order: readonly string[];
  readonly populate: readonly string[];
  readonly locale: string | null;
  readonly limit: number | null;
  readonly offset: number | null;
  readonly search: SearchSpec | null;
}

const EMPTY_STATE: State = Object.freeze({
  wheres: [],
  select: null,
  order: [],
  populate: [],
  locale: null,
  limit: null,
  offset: null,
  search: null,
});

function count(n: unknown, what: "limit" | "offset"): number {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new QueryError(
      "invalidNumber",
      what,
      `${what} must be a non-negative integer`,
    );
  }
  return n;
}

/**
 * Canonicalises a locale tag and checks it is configured.
 *
 * @example
 * ```ts ignore
 * checkLocale(ctx, "de-at"); // "de-AT" when configured
 * ```
 */
export function checkLocale(ctx: LayerContext, locale: string): string {
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(locale);
  } catch {
    throw new QueryError("invalidLocale", "locale", `Invalid locale ${locale}`);
  }
  if (!ctx.localeOrder.has(canonical)) {
    throw new QueryError(
      "invalidLocale",
      "locale",
      `Locale ${canonical} is not one of ${ctx.locales.join(", ")}`,
    );
  }
  return canonical;
}

function first(rows: readonly DataRecord[]): DataRecord | null {
  return rows[0] ?? null;
}

/**
 * `builder.findByUUID(uuid)`, answered at once when the read is (on SQLite, a point read
 * with nothing to fill in afterwards, see `readByUuid`), else a promise: the collections
 * API's read by UUID then answers without a promise. A throw is the read's rejection.
 *
 * @example
 * ```ts ignore
 * const record = findByUuidSoon(data.query("Posts"), uuid); // a record, null or a promise
 * ```
 */
export function findByUuidSoon(
  builder: QueryBuilder,
  uuid: string,
): MaybePromise<DataRecord | null> {
  return builder instanceof Builder
    ? Builder.findSoon(builder, uuid)
    : builder.findByUUID(uuid);
}

/**
 * `builder.findMany()`, answered at once when the read is (on SQLite, a window that cannot
 * run long with nothing to fill in afterwards, see `plainRead`), else a promise. A throw is
 * the read's rejection.
 *
 * @example
 * ```ts ignore
 * const records = findManySoon(data.query("Posts").limit(20)); // records or a promise
 * ```
 */
export function findManySoon(
  builder: QueryBuilder,
): MaybePromise<DataRecord[]> {
  return builder instanceof Builder
    ? Builder.findManySoon(builder)
    : builder.findMany();
}

/**
 * `builder.paginate(page, perPage)`, answered at once when the page and its total are (on
 * SQLite, both reads that cannot run long with nothing to fill in afterwards), else a
 * promise. A throw is the read's rejection.
 *
 * @example
 * ```ts ignore
 * const page = paginateSoon(data.query("Posts").order("-views"), 2, 20);
 * ```
 */
export function paginateSoon(
  builder: QueryBuilder,
  page: number,
  perPage: number,
): MaybePromise<Page> {
  return builder instanceof Builder
    ? Builder.paginateSoon(builder, page, perPage)
    : builder.paginate(page, perPage);
}

function envelope(
  records: DataRecord[],
  total: number,
  page: number,
  perPage: number,
): Page {
  return {
    records,
    total,
    page,
    perPage,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
  };
}

class Builder implements QueryBuilder {
  readonly #ctx: LayerContext;
  readonly #collection: ResolvedCollection;
  readonly #state: State;

  constructor(ctx: LayerContext, collection: ResolvedCollection, state: State) {
    this.#ctx = ctx;
    this.#collection = collection;
    this.#state = state;
  }

  get collection(): string {
    return this.#collection.name;
  }

  withPolicy(policy: ReadPolicy): QueryBuilder {
    // The layer's context beneath one own property, not a copy of its thirty: every API
    // request makes one.
    const ctx = Object.create(this.#ctx) as {
      -readonly [K in keyof LayerContext]: LayerContext[K];
    };
    ctx.queryFilters = [...this.#ctx.queryFilters, policyFilter(policy)];
    return new Builder(ctx, this.#collection, this.#state);
  }

  #with(patch: Partial<State>): Builder {
    return new Builder(this.#ctx, this.#collection, {
      ...this.#state,
      ...patch,
    });
  }

  where(
    fieldOrFilter: string | WhereFilter,
    op?: WhereShorthand | WhereOperator,
    value?: unknown,
  ): QueryBuilder {
    let filter: WhereFilter;
    if (typeof fieldOrFilter === "string") {
      const name = fieldOrFilter;
      if (op === "=" && value === null) {
        filter = { [name]: { isNull: true } };
      } else if (op === "!=") {
        filter = value === null
          ? { [name]: { isNull: false } }
          : { not: { [name]: { equalsTo: value as string } } };
      } else {
        const operator = op !== undefined && Object.hasOwn(SHORTHANDS, op)
          ? SHORTHANDS[op]
          : op;
        if (typeof operator !== "string") {
          throw new QueryError(
            "unknownOperator",
            `where.${name}`,
            "Missing operator",
          );
        }
        filter = { [name]: { [operator]: value } } as WhereFilter;
      }
    } else {
      if (
        fieldOrFilter === null || typeof fieldOrFilter !== "object" ||
        Array.isArray(fieldOrFilter)
      ) {
        throw new QueryError(
          "invalidShape",
          "where",
          "A filter must be an object",
        );
      }
      filter = fieldOrFilter;
    }
    return this.#with({ wheres: [...this.#state.wheres, filter] });
  }

  select(...fields: string[]): QueryBuilder {
    return this.#with({ select: fields });
  }

  order(...keys: string[]): QueryBuilder {
    return this.#with({ order: keys });
  }

  populate(...paths: string[]): QueryBuilder {
    return this.#with({ populate: [...this.#state.populate, ...paths] });
  }

  locale(locale: string): QueryBuilder {
    return this.#with({ locale: checkLocale(this.#ctx, locale) });
  }

  search(text: string, options: SearchOptions = {}): QueryBuilder {
    const fields = options.fields === undefined ? null : [...options.fields];
    searchedFields(this.#collection, fields);
    return this.#with({ search: { query: parseSearch(text), fields } });
  }

  limit(n: number): QueryBuilder {
    return this.#with({ limit: count(n, "limit") });
  }

  offset(n: number): QueryBuilder {
    return this.#with({ offset: count(n, "offset") });
  }

  get #locale(): string {
    return this.#state.locale ?? this.#ctx.defaultLocale;
  }

  get #spec(): ReadSpec {
    const { select, populate } = this.#state;
    if (select === null && populate.length === 0) return DEFAULT_SPEC;
    return buildReadSpec(this.#ctx, this.#collection, select, populate);
  }

  #readOptions(overrides: Partial<State> = {}): ReadOptions {
    const state = { ...this.#state, ...overrides };
    return {
      wheres: state.wheres,
      order: state.order,
      limit: state.limit,
      offset: state.offset,
      locale: this.#locale,
      spec: this.#spec,
      hooks: true,
      search: state.search,
    };
  }

  async #read(overrides: Partial<State> = {}): Promise<DataRecord[]> {
    return await readRecords(
      this.#ctx,
      this.#collection,
      this.#readOptions(overrides),
    );
  }

  async findMany(): Promise<DataRecord[]> {
    return await this.#read();
  }

  /** {@link findManySoon} on a builder of this layer. */
  static findManySoon(builder: Builder): MaybePromise<DataRecord[]> {
    return readRecords(
      builder.#ctx,
      builder.#collection,
      builder.#readOptions(),
    );
  }

  async findFirst(): Promise<DataRecord | null> {
    return first(await this.#read({ limit: 1 }));
  }

  async findByUUID(uuid: string): Promise<DataRecord | null> {
    return await this.#findSoon(uuid);
  }

  /** {@link findByUuidSoon} on a builder of this layer. */
  static findSoon(
    builder: Builder,
    uuid: string,
  ): MaybePromise<DataRecord | null> {
    return builder.#findSoon(uuid);
  }

  #findSoon(uuid: string): MaybePromise<DataRecord | null> {
    if (typeof uuid !== "string") return null;
    const state = this.#state;
    if (state.wheres.length === 0 && state.search === null) {
      // The hooks are asked once: when none filters (a public read, a scope without a
      // where), the read is the precompiled statement by primary key.
      const byId = { UUID: uuid.toLowerCase() };
      const extras = hookFilters(
        this.#ctx,
        this.#collection,
        byId,
        this.#locale,
      );
      if (extras.length === 0) {
        return readByUuid(
          this.#ctx,
          this.#collection,
          byId.UUID,
          this.#spec,
          this.#locale,
        );
      }
      const rows = readRecords(this.#ctx, this.#collection, {
        wheres: [byId, ...extras],
        order: [],
        limit: 1,
        offset: null,
        locale: this.#locale,
        spec: this.#spec,
        hooks: false,
      });
      return thenMaybe(rows, first);
    }
    return this.#read({
      wheres: [...this.#state.wheres, { UUID: uuid.toLowerCase() }],
      limit: 1,
      offset: null,
    }).then(first);
  }

  async paginate(page: number, perPage: number): Promise<Page> {
    return await this.#paginateSoon(page, perPage);
  }

  /** {@link paginateSoon} on a builder of this layer. */
  static paginateSoon(
    builder: Builder,
    page: number,
    perPage: number,
  ): MaybePromise<Page> {
    return builder.#paginateSoon(page, perPage);
  }

  #paginateSoon(page: number, perPage: number): MaybePromise<Page> {
    if (!Number.isSafeInteger(page) || page < 1) {
      throw new QueryError(
        "invalidNumber",
        "page",
        "page must be an integer ≥ 1",
      );
    }
    if (!Number.isSafeInteger(perPage) || perPage < 1) {
      throw new QueryError(
        "invalidNumber",
        "perPage",
        "perPage must be an integer ≥ 1",
      );
    }
    const offset = (page - 1) * perPage;
    if (this.#state.search !== null) {
      return this.#countThenRead(page, perPage, offset);
    }
    const read = readPage(this.#ctx, this.#collection, {
      ...this.#readOptions(),
      limit: perPage,
      offset,
    });
    return thenMaybe(
      read,
      ({ records, total }) =>
        total !== null
          ? envelope(records, total, page, perPage)
          : this.#countThenRead(page, perPage, offset),
    );
  }

  async #countThenRead(
    page: number,
    perPage: number,
    offset: number,
  ): Promise<Page> {
    const total = await this.count();
    const records = await this.#read({ limit: perPage, offset });
    return envelope(records, total, page, perPage);
  }

  async count(options: CountOptions = {}): Promise<number> {
    const ctx = this.#ctx;
    const { atMost } = options;
    if (atMost !== undefined && (!Number.isSafeInteger(atMost) || atMost < 0)) {
      throw new RangeError(
        `count: atMost must be a non-negative integer, not ${atMost}`,
      );
    }
    const condition = readCondition(
      ctx,
      this.#collection,
      this.#state.wheres,
      this.#locale,
      true,
    );
    const { search } = this.#state;
    const compiled = search &&
      compileSearch(ctx, this.#collection, search, this.#locale);
    if (compiled?.alone && !filtersRows(condition)) {
      // Nothing but the search filters: the index counts its matches itself.
      const matches = atMost === undefined
        ? compiled.alone
        : sql`${compiled.alone} limit ${atMost}`;
      const { rows } = await sql<{ count: number }>`
        select count(*) as "count" from (${matches})`.execute(ctx.executor());
      return Number(rows[0].count);
    }
    // A search counts through its filter alone: no ranking, no joins.
    const filter = compiled && compiled.filter;
    const { rows } = await runRead(
      ctx,
      compileCount(
        ctx,
        this.#collection,
        this.#locale,
        andConditions([condition, filter]),
        atMost,
      ),
    );
    return Number((rows[0] as { count: number | bigint | string }).count);
  }

  #writeState() {
    return {
      wheres: this.#state.wheres,
      order: this.#state.order,
      limit: this.#state.limit,
      offset: this.#state.offset,
      locale: this.#locale,
      spec: this.#spec,
    };
  }

  #refuseSearch(operation: string): void {
    if (this.#state.search) {
      throw new QueryError(
        "invalidShape",
        "search",
        `A search applies to reads: ${operation} does not take one`,
      );
    }
  }

  create(
    input: Record<string, unknown>,
    options: WriteOptions = {},
  ): Promise<CreateResult> {
    return createRecord(
      this.#ctx,
      this.#collection,
      this.#writeState(),
      input,
      options,
    );
  }

  async update(
    input: Record<string, unknown>,
    options: WriteOptions = {},
  ): Promise<UpdateResult> {
    this.#refuseSearch("update");
    return await updateRecords(
      this.#ctx,
      this.#collection,
      this.#writeState(),
      input,
      options,
    );
  }

  async delete(): Promise<DeleteResult> {
    return await atomic(this.#ctx, async () => {
      const records = await this.#read();
      await beforeDelete(
        this.#ctx,
        this.#collection,
        records.map((r) => r.UUID),
        this.#locale,
      );
      const deleted = new Set(
        await removeRecords(
          this.#ctx,
          this.#collection,
          records.map((r) => r.UUID),
        ),
      );
      // A concurrent delete may have taken some first: those are not this one's.
      return {
        ok: true as const,
        records: records.filter((r) => deleted.has(r.UUID)),
      };
    });
  }

  async deleteTranslation(locale: string): Promise<boolean> {
    this.#refuseSearch("deleteTranslation");
    const target = checkLocale(this.#ctx, locale);
    return await deleteTranslation(this.#ctx, this.#collection, {
      wheres: this.#state.wheres,
      order: this.#state.order,
      limit: this.#state.limit,
      offset: this.#state.offset,
      locale: this.#state.locale ?? target,
    }, target);
  }
}

/**
 * Opens a builder over `collection` (internal: use `dataLayer.query(name)`).
 *
 * @example
 * ```ts ignore
 * const posts = createQueryBuilder(ctx, ctx.collection("Posts"));
 * ```
 */
export function createQueryBuilder(
  ctx: LayerContext,
  collection: ResolvedCollection,
): QueryBuilder {
  return new Builder(ctx, collection, EMPTY_STATE);
}
