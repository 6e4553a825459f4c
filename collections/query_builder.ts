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
import { baseQuery, readByUuid, readCondition, readRecords } from "./read.ts";
import { buildReadSpec, DEFAULT_SPEC, type ReadSpec } from "./read_spec.ts";
import { createRecord, updateRecords } from "./writes.ts";
import { removeRecords } from "./deletes.ts";
import { deleteTranslation } from "./translations.ts";
import { atomic } from "./_atomic.ts";
import { sql } from "kysely";

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
  /** How many records match (ignores limit/offset). */
  count(): Promise<number>;
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
}

const EMPTY_STATE: State = Object.freeze({
  wheres: [],
  select: null,
  order: [],
  populate: [],
  locale: null,
  limit: null,
  offset: null,
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
    const ctx: LayerContext = {
      ...this.#ctx,
      queryFilters: [...this.#ctx.queryFilters, policyFilter(policy)],
    };
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

  async #read(overrides: Partial<State> = {}): Promise<DataRecord[]> {
    const state = { ...this.#state, ...overrides };
    return await readRecords(this.#ctx, this.#collection, {
      wheres: state.wheres,
      order: state.order,
      limit: state.limit,
      offset: state.offset,
      locale: this.#locale,
      spec: this.#spec,
      hooks: true,
    });
  }

  async findMany(): Promise<DataRecord[]> {
    return await this.#read();
  }

  async findFirst(): Promise<DataRecord | null> {
    const rows = await this.#read({ limit: 1 });
    return rows[0] ?? null;
  }

  async findByUUID(uuid: string): Promise<DataRecord | null> {
    if (typeof uuid !== "string") return null;
    const state = this.#state;
    if (state.wheres.length === 0 && this.#ctx.queryFilters.length === 0) {
      return await readByUuid(
        this.#ctx,
        this.#collection,
        uuid.toLowerCase(),
        this.#spec,
        this.#locale,
      );
    }
    const rows = await this.#read({
      wheres: [...this.#state.wheres, { UUID: uuid.toLowerCase() }],
      limit: 1,
      offset: null,
    });
    return rows[0] ?? null;
  }

  async paginate(page: number, perPage: number): Promise<Page> {
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
    const total = await this.count();
    const records = await this.#read({
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      records,
      total,
      page,
      perPage,
      lastPage: Math.max(1, Math.ceil(total / perPage)),
    };
  }

  async count(): Promise<number> {
    const ctx = this.#ctx;
    const condition = readCondition(
      ctx,
      this.#collection,
      this.#state.wheres,
      this.#locale,
      true,
    );
    const row = await baseQuery(ctx, this.#collection, this.#locale, condition)
      .select(sql<number>`count(*)`.as("count"))
      .executeTakeFirst() as { count: number | bigint | string };
    return Number(row.count);
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

  async create(
    input: Record<string, unknown>,
    options: WriteOptions = {},
  ): Promise<CreateResult> {
    return await createRecord(
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
      await removeRecords(
        this.#ctx,
        this.#collection,
        records.map((r) => r.UUID),
      );
      return { ok: true as const, records };
    });
  }

  async deleteTranslation(locale: string): Promise<boolean> {
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
