// Another process writing to the benchmark's database: 100 commits a second (one insert
// each, paced from the start so it keeps the rate), until stopped. Prints "ready" once its
// table exists, then the number of commits so far every 250 ms.
// `deno run -A _committer.ts <sqlite path | postgres url> [schema]`.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { databaseFromArgs } from "../_db.ts";

const PER_SECOND = 100;
const database = databaseFromArgs(Deno.args);

let commit: () => unknown;
if (database.kind === "postgres") {
  const client = new pg.Client({
    connectionString: database.url,
    options: `-c search_path=${database.schema}`,
  });
  await client.connect();
  await client.query(
    `create table if not exists "bench_ticks" ("id" bigserial primary key, "at" bigint not null)`,
  );
  commit = () =>
    client.query(`insert into "bench_ticks" ("at") values ($1)`, [Date.now()]);
} else {
  const db = new DatabaseSync(database.url);
  db.exec("pragma busy_timeout = 5000");
  db.exec("pragma synchronous = normal");
  db.exec(
    `create table if not exists "bench_ticks" ("id" integer primary key, "at" integer not null)`,
  );
  const insert = db.prepare(`insert into "bench_ticks" ("at") values (?)`);
  commit = () => insert.run(Date.now());
}

console.log("ready");
const started = performance.now();
let done = 0;
setInterval(() => console.log(String(done)), 250);
while (true) {
  await commit();
  done++;
  const due = started + (done * 1000) / PER_SECOND;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
