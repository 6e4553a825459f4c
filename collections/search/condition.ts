/**
 * A search inside a read: the joins, the condition and the relevance expression of a parsed
 * search (syntax.ts) over a collection's searchable fields at a locale. The `MATCH` and
 * `tsquery` texts are built here from folded words of letters, digits and marks alone, and
 * bound as parameters: no user text reaches either syntax.
 *
 * Words are ANDed across the fields searched (one may sit in the title, another in the
 * body); a phrase matches inside one field. Relevance is FTS5's BM25 (negated: higher is
 * better) on SQLite and `ts_rank` summed over the fields on PostgreSQL.
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import {
  type Expression,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type SqlBool,
} from "kysely";
import type { LayerContext } from "../_context.ts";
import type { ResolvedCollection, ResolvedField } from "../resolve.ts";
import { andConditions, type Condition } from "../compile_where.ts";
import { QueryError } from "../query_error.ts";
import { currentQueryTimeout } from "../db/deadline.ts";
import type { SearchQuery, SearchTerm } from "./syntax.ts";
import {
  pgSearchConfig,
  plainSearchTable,
  searchColumn,
  searchIdsTable,
  translatedSearchTable,
} from "./storage.ts";

/** The order key of a search's relevance (`order("-_relevance")`). */
export const RELEVANCE = "_relevance";

/** A search as a read carries it. */
export interface SearchSpec {
  /** The parsed search. */
  readonly query: SearchQuery;
  /** The searchable fields matched and ranked; `null`: every readable one. */
  readonly fields: readonly string[] | null;
}

/** A search compiled for one read. */
export interface CompiledSearch {
  /** Adds the joins the search needs to a read's `SELECT … FROM table AS m`. */
  join(
    query: SelectQueryBuilder<any, any, any>,
  ): SelectQueryBuilder<any, any, any>;
  /** The condition beside the joins (`null`: the joins alone filter). */
  readonly condition: Condition;
  /** The search as a condition alone, without the joins or ranking (for counts). */
  readonly filter: Condition;
  /**
   * SQLite, plain fields only: a `SELECT` of one row per matching record straight from the
   * index, for a count when nothing else filters the rows (`null` otherwise).
   */
  readonly alone: RawBuilder<unknown> | null;
  /**
   * With {@link CompiledSearch.alone}: the matching records (`record`) with their
   * `relevance`, straight from the index, to order when nothing else filters the rows.
   */
  readonly ranked: RawBuilder<unknown> | null;
  /** Relevance of a row: higher is more relevant. */
  readonly relevance: Expression<number>;
}

const NOTHING = sql<SqlBool>`1 = 0`;

/**
 * The fields a search matches: `spec.fields` or every readable searchable field.
 *
 * @example
 * ```ts ignore
 * searchedFields(posts, { query, fields: null }); // [title, body]
 * ```
 */
export function searchedFields(
  collection: ResolvedCollection,
  fields: readonly string[] | null,
): ResolvedField[] {
  if (collection.searchFields.length === 0) {
    throw new QueryError(
      "searchNotAvailable",
      "search",
      `${collection.name} has no searchable field`,
    );
  }
  if (fields === null) return collection.searchFields.filter((f) => f.readable);
  return fields.map((name, i) => {
    const field = collection.fields.get(name);
    if (!field?.search) {
      throw new QueryError(
        "invalidField",
        `search.fields[${i}]`,
        `${collection.name}.${name} is not a searchable field`,
      );
    }
    return field;
  });
}

/**
 * Compiles `spec` for a read of `collection` at `locale`.
 *
 * @example
 * ```ts ignore
 * const search = compileSearch(ctx, posts, { query: parseSearch("deno"), fields: null }, "en");
 * ```
 */
export function compileSearch(
  ctx: LayerContext,
  collection: ResolvedCollection,
  spec: SearchSpec,
  locale: string,
): CompiledSearch {
  const fields = searchedFields(collection, spec.fields);
  return ctx.dialect === "sqlite"
    ? sqliteSearch(collection, fields, spec.query, locale)
    : postgresSearch(fields, spec.query, locale);
}

/** One FTS5 table to look in: its name, the columns searched, the documents' locale. */
interface Source {
  readonly table: string;
  readonly columns: readonly string[];
  readonly locale: string;
}

function ftsTerm(term: SearchTerm): string {
  return `"${term.words.join(" ")}"${term.prefix ? "*" : ""}`;
}

function ftsExpression(
  source: Source,
  include: readonly SearchTerm[],
  exclude: readonly SearchTerm[],
  joiner: "AND" | "OR",
): string {
  let text = include.map(ftsTerm).join(` ${joiner} `);
  if (exclude.length > 0) {
    text = `(${text}) NOT (${exclude.map(ftsTerm).join(" OR ")})`;
  }
  return `{${source.columns.join(" ")}} : (${text})`;
}

/**
 * Under a query deadline, a term that stops the statement once it passes, checked for each
 * document the index yields: the index's own work happens before the outer query sees a row
 * (see db/sqlite_functions.ts).
 */
function deadline(): RawBuilder<unknown> {
  return currentQueryTimeout() > 0 ? sql` and abs(strata_deadline())` : sql``;
}

/** Rows of `source` matching `expression`, with their relevance. */
function sqliteHits(
  collection: ResolvedCollection,
  source: Source,
  expression: string,
): RawBuilder<unknown> {
  const fts = sql.table(source.table);
  const ids = sql.table(searchIdsTable(collection.name));
  return sql`(select i."record" as "record", -bm25(${fts}) as "relevance"
    from ${fts} join ${ids} as i on i."id" = ${fts}.rowid
    where ${fts} match ${expression} and i."locale" = ${source.locale}${deadline()})`;
}

/** The records of `source` matching `expression`, as a condition on `m`. */
function sqliteHolds(
  collection: ResolvedCollection,
  source: Source,
  expression: string,
): RawBuilder<SqlBool> {
  const fts = sql.table(source.table);
  const ids = sql.table(searchIdsTable(collection.name));
  return sql<SqlBool>`"m"."UUID" in (select i."record" from ${ids} as i
    where i."locale" = ${source.locale} and i."id" in
      (select rowid from ${fts} where ${fts} match ${expression}${deadline()}))`;
}

/** The FTS5 expression of one term in `source`'s columns. */
function termIn(source: Source, term: SearchTerm): string {
  return `{${source.columns.join(" ")}} : ${ftsTerm(term)}`;
}

function sqliteSearch(
  collection: ResolvedCollection,
  fields: readonly ResolvedField[],
  query: SearchQuery,
  locale: string,
): CompiledSearch {
  const plain = fields.filter((f) => f.storage === "column");
  const translated = fields.filter((f) => f.storage === "translation");
  const sources: Source[] = [];
  if (plain.length > 0) {
    sources.push({
      table: plainSearchTable(collection.name),
      columns: plain.map((f) => f.name),
      locale: "",
    });
  }
  if (translated.length > 0) {
    sources.push({
      table: translatedSearchTable(collection.name, locale),
      columns: translated.map((f) => f.name),
      locale,
    });
  }
  if (sources.length === 0) {
    return {
      join: (q) => q,
      condition: NOTHING,
      filter: NOTHING,
      alone: null,
      ranked: null,
      relevance: sql`0`,
    };
  }
  if (sources.length === 1) {
    // One table: the whole search is one MATCH, and its hits are the rows.
    const [source] = sources;
    const expression = ftsExpression(
      source,
      query.include,
      query.exclude,
      "AND",
    );
    const hits = sqliteHits(collection, source, expression);
    const fts = sql.table(source.table);
    return {
      filter: sqliteHolds(collection, source, expression),
      // A plain field's index holds one document per record.
      alone: source.locale === ""
        ? sql`select rowid from ${fts} where ${fts} match ${expression}${deadline()}`
        : null,
      ranked: source.locale === "" ? hits : null,
      join: (q) =>
        q.innerJoin(
          hits.as("s0"),
          (join: any) => join.onRef("s0.record", "=", "m.UUID"),
        ),
      condition: null,
      relevance: sql.ref("s0.relevance"),
    };
  }
  // Several tables: each word may be in either, so each is looked up in all of them;
  // the ranking joins each table's matches of any word.
  const conditions: Condition[] = query.include.map((term) =>
    sql<SqlBool>`(${
      sql.join(
        sources.map((source) =>
          sqliteHolds(collection, source, termIn(source, term))
        ),
        sql` or `,
      )
    })`
  );
  for (const term of query.exclude) {
    conditions.push(
      sql<SqlBool>`not (${
        sql.join(
          sources.map((source) =>
            sqliteHolds(collection, source, termIn(source, term))
          ),
          sql` or `,
        )
      })`,
    );
  }
  const condition = andConditions(conditions);
  return {
    filter: condition,
    alone: null,
    ranked: null,
    join: (q) => {
      sources.forEach((source, i) => {
        const alias = `s${i}`;
        q = q.leftJoin(
          sqliteHits(
            collection,
            source,
            ftsExpression(source, query.include, [], "OR"),
          ).as(alias),
          (join: any) => join.onRef(`${alias}.record`, "=", "m.UUID"),
        );
      });
      return q;
    },
    condition,
    relevance: sql<number>`(${
      sql.join(
        sources.map((_, i) => sql`coalesce(${sql.ref(`s${i}.relevance`)}, 0)`),
        sql` + `,
      )
    })`,
  };
}

function tsqueryTerm(term: SearchTerm): string {
  const words = term.words.map((word) => `'${word}'`);
  if (term.prefix) words[words.length - 1] += ":*";
  return words.join(" <-> ");
}

function postgresSearch(
  fields: readonly ResolvedField[],
  query: SearchQuery,
  locale: string,
): CompiledSearch {
  if (fields.length === 0) {
    return {
      join: (q) => q,
      condition: NOTHING,
      filter: NOTHING,
      alone: null,
      ranked: null,
      relevance: sql`0`,
    };
  }
  const targets = fields.map((field) => ({
    vector: sql.ref(
      `${field.storage === "translation" ? "t" : "m"}.${
        searchColumn(field.name)
      }`,
    ),
    config: field.storage === "translation" ? pgSearchConfig(locale) : "simple",
  }));
  const tsquery = (config: string, text: string) =>
    sql`to_tsquery(${config}::regconfig, ${text})`;
  const holds = (term: SearchTerm, neutral: boolean) =>
    sql<SqlBool>`(${
      sql.join(
        targets.map(({ vector, config }) => {
          const q = tsquery(config, tsqueryTerm(term));
          // A stop word of a stemming language is not indexed there: it asks nothing.
          return config === "simple" || !neutral
            ? sql`${vector} @@ ${q}`
            : sql`(${vector} @@ ${q} or numnode(${q}) = 0)`;
        }),
        sql` or `,
      )
    })`;
  const conditions: Condition[] = query.include.map((term) =>
    holds(term, true)
  );
  for (const term of query.exclude) {
    conditions.push(sql<SqlBool>`not coalesce(${holds(term, false)}, false)`);
  }
  const any = query.include.map(tsqueryTerm).join(" | ");
  const condition = andConditions(conditions);
  return {
    join: (q) => q,
    condition,
    filter: condition,
    alone: null,
    ranked: null,
    relevance: sql<number>`(${
      sql.join(
        targets.map(({ vector, config }) =>
          sql`ts_rank(coalesce(${vector}, ''::tsvector), ${
            tsquery(config, any)
          })`
        ),
        sql` + `,
      )
    })`,
  };
}
