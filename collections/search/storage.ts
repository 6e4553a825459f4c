/**
 * Where the full-text indexes live and how schema sync builds them.
 *
 * - SQLite: FTS5 tables without content of their own (`contentless_delete`), one for the
 *   plain searchable fields (`Posts__search`, `unicode61` tokens) and, for translatable ones,
 *   one per tokenizer (`Posts__search_tr` plain tokens, `Posts__search_tr_stem` the `porter`
 *   stemmer for English locales). `Posts__search_ids` gives each indexed document (a record,
 *   or a record at a locale) the integer id FTS5 keys it by.
 * - PostgreSQL: one `tsvector` column per searchable field (`_search_title`) beside the field,
 *   with a GIN index; plain fields use the `simple` configuration, translatable ones the
 *   language of the row's locale where PostgreSQL has a stemmer for it.
 *
 * Triggers keep both current inside every write's transaction, whatever path writes (the
 * API, the query builder, cascades, translations); the text is folded by `strata_fold`
 * (fold.ts: the same JavaScript function on SQLite, the same steps in SQL on PostgreSQL).
 *
 * @module
 */

// deno-lint-ignore-file no-explicit-any
import { type Kysely, type QueryResult, type RawBuilder, sql } from "kysely";
import type { SqlDialect } from "../db/open_database.ts";
import { indexName, type ResolvedCollection } from "../resolve.ts";
import { FOLDED_MARKS } from "./fold.ts";
import { quoteIdentifier as id } from "../db/quote_identifier.ts";

/** The SQLite table mapping documents to FTS5 row ids. */
export function searchIdsTable(collection: string): string {
  return `${collection}__search_ids`;
}

/** The SQLite FTS5 table of the plain searchable fields. */
export function plainSearchTable(collection: string): string {
  return `${collection}__search`;
}

/** The SQLite FTS5 table of the translatable searchable fields at `locale`. */
export function translatedSearchTable(
  collection: string,
  locale: string,
): string {
  return `${collection}__search_tr${stemsOnSqlite(locale) ? "_stem" : ""}`;
}

/** Whether SQLite stems `locale` (FTS5 ships the `porter` stemmer: English only). */
function stemsOnSqlite(locale: string): boolean {
  return languageOf(locale) === "en";
}

/** The PostgreSQL column holding the `tsvector` of `field`. */
export function searchColumn(field: string): string {
  return `_search_${field}`;
}

function languageOf(locale: string): string {
  return locale.split("-")[0].toLowerCase();
}

/**
 * Languages with a stemming configuration in every PostgreSQL since 9 (its Snowball
 * stemmers), by language subtag.
 */
const PG_CONFIGS: Readonly<Record<string, string>> = {
  da: "danish",
  de: "german",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  hu: "hungarian",
  it: "italian",
  nb: "norwegian",
  nl: "dutch",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sv: "swedish",
  tr: "turkish",
};

/**
 * The PostgreSQL text search configuration of a translatable field's values at `locale`
 * (`simple`, no stemming, for a language without one).
 *
 * @example
 * ```ts
 * import { pgSearchConfig } from "./storage.ts";
 * pgSearchConfig("de-AT"); // "german"
 * ```
 */
export function pgSearchConfig(locale: string): string {
  return PG_CONFIGS[languageOf(locale)] ?? "simple";
}

/** SQL: the configuration of the row's locale, inside a trigger on a translation table. */
function pgConfigOfRow(): string {
  const cases = Object.entries(PG_CONFIGS).map(([language, config]) =>
    `when '${language}' then '${config}'`
  ).join(" ");
  return `(case lower(split_part(new."locale", '-', 1)) ${cases} else 'simple' end)::regconfig`;
}

/**
 * What schema sync remembers of a collection's search setup: when it changes (a field
 * gains or loses `search`, or moves between the tables), the index is rebuilt.
 */
export function searchSignature(collection: ResolvedCollection): string | null {
  if (collection.searchFields.length === 0) return null;
  return JSON.stringify({
    version: 2,
    plain: plainFields(collection),
    translated: translatedFields(collection),
  });
}

function plainFields(collection: ResolvedCollection): string[] {
  return collection.searchFields.filter((f) => f.storage === "column").map((
    f,
  ) => f.name);
}

function translatedFields(collection: ResolvedCollection): string[] {
  return collection.searchFields.filter((f) => f.storage === "translation")
    .map((f) => f.name);
}

/** Rows filled per statement while building an index. */
const FILL_BATCH = 2000;

/**
 * Removes the search objects of a collection, if any. Runs before the rest
 * of the sync, so that no trigger names a column the sync drops or changes.
 */
export async function dropSearch(
  db: Kysely<any>,
  dialect: SqlDialect,
  collection: string,
): Promise<void> {
  if (dialect === "sqlite") {
    const statements = [
      `drop trigger if exists ${id(`${collection}__search_insert`)}`,
      `drop trigger if exists ${id(`${collection}__search_update`)}`,
      `drop trigger if exists ${id(`${collection}__search_delete`)}`,
      `drop trigger if exists ${id(`${collection}__search_tr_insert`)}`,
      `drop trigger if exists ${id(`${collection}__search_tr_update`)}`,
      `drop trigger if exists ${id(`${collection}__search_tr_delete`)}`,
      `drop table if exists ${id(plainSearchTable(collection))}`,
      `drop table if exists ${id(`${collection}__search_tr`)}`,
      `drop table if exists ${id(`${collection}__search_tr_stem`)}`,
      `drop table if exists ${id(searchIdsTable(collection))}`,
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
    return;
  }
  const tr = `${collection}__translations`;
  const existing = await pgColumns(db, [collection, tr]);
  const statements: string[] = [];
  for (const table of [collection, tr]) {
    if (existing.has(table)) {
      statements.push(
        `drop trigger if exists ${id(`${table}__search`)} on ${id(table)}`,
      );
    }
    statements.push(`drop function if exists ${id(`${table}__search`)}()`);
  }
  // Field names never start with "_": every such column is the search's own.
  for (const [table, columns] of existing) {
    for (const column of columns) {
      if (column.startsWith("_search_")) {
        statements.push(
          `alter table ${id(table)} drop column if exists ${id(column)}`,
        );
      }
    }
  }
  await sql.raw(statements.join(";\n")).execute(db);
}

async function pgColumns(
  db: Kysely<any>,
  tables: readonly string[],
): Promise<Map<string, Set<string>>> {
  const { rows } = await sql<{ tbl: string; col: string }>`
    select table_name as tbl, column_name as col from information_schema.columns
    where table_schema = current_schema() and table_name in (${
    sql.join(tables)
  })`.execute(db);
  const out = new Map<string, Set<string>>();
  for (const row of rows) {
    let columns = out.get(row.tbl);
    if (!columns) out.set(row.tbl, columns = new Set());
    columns.add(row.col);
  }
  return out;
}

/**
 * Whether the search objects of `collection` exist (the sync rebuilds them when not).
 */
export async function searchExists(
  db: Kysely<any>,
  dialect: SqlDialect,
  collection: ResolvedCollection,
): Promise<boolean> {
  if (dialect === "sqlite") {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from sqlite_master
      where type = 'table' and name = ${searchIdsTable(collection.name)}`
      .execute(db);
    return Number(rows[0].n) > 0;
  }
  const first = collection.searchFields[0];
  const table = first.storage === "translation"
    ? collection.translationTable!
    : collection.table;
  const columns = await pgColumns(db, [table]);
  return columns.get(table)?.has(searchColumn(first.name)) ?? false;
}

/** Creates and fills the search objects of `collection`. */
export async function buildSearch(
  db: Kysely<any>,
  dialect: SqlDialect,
  collection: ResolvedCollection,
): Promise<void> {
  if (dialect === "sqlite") await buildSqlite(db, collection);
  else await buildPostgres(db, collection);
}

function progress(label: string, done: number, total: number): void {
  console.log(`${label}: indexed ${done}/${total}`);
}

async function buildSqlite(
  db: Kysely<any>,
  collection: ResolvedCollection,
): Promise<void> {
  const name = collection.name;
  const ids = id(searchIdsTable(name));
  const plain = plainFields(collection);
  const translated = translatedFields(collection);
  const run = (text: string) => sql.raw(text).execute(db);
  await run(
    `create table ${ids} ("id" integer primary key, "record" text not null, "locale" text not null)`,
  );
  await run(
    `create unique index ${
      id(`${name}__search_ids__key`)
    } on ${ids} ("record", "locale")`,
  );
  // Prefix indexes for one to three characters: a short prefix (`k*`) then reads one list
  // of documents instead of merging every word's before the first row, which no deadline
  // could interrupt.
  const fts = (table: string, columns: string[], tokenizer: string) =>
    run(
      `create virtual table ${id(table)} using fts5(${
        columns.map(id).join(", ")
      }, content='', contentless_delete=1, prefix='1 2 3', tokenize='${tokenizer}')`,
    );
  const docId = (record: string, locale: string) =>
    `(select "id" from ${ids} where "record" = ${record} and "locale" = ${locale})`;
  const folded = (row: string, columns: string[]) =>
    columns.map((c) => `strata_fold(${row}.${id(c)})`).join(", ");
  if (plain.length > 0) {
    const table = id(plainSearchTable(name));
    const main = id(name);
    const cols = plain.map(id).join(", ");
    await fts(plainSearchTable(name), plain, "unicode61 remove_diacritics 0");
    await run(`create trigger ${id(`${name}__search_insert`)}
      after insert on ${main} begin
        insert into ${ids} ("record", "locale") values (new."UUID", '');
        insert into ${table} (rowid, ${cols})
          values (${docId('new."UUID"', "''")}, ${folded("new", plain)});
      end`);
    await run(`create trigger ${id(`${name}__search_update`)}
      after update of ${cols} on ${main} begin
        delete from ${table} where rowid = ${docId('old."UUID"', "''")};
        insert into ${table} (rowid, ${cols})
          values (${docId('new."UUID"', "''")}, ${folded("new", plain)});
      end`);
    await run(`create trigger ${id(`${name}__search_delete`)}
      after delete on ${main} begin
        delete from ${table} where rowid = ${docId('old."UUID"', "''")};
        delete from ${ids} where "record" = old."UUID" and "locale" = '';
      end`);
    await fillSqlite(
      db,
      name,
      main,
      "UUID",
      null,
      (where) =>
        `insert into ${table} (rowid, ${cols}) select i."id", ${
          folded("m", plain)
        } from ${main} as m join ${ids} as i on i."record" = m."UUID" and i."locale" = '' ${where}`,
    );
  }
  if (translated.length > 0) {
    const trTable = id(collection.translationTable!);
    const plainTr = id(`${name}__search_tr`);
    const stemTr = id(`${name}__search_tr_stem`);
    const cols = translated.map(id).join(", ");
    await fts(
      `${name}__search_tr`,
      translated,
      "unicode61 remove_diacritics 0",
    );
    await fts(
      `${name}__search_tr_stem`,
      translated,
      "porter unicode61 remove_diacritics 0",
    );
    const english = (row: string) =>
      `(${row}."locale" = 'en' or ${row}."locale" like 'en-%')`;
    const insertDoc = (row: string) => `
        insert into ${stemTr} (rowid, ${cols})
          select "id", ${folded(row, translated)} from ${ids}
          where "record" = ${row}."record" and "locale" = ${row}."locale" and ${
      english(row)
    };
        insert into ${plainTr} (rowid, ${cols})
          select "id", ${folded(row, translated)} from ${ids}
          where "record" = ${row}."record" and "locale" = ${row}."locale" and not ${
      english(row)
    };`;
    const deleteDoc = (row: string) => `
        delete from ${stemTr} where rowid = ${
      docId(`${row}."record"`, `${row}."locale"`)
    };
        delete from ${plainTr} where rowid = ${
      docId(`${row}."record"`, `${row}."locale"`)
    };`;
    await run(`create trigger ${id(`${name}__search_tr_insert`)}
      after insert on ${trTable} begin
        insert into ${ids} ("record", "locale") values (new."record", new."locale");
        ${insertDoc("new")}
      end`);
    await run(`create trigger ${id(`${name}__search_tr_update`)}
      after update of ${cols} on ${trTable} begin
        ${deleteDoc("old")}
        ${insertDoc("new")}
      end`);
    await run(`create trigger ${id(`${name}__search_tr_delete`)}
      after delete on ${trTable} begin
        ${deleteDoc("old")}
        delete from ${ids} where "record" = old."record" and "locale" = old."locale";
      end`);
    const fill = (table: string, english: boolean) => (where: string) =>
      `insert into ${table} (rowid, ${cols}) select i."id", ${
        folded("m", translated)
      } from ${trTable} as m join ${ids} as i on i."record" = m."record" and i."locale" = m."locale" ${where} and ${
        english ? "" : "not "
      }(m."locale" = 'en' or m."locale" like 'en-%')`;
    await fillSqlite(
      db,
      name,
      trTable,
      "record",
      "locale",
      (where) =>
        `${fill(stemTr, true)(where)};\n${fill(plainTr, false)(where)}`,
    );
  }
}

/**
 * Fills one FTS5 table from its source in batches of documents (by id), logging progress.
 * `insertSql(where)` inserts the documents the `where` (over `i."id"`) admits.
 */
async function fillSqlite(
  db: Kysely<any>,
  collection: string,
  source: string,
  recordColumn: string,
  localeColumn: string | null,
  insertSql: (where: string) => string,
): Promise<void> {
  const ids = id(searchIdsTable(collection));
  await sql.raw(
    `insert into ${ids} ("record", "locale") select ${id(recordColumn)}, ${
      localeColumn ? id(localeColumn) : "''"
    } from ${source}`,
  ).execute(db);
  const { rows } = await sql.raw<
    { low: number | null; high: number | null; n: number }
  >(
    `select min("id") as low, max("id") as high, count(*) as n from ${ids} where "locale" ${
      localeColumn ? "<> ''" : "= ''"
    }`,
  ).execute(db);
  const { low, high, n } = rows[0];
  if (low === null || high === null) return;
  let done = 0;
  for (let from = low; from <= high; from += FILL_BATCH) {
    const to = from + FILL_BATCH;
    const statements = insertSql(`where i."id" >= ${from} and i."id" < ${to}`)
      .split(";\n");
    for (const statement of statements) await sql.raw(statement).execute(db);
    done = Math.min(n, done + FILL_BATCH);
    progress(
      localeColumn ? `${collection} (translations)` : collection,
      done,
      n,
    );
  }
}

async function buildPostgres(
  db: Kysely<any>,
  collection: ResolvedCollection,
): Promise<void> {
  await sql.raw(
    `create or replace function strata_fold(text) returns text
      language sql immutable parallel safe as $$
      select lower(regexp_replace(regexp_replace(normalize(coalesce($1, ''), NFKD),
        '${FOLDED_MARKS}', '', 'g'), '[[:punct:]]', ' ', 'g')) $$`,
  ).execute(db);
  const groups: { table: string; fields: string[]; config: string }[] = [];
  const plain = plainFields(collection);
  const translated = translatedFields(collection);
  if (plain.length > 0) {
    groups.push({ table: collection.table, fields: plain, config: "'simple'" });
  }
  if (translated.length > 0) {
    groups.push({
      table: collection.translationTable!,
      fields: translated,
      config: pgConfigOfRow(),
    });
  }
  for (const { table, fields, config } of groups) {
    const vector = (row: string, field: string) =>
      `to_tsvector(cfg, strata_fold(${row}${id(field)}))`;
    const statements = fields.map((field) =>
      `alter table ${id(table)} add column ${id(searchColumn(field))} tsvector`
    );
    statements.push(`create function ${id(`${table}__search`)}()
      returns trigger language plpgsql as $$
      declare cfg regconfig := ${config};
      begin
        ${
      fields.map((f) => `new.${id(searchColumn(f))} := ${vector("new.", f)};`)
        .join("\n")
    }
        return new;
      end $$`);
    await sql.raw(statements.join(";\n")).execute(db);
    await fillPostgres(db, collection.name, table, fields, config);
    const gin = fields.map((field) =>
      `create index ${
        id(
          indexName(table, [searchColumn(field)], false).replace(
            /__idx$/,
            "__fts",
          ),
        )
      } on ${id(table)} using gin (${id(searchColumn(field))})`
    );
    gin.push(
      `create trigger ${id(`${table}__search`)} before insert or update of ${
        fields.map(id).join(", ")
      } on ${id(table)} for each row execute function ${
        id(`${table}__search`)
      }()`,
    );
    await sql.raw(gin.join(";\n")).execute(db);
  }
}

async function fillPostgres(
  db: Kysely<any>,
  collection: string,
  table: string,
  fields: string[],
  config: string,
): Promise<void> {
  const key = table === collection ? ["UUID"] : ["record", "locale"];
  const { rows } = await sql.raw<{ n: string | number }>(
    `select count(*) as n from ${id(table)}`,
  ).execute(db);
  const total = Number(rows[0].n);
  if (total === 0) return;
  // The trigger's config expression reads `new`: here the row itself.
  const cfg = config.replaceAll("new.", "r.");
  const set = fields.map((f) =>
    `${id(searchColumn(f))} = to_tsvector(${cfg}, strata_fold(r.${id(f)}))`
  ).join(", ");
  const keyList = key.map(id).join(", ");
  const keyOf = (alias: string) =>
    key.map((k) => `${alias}.${id(k)}`).join(", ");
  let last: unknown[] | null = null;
  let done = 0;
  while (done < total) {
    const after: RawBuilder<unknown> = last === null
      ? sql``
      : sql`where (${sql.raw(keyList)}) > (${sql.join(last)})`;
    const result: QueryResult<Record<string, unknown>> = await sql<
      Record<string, unknown>
    >`
      with batch as (
        select ${sql.raw(keyList)} from ${sql.table(table)} ${after}
        order by ${sql.raw(keyList)} limit ${FILL_BATCH}
      ), done as (
        update ${sql.table(table)} as r set ${sql.raw(set)} from batch
        where ${
      sql.raw(key.map((k) => `r.${id(k)} = batch.${id(k)}`).join(" and "))
    }
        returning ${sql.raw(keyOf("r"))}
      )
      select ${sql.raw(keyList)}, (select count(*) from done) as "_n" from done
      order by ${sql.raw(keyList)} desc limit 1`.execute(db);
    const batch = result.rows[0];
    if (!batch) break;
    done += Number(batch._n);
    last = key.map((k): unknown => batch[k]);
    progress(
      table === collection ? collection : `${collection} (translations)`,
      done,
      total,
    );
  }
}
