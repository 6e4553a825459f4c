// The hand-written peer of the collections boot: one fresh process opens the database with
// the driver alone (node:sqlite or pg) and runs the CREATE TABLE / CREATE INDEX statements a
// developer would write for the collections of `generateCollectionsApp`, in one transaction
// and one round trip. Prints `{ bootMs }` as JSON: from opening the database to the commit.
// Usage: deno run -A _ddl_peer.ts <count> <sqlite file | postgres:// URL> [pg schema]
import { DatabaseSync } from "node:sqlite";
import pg from "pg";

const [countText, url, schema] = Deno.args;
const count = Number(countText);
const postgres = url.startsWith("postgres");

/** The statements for collection `i`, as PostgreSQL or SQLite wants them. */
function statements(i: number): string[] {
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

const ddl: string[] = [];
for (let i = 0; i < count; i++) ddl.push(...statements(i));
const script = `begin;\n${ddl.join(";\n")};\ncommit;`;

const started = performance.now();
if (postgres) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `create schema if not exists "${schema}"; set search_path to "${schema}"`,
  );
  await client.query(script);
  const bootMs = performance.now() - started;
  await client.end();
  console.log(JSON.stringify({ bootMs }));
} else {
  const db = new DatabaseSync(url);
  db.exec("pragma journal_mode = wal; pragma synchronous = normal");
  db.exec(script);
  const bootMs = performance.now() - started;
  db.close();
  console.log(JSON.stringify({ bootMs }));
}
