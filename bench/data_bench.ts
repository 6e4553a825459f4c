/**
 * Data-layer benchmark (issue 3): on a SQLite file in a temp folder, N point reads by UUID
 * and N inserts through (a) the query builder, (b) raw Kysely issuing the same SQL, (c) raw
 * `node:sqlite` prepared statements (the floor, no target). Target: builder ≥ 0.7× Kysely.
 * Inserts also run on a collection with `events: false`: the default collection writes a
 * change-log row in each insert's transaction, which the raw peers do not.
 *
 * Run alone: `deno run -A bench/data_bench.ts [count]`.
 *
 * @module
 */

import { kyselyOf } from "../collections/database.ts";
import { DatabaseSync } from "node:sqlite";
import { defineCollection, field, openDataLayer } from "../collections/mod.ts";
import { QUICK } from "./_load.ts";
import { type BenchReport, printReport } from "./_report.ts";

const ROUNDS = QUICK ? 1 : 3;

/**
 * Runs every variant `ROUNDS` times, interleaved, and keeps each variant's best round:
 * disk and scheduler noise then hits all variants alike. Returns ops/s.
 */
async function compare(
  n: number,
  variants: Record<string, (i: number) => unknown>,
): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  let offset = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(variants)) {
      // Warm up (statement caches, JIT) before timing.
      for (let i = 0; i < Math.min(200, n); i++) await run(offset + i);
      offset += 200;
      const start = performance.now();
      for (let i = 0; i < n; i++) await run(offset + i);
      offset += n;
      const ops = n / ((performance.now() - start) / 1000);
      best[name] = Math.max(best[name] ?? 0, ops);
    }
  }
  return best;
}

/** Measures inserts and point reads and returns the report. */
export async function dataBench(
  n = QUICK ? 1_000 : 10_000,
): Promise<BenchReport> {
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
      // The same without change events: no change-log row in each write's transaction.
      Quiet: defineCollection({
        fields: {
          name: field("text"),
          views: field("integer", { default: 0 }),
          published: field("boolean", { default: false }),
        },
        events: false,
      }),
    },
  });
  const db = kyselyOf(data.db);
  const raw = new DatabaseSync(path);
  try {
    // The same settings as the data layer's connection, so only the code path differs.
    raw.exec("pragma busy_timeout = 2000; pragma synchronous = normal");

    // Inserts. Each write is one transaction (BEGIN IMMEDIATE … COMMIT), like the builder's.
    const now = Date.now();
    const begin = raw.prepare("begin immediate");
    const commit = raw.prepare("commit");
    const insert = raw.prepare(
      'insert into "Items" ("UUID", "_updatedAt", "name", "views", "published") values (?, ?, ?, ?, ?)',
    );
    const inserts = await compare(n, {
      "query builder": (i) =>
        data.query("Items").create({ name: `b${i}`, views: i }),
      "query builder, events: false": (i) =>
        data.query("Quiet").create({ name: `q${i}`, views: i }),
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
    const ids = (await db.selectFrom("Items").select("UUID").limit(n).execute())
      .map((r) => r.UUID as string);
    const pick = (i: number) => ids[i % ids.length];
    const items = data.query("Items");
    const select = raw.prepare(
      'select "UUID", "_updatedAt", "name", "views", "published" from "Items" where "UUID" = ? limit 1',
    );
    const reads = await compare(n, {
      "query builder": (i) => items.findByUUID(pick(i)),
      "raw Kysely": (i) =>
        db.selectFrom("Items as m")
          .select([
            "m.UUID",
            "m._updatedAt",
            "m.name",
            "m.views",
            "m.published",
          ])
          .where("m.UUID", "=", pick(i))
          .limit(1)
          .execute(),
      "node:sqlite": (i) => select.all(pick(i)),
    });
    return {
      title: "Data layer: query builder vs raw Kysely vs node:sqlite",
      method:
        `SQLite file (WAL, synchronous=normal), ${n} operations per round, best of ${ROUNDS} interleaved rounds, ops/s; each insert is its own transaction`,
      rows: [
        {
          measure: "insert ops/s",
          peer: "raw Kysely",
          peerValue: inserts["raw Kysely"],
          ours: inserts["query builder"],
          min: 0.7,
        },
        {
          // Why the row above may miss: every write of a collection with events (the
          // default) also appends its change-log row, three more pages per commit.
          measure: "insert ops/s, collection with events: false",
          peer: "raw Kysely",
          peerValue: inserts["raw Kysely"],
          ours: inserts["query builder, events: false"],
        },
        {
          measure: "insert ops/s",
          peer: "node:sqlite (floor)",
          peerValue: inserts["node:sqlite"],
          ours: inserts["query builder"],
        },
        {
          measure: "read by UUID ops/s",
          peer: "raw Kysely",
          peerValue: reads["raw Kysely"],
          ours: reads["query builder"],
          min: 0.7,
        },
        {
          measure: "read by UUID ops/s",
          peer: "node:sqlite (floor)",
          peerValue: reads["node:sqlite"],
          ours: reads["query builder"],
        },
      ],
    };
  } finally {
    raw.close();
    await data.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const count = Deno.args[0] === undefined ? undefined : Number(Deno.args[0]);
  printReport(await dataBench(count));
}
