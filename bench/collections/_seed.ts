// Creates the benchmark database: Strata syncs the schema (table, index on views), then
// 100k rows go in through node:sqlite in one transaction.
import { DatabaseSync } from "node:sqlite";
import { createApp } from "../../mod.ts";
import { ROWS } from "./_shape.ts";

/** The benchmark app's folder. */
export const APP_ROOT: string = new URL("./app/", import.meta.url).pathname;

/** Seeds `path` (a SQLite file) with {@link ROWS} posts. */
export async function seedDatabase(path: string, rows = ROWS): Promise<void> {
  const app = await createApp({ root: APP_ROOT, database: path });
  await app.close();
  const db = new DatabaseSync(path);
  try {
    const insert = db.prepare(
      'insert into "Posts" ("UUID", "_updatedAt", "title", "excerpt", "views", "published") values (?, ?, ?, ?, ?, ?)',
    );
    const now = Date.now();
    db.exec("begin");
    for (let i = 0; i < rows; i++) {
      // A permutation of 0..rows-1: distinct view counts, unrelated to insertion order.
      const views = (i * 7919) % rows;
      insert.run(
        crypto.randomUUID(),
        now - i,
        `Post number ${i}`,
        `An excerpt of post ${i}, long enough to look like one.`,
        views,
        i % 3 === 0 ? 1 : 0,
      );
    }
    db.exec("commit");
    db.exec("analyze");
  } finally {
    db.close();
  }
}
