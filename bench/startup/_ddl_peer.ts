// The hand-written peers of the collections boot: one fresh process opens the database with
// the driver alone (node:sqlite or pg) and runs the CREATE TABLE / CREATE INDEX statements a
// developer would write for the collections of `generateCollectionsApp`, in one transaction
// and one round trip. Prints `{ bootMs }` as JSON: from the start of the app's work to the
// commit, `importMs`: the part spent importing the schema module (0 without one), and
// `cpuMs`: the process's CPU time over `bootMs`.
// - Without a schema module the statements are built here (the schema lives in no module of
//   the app; the clock starts at opening the database).
// - With one (`generateTableModules`: a module per table holding its statements, and
//   `schema.ts` importing them all), the clock starts before importing it, through a computed
//   specifier, as Strata's createApp imports the app's collection files inside its clock.
// - With `--if-not-exists` each statement is `CREATE … IF NOT EXISTS`: the restart of an app
//   that runs its DDL at every boot, on the database an earlier run made.
// Usage: deno run -A _ddl_peer.ts <count> <sqlite file | postgres:// URL> <pg schema> [schema module] [--if-not-exists]
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import process from "node:process";
import { tableStatements } from "./_ddl.ts";
import { cpuMsSince } from "./_cpu.ts";

const restart = Deno.args.includes("--if-not-exists");
const [countText, url, schema, schemaModule] = Deno.args.filter((arg) =>
  arg !== "--if-not-exists"
);
const count = Number(countText);
const postgres = url.startsWith("postgres");

const started = performance.now();
const cpuAtStart = process.cpuUsage();
let ddl: string[];
let importMs = 0;
if (schemaModule) {
  // Not a literal: Deno would load a literal's module graph before the program starts.
  const tables: string[][] = (await import(schemaModule)).default;
  ddl = tables.flat();
  importMs = performance.now() - started;
} else {
  ddl = [];
  for (let i = 0; i < count; i++) ddl.push(...tableStatements(i, postgres));
}
if (restart) {
  ddl = ddl.map((statement) =>
    statement.replace(
      /^create (unique )?(table|index) /,
      "create $1$2 if not exists ",
    )
  );
}
const script = `begin;\n${ddl.join(";\n")};\ncommit;`;

// The statement-only peer starts its clock here: it has no modules to load.
const opened = schemaModule ? started : performance.now();
const cpu = schemaModule ? cpuAtStart : process.cpuUsage();
if (postgres) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `create schema if not exists "${schema}"; set search_path to "${schema}"`,
  );
  await client.query(script);
  const bootMs = performance.now() - opened;
  const cpuMs = cpuMsSince(cpu);
  await client.end();
  console.log(JSON.stringify({ bootMs, cpuMs, importMs }));
} else {
  const db = new DatabaseSync(url);
  db.exec("pragma journal_mode = wal; pragma synchronous = normal");
  db.exec(script);
  const bootMs = performance.now() - opened;
  const cpuMs = cpuMsSince(cpu);
  db.close();
  console.log(JSON.stringify({ bootMs, cpuMs, importMs }));
}
