// The CREATE TABLE / CREATE INDEX statements a developer would write by hand for collection
// `i` of `generateCollectionsApp` (the same tables and indexes Strata's schema sync creates),
// as PostgreSQL or SQLite wants them. Used by both hand-written peers of the collections
// boot: _ddl_peer.ts runs them from one script, and the table modules `_generate.ts` writes
// for the modular peer hold them as literals.

/**
 * The statements for collection `i`.
 *
 * @example
 * ```ts ignore
 * tableStatements(1, false)[0]; // 'create table "C1" (…)'
 * ```
 */
export function tableStatements(i: number, postgres: boolean): string[] {
  const text = postgres ? `text collate "C"` : "text";
  const integer = postgres ? "bigint" : "integer";
  const real = postgres ? "double precision" : "real";
  const boolean = postgres ? "boolean" : "integer";
  // PostgreSQL sorts NULL last by default; lists order NULL first, as SQLite does.
  const nulls = postgres ? " nulls first" : "";
  const table = `"C${i}"`;
  const columns = [
    `"UUID" ${text} not null primary key`,
    `"_updatedAt" ${integer} not null`,
    `"title" ${text}`,
    `"slug" ${text}`,
    `"views" ${integer}`,
    `"score" ${real}`,
    `"done" ${boolean}`,
    `"day" ${text}`,
    `"kind" ${text}`,
  ];
  if (i > 0) columns.push(`"parent" ${text}`);
  const sql = [
    `create table ${table} (${columns.join(", ")})`,
    `create index "C${i}__title_UUID__idx" on ${table} ("title"${nulls}, "UUID")`,
    `create unique index "C${i}__slug__uniq" on ${table} ("slug"${nulls})`,
    `create index "C${i}__views_UUID__idx" on ${table} ("views"${nulls}, "UUID")`,
  ];
  if (i > 0) {
    sql.push(
      `create index "C${i}__parent_UUID__idx" on ${table} ("parent"${nulls}, "UUID")`,
    );
  }
  return sql;
}
