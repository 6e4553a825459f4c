/**
 * Data-layer benchmark (`deno run -A bench/data_bench.ts [count]`): on a SQLite file in a
 * temp folder, N point reads by UUID and N inserts through (a) the query builder, (b) raw
 * Kysely issuing the same SQL, (c) raw `node:sqlite` prepared statements. Prints ops/s and
 * the builder/Kysely ratio (target ≥ 0.7).
 *
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { defineCollection, field, openDataLayer } from "../collections/mod.ts";

const N = Number(Deno.args[0] ?? 10_000);
const dir = await Deno.makeTempDir({ prefix: "strata_bench_" });
const path = `${dir}/bench.db`;

const data = await openDataLayer({
  url: path,
  collections: {
    Items: defineCollection({
      fields: {
        name: field("text"),
        views: field("integer", { default: 0 }),
        published: field("boolean", { default: false }),
      },
    }),
  },
});
const { db } = data;
const raw = new DatabaseSync(path);
// The same settings as the data layer's connection, so only the code path differs.
raw.exec("pragma busy_timeout = 2000; pragma synchronous = normal");

const ROUNDS = 3;

/**
 * Runs every variant `ROUNDS` times, interleaved, and keeps each variant's best round:
 * disk and scheduler noise then hits all variants alike.
 */
async function compare(
  variants: Record<string, (i: number) => unknown>,
): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  let offset = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(variants)) {
      // Warm up (statement caches, JIT) before timing.
      for (let i = 0; i < Math.min(200, N); i++) await run(offset + i);
      offset += 200;
      const start = performance.now();
      for (let i = 0; i < N; i++) await run(offset + i);
      offset += N;
      const ops = N / ((performance.now() - start) / 1000);
      best[name] = Math.max(best[name] ?? 0, ops);
    }
  }
  return best;
}

// Inserts. Each write is one transaction (BEGIN IMMEDIATE … COMMIT), like the builder's.
const now = Date.now();
const begin = raw.prepare("begin immediate");
const commit = raw.prepare("commit");
const insert = raw.prepare(
  'insert into "Items" ("UUID", "_updatedAt", "name", "views", "published") values (?, ?, ?, ?, ?)',
);
const inserts = await compare({
  "query builder": (i) =>
    data.query("Items").create({ name: `b${i}`, views: i }),
  "raw Kysely": (i) =>
    db.transaction().execute((trx) =>
      trx.insertInto("Items").values({
        UUID: crypto.randomUUID(),
        _updatedAt: now,
        name: `k${i}`,
        views: i,
        published: 0,
      }).execute()
    ),
  "node:sqlite": (i) => {
    begin.run();
    insert.run(crypto.randomUUID(), now, `r${i}`, i, 0);
    commit.run();
  },
});

// Point reads by UUID.
const ids = (await db.selectFrom("Items").select("UUID").limit(N).execute())
  .map((r) => r.UUID as string);
const pick = (i: number) => ids[i % ids.length];
const items = data.query("Items");
const select = raw.prepare(
  'select "UUID", "_updatedAt", "name", "views", "published" from "Items" where "UUID" = ? limit 1',
);
const reads = await compare({
  "query builder": (i) => items.findByUUID(pick(i)),
  "raw Kysely": (i) =>
    db.selectFrom("Items as m")
      .select(["m.UUID", "m._updatedAt", "m.name", "m.views", "m.published"])
      .where("m.UUID", "=", pick(i))
      .limit(1)
      .execute(),
  "node:sqlite": (i) => select.all(pick(i)),
});

raw.close();
await data.close();
await Deno.remove(dir, { recursive: true });

const rows: [string, number][] = [
  ...Object.entries(inserts).map(([k, v]) =>
    [`insert: ${k}`, v] as [string, number]
  ),
  ...Object.entries(reads).map(([k, v]) =>
    [`read by UUID: ${k}`, v] as [string, number]
  ),
];
const width = Math.max(...rows.map(([name]) => name.length));
console.log(
  `\nStrata data layer, SQLite file, N = ${N} per round, best of ${ROUNDS}\n`,
);
console.log(`| ${"operation".padEnd(width)} | ${"ops/s".padStart(10)} |`);
console.log(`| ${"-".repeat(width)} | ${"-".repeat(10)} |`);
for (const [name, ops] of rows) {
  console.log(
    `| ${name.padEnd(width)} | ${Math.round(ops).toString().padStart(10)} |`,
  );
}
const insertRatio = inserts["query builder"] / inserts["raw Kysely"];
const readRatio = reads["query builder"] / reads["raw Kysely"];
console.log();
console.log(
  `ratio builder/Kysely: insert ${insertRatio.toFixed(2)}, read by UUID ${
    readRatio.toFixed(2)
  } (target ≥ 0.70)`,
);
