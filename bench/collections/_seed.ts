// Creates the benchmark database: Strata syncs the schema (tables, index on views), then the
// rows go in through the driver in one statement per table or one transaction.
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { createApp } from "../../mod.ts";
import type { BenchDatabase } from "../_db.ts";
import { ROWS } from "./_shape.ts";

/**
 * The tables seeded alike: creates into Drafts (no change log) are compared with creates
 * into Posts, and an insert into a table of 100k rows costs more than into an empty one.
 */
const TABLES = ["Posts", "Drafts"];

/** The benchmark app's folder. */
export const APP_ROOT: string = new URL("./app/", import.meta.url).pathname;

/**
 * Seeds `database` with `rows` posts in Posts and in Drafts alike, whose view counts are a
 * permutation of 0 … rows-1 (distinct, unrelated to insertion order); a third are published.
 */
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
  const now = Date.now();
  if (database.kind === "postgres") {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`set search_path = "${database.schema}"`);
      for (const table of TABLES) {
        await client.query(
          `insert into "${table}" ("UUID", "_updatedAt", "title", "excerpt", "views", "published")
           select gen_random_uuid()::text, $1::bigint - i, 'Post number ' || i,
             'An excerpt of post ' || i || ', long enough to look like one.',
             (i::bigint * 7919) % $2, i % 3 = 0
           from generate_series(0, $2 - 1) as i`,
          [now, rows],
        );
        await client.query(`vacuum analyze "${table}"`);
      }
    } finally {
      await client.end();
    }
    return;
  }
  const db = new DatabaseSync(database.url);
  try {
    db.exec("begin");
    for (const table of TABLES) {
      const insert = db.prepare(
        `insert into "${table}" ("UUID", "_updatedAt", "title", "excerpt", "views", "published") values (?, ?, ?, ?, ?, ?)`,
      );
      for (let i = 0; i < rows; i++) {
        insert.run(
          crypto.randomUUID(),
          now - i,
          `Post number ${i}`,
          `An excerpt of post ${i}, long enough to look like one.`,
          (i * 7919) % rows,
          i % 3 === 0 ? 1 : 0,
        );
      }
    }
    db.exec("commit");
    db.exec("analyze");
  } finally {
    db.close();
  }
}
