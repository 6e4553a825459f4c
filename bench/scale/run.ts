/**
 * Scale: does a list stay as fast over 1,000,000 rows as over 1,000 (issue 11: "list latency
 * must stay flat from 1k to 1M rows on PostgreSQL")? For each size the collections
 * benchmark's table is seeded afresh and the same list is asked — `views` at least half the
 * rows' range, ordered by `-views`, 20 rows (`listPath` of bench/collections) — through
 * `app.fetch` in this process, one request at a time, so each figure is one request's
 * latency with nothing queued before it. Beside it, the same query by hand on the driver
 * (`pg`, `node:sqlite`, rows mapped to JSON) at each size: what the database itself takes.
 * Target: Strata's median at 1M rows within 1.5× its median at 1k rows, on each database.
 *
 * Run alone: `deno run -A bench/scale/run.ts` (`BENCH_DATABASES`, `BENCH_QUICK` as for the
 * others; quick runs stop at 10,000 rows and have no target).
 *
 * @module
 */
import pg from "pg";
import { DatabaseSync } from "node:sqlite";
import { createApp } from "../../mod.ts";
import { QUICK } from "../_load.ts";
import { type BenchDatabase, freshDatabase, selectedKinds } from "../_db.ts";
import {
  type BenchReport,
  type Comparison,
  median,
  percentile,
  printReport,
} from "../_report.ts";
import { APP_ROOT, seedDatabase } from "../collections/_seed.ts";
import { listPath } from "../collections/_shape.ts";

/** What {@link scaleBench} runs; the defaults are the measurement's. */
export interface ScaleOptions {
  /** Table sizes, smallest first (default 1k, 10k, 100k, 1M; quick: 1k, 10k). */
  readonly sizes?: readonly number[];
  /** Requests per side, size and round (default 1,000; quick: 200). */
  readonly requests?: number;
  /** Rounds (default 3; quick: 1). */
  readonly rounds?: number;
}
/** The flatness target: the largest size's median within this factor of the smallest's. */
const FLAT = 1.5;

/** One size's latencies in ms, Strata's and the driver's. */
interface SizeResult {
  readonly rows: number;
  readonly strata: number[];
  readonly driver: number[];
}

/** The hand-written list on the driver: the peer's query, rows mapped as the peer maps them. */
type DriverList = (minViews: number) => Promise<string>;

const COLUMNS =
  `"UUID", "title", "excerpt", "views", "published", "_updatedAt"`;

async function driverList(
  database: BenchDatabase,
): Promise<{ list: DriverList; close(): Promise<void> }> {
  if (database.kind === "postgres") {
    const client = new pg.Client({
      connectionString: database.url,
      options: `-c search_path=${database.schema}`,
    });
    await client.connect();
    const text =
      `select ${COLUMNS} from "Posts" where "views" >= $1 order by "views" desc nulls last, "UUID" desc limit 20`;
    return {
      async list(minViews) {
        const { rows } = await client.query({
          name: "scale_list",
          text,
          values: [minViews],
        });
        return JSON.stringify(rows.map((row: Record<string, unknown>) => ({
          ...row,
          views: row.views === null ? null : Number(row.views),
          _updatedAt: Number(row._updatedAt),
        })));
      },
      close: () => client.end(),
    };
  }
  const db = new DatabaseSync(database.url);
  const statement = db.prepare(
    `select ${COLUMNS} from "Posts" where "views" >= ? order by "views" desc, "UUID" desc limit 20`,
  );
  return {
    list(minViews) {
      const rows = statement.all(minViews) as Record<string, unknown>[];
      return Promise.resolve(JSON.stringify(rows.map((row) => ({
        ...row,
        published: row.published === null ? null : row.published === 1,
      }))));
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

/** Times `count` calls of `work`, one after the other; latencies in ms. */
async function timed(
  count: number,
  work: () => Promise<unknown>,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** One size's database, app and driver, seeded and ready. */
interface Prepared {
  readonly rows: number;
  readonly viaStrata: () => Promise<unknown>;
  readonly viaDriver: () => Promise<unknown>;
  close(): Promise<void>;
}

async function prepareSize(
  kind: "sqlite" | "postgres",
  rows: number,
): Promise<Prepared> {
  const database = await freshDatabase(kind, "scale");
  try {
    await seedDatabase(database, rows);
    const app = await createApp({
      root: APP_ROOT,
      database: database.url,
      databaseSchema: database.schema,
    });
    const driver = await driverList(database);
    const url = `http://localhost${listPath(rows)}`;
    const minViews = Math.floor(rows / 2);
    const viaStrata = async () => {
      const response = await app.fetch(new Request(url));
      if (response.status !== 200) {
        throw new Error(`The list answered ${response.status}`);
      }
      return await response.text();
    };
    const viaDriver = () => driver.list(minViews);
    const close = async () => {
      await driver.close();
      await app.close();
      await database.drop();
    };
    // The same 20 rows from both, before any clock runs.
    const uuids = (body: string) =>
      (JSON.parse(body) as { UUID: string }[]).map((r) => r.UUID).join();
    if (uuids(await viaStrata()) !== uuids(await viaDriver())) {
      await close();
      throw new Error(`Strata and the driver listed different rows`);
    }
    return { rows, viaStrata, viaDriver, close };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * Every size's database is seeded and opened first; then each round asks every size in
 * turn, so that a machine busier at one moment weighs on all sizes alike.
 */
async function measureSizes(
  kind: "sqlite" | "postgres",
  sizes: readonly number[],
  requests: number,
  rounds: number,
): Promise<SizeResult[]> {
  const prepared: Prepared[] = [];
  try {
    for (const rows of sizes) prepared.push(await prepareSize(kind, rows));
    const results = prepared.map((size) => ({
      rows: size.rows,
      strata: [] as number[],
      driver: [] as number[],
    }));
    for (const size of prepared) {
      await timed(Math.ceil(requests / 5), size.viaStrata);
      await timed(Math.ceil(requests / 5), size.viaDriver);
    }
    for (let round = 0; round < rounds; round++) {
      for (const [i, size] of prepared.entries()) {
        results[i].strata.push(...await timed(requests, size.viaStrata));
        results[i].driver.push(...await timed(requests, size.viaDriver));
      }
    }
    return results;
  } finally {
    for (const size of prepared) await size.close();
  }
}

function sizeLabel(rows: number): string {
  return rows >= 1_000_000
    ? `${rows / 1_000_000}M`
    : rows >= 1_000
    ? `${rows / 1_000}k`
    : String(rows);
}

/**
 * Runs the scale benchmark on each selected database.
 *
 * @example
 * ```ts ignore
 * printReport(await scaleBench());
 * ```
 */
export async function scaleBench(
  options: ScaleOptions = {},
): Promise<BenchReport> {
  const sizes = options.sizes ??
    (QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000]);
  const requests = options.requests ?? (QUICK ? 200 : 1_000);
  const rounds = options.rounds ?? (QUICK ? 1 : 3);
  // A target only where the sizes span what the issue asks (1k to 1M rows).
  const judged = !QUICK && sizes[sizes.length - 1] / sizes[0] >= 1_000;
  const rows: Comparison[] = [];
  for (const kind of selectedKinds()) {
    const label = kind === "sqlite" ? "SQLite" : "PostgreSQL";
    const results = await measureSizes(kind, sizes, requests, rounds);
    for (const result of results) {
      rows.push({
        measure: `${label}: list at ${
          sizeLabel(result.rows)
        } rows, median / p99 ms: ${median(result.strata).toFixed(3)} / ${
          percentile(result.strata, 0.99).toFixed(3)
        }`,
        peer: "the query by hand on the driver",
        peerValue: median(result.driver),
        ours: median(result.strata),
        digits: 3,
      });
    }
    const [smallest, largest] = [results[0], results[results.length - 1]];
    rows.push({
      measure: `${label}: list median at ${sizeLabel(largest.rows)} rows, ms`,
      peer: `the same at ${sizeLabel(smallest.rows)} rows`,
      peerValue: median(smallest.strata),
      ours: median(largest.strata),
      max: judged ? FLAT : undefined,
      digits: 3,
    });
  }
  return {
    title: "Scale: a list over 1k to 1M rows",
    method:
      `${rounds} rounds of ${requests} requests one at a time through app.fetch (Strata) ` +
      `and calls of the same query by hand on the driver, per size, each round going over ` +
      `every size in turn; the collections benchmark's Posts seeded in a database of each size (views a permutation of ` +
      `0 … rows-1, indexed); the list: views ≥ rows/2, order -views, limit 20. Ratio: ` +
      `Strata / driver in latency (lower is better); the target row: Strata at the largest ` +
      `size / Strata at the smallest, ≤ ${FLAT}`,
    rows,
  };
}

if (import.meta.main) printReport(await scaleBench());
