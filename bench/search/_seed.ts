// Creates the search benchmark's database: Strata syncs the schema (the table, its full-text
// index and the triggers keeping it), then the posts go in through the driver in one
// transaction, the triggers indexing each one. A post's body is about 200 words drawn from a
// vocabulary of made-up words; NEEDLE is in every 100th post (1% of the rows) and no other
// word contains it.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { createApp } from "../../mod.ts";
import { registerSqliteFunctions } from "../../collections/db/sqlite_functions.ts";
import type { BenchDatabase } from "../_db.ts";

/** The benchmark app's folder. */
export const APP_ROOT: string = new URL("./app/", import.meta.url).pathname;

/** Posts in the benchmark. */
export const ROWS = 100_000;

/** The word searched for: in 1% of the posts. */
export const NEEDLE = "zephyr";

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tu",
  "sa",
  "vo",
  "bel",
  "dri",
  "no",
  "pa",
  "ost",
];

/** A deterministic generator (mulberry32), so every run seeds the same text. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < 5000) {
    const length = 2 + Math.floor(next() * 3);
    let word = "";
    for (let i = 0; i < length; i++) {
      word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    }
    words.add(word);
  }
  return [...words];
}

/** The posts: `[title, body]` pairs, NEEDLE in every 100th body. */
export function posts(rows = ROWS): [string, string][] {
  const next = random(42);
  const words = vocabulary(next);
  const out: [string, string][] = [];
  for (let i = 0; i < rows; i++) {
    const body: string[] = [];
    const length = 180 + Math.floor(next() * 40);
    for (let w = 0; w < length; w++) {
      body.push(words[Math.floor(next() * words.length)]);
    }
    if (i % 100 === 0) body[Math.floor(next() * length)] = NEEDLE;
    out.push([`Post ${i}`, body.join(" ")]);
  }
  return out;
}

/** Seeds `database` with `rows` posts. */
export async function seedDatabase(
  database: Pick<BenchDatabase, "kind" | "url" | "schema">,
  rows = ROWS,
): Promise<void> {
  const app = await createApp({
    root: APP_ROOT,
    database: database.url,
    databaseSchema: database.schema,
  });
  await app.close();
  const data = posts(rows);
  const now = Date.now();
  if (database.kind === "postgres") {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`set search_path = "${database.schema}"`);
      await client.query("begin");
      for (let at = 0; at < data.length; at += 1000) {
        const part = data.slice(at, at + 1000);
        await client.query(
          `insert into "Posts" ("UUID", "_updatedAt", "title", "body")
           select gen_random_uuid()::text, $1::bigint, t, b
           from unnest($2::text[], $3::text[]) as x(t, b)`,
          [now, part.map((p) => p[0]), part.map((p) => p[1])],
        );
      }
      await client.query("commit");
      await client.query(`vacuum analyze "Posts"`);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new DatabaseSync(database.url);
  // The index's triggers fold text with Strata's function, as every Strata connection does.
  registerSqliteFunctions(db);
  try {
    const insert = db.prepare(
      'insert into "Posts" ("UUID", "_updatedAt", "title", "body") values (?, ?, ?, ?)',
    );
    db.exec("begin");
    for (const [title, body] of data) {
      insert.run(crypto.randomUUID(), now, title, body);
    }
    db.exec("commit");
    db.exec("analyze");
  } finally {
    db.close();
  }
}
