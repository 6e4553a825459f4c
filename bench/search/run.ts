/**
 * Search benchmark (issue 18): 100,000 posts of about 200 words, on a SQLite file (WAL) and
 * on PostgreSQL (a fresh schema, dropped afterwards). One page of 20 with its total, the word
 * in 1% of the posts (see _seed.ts):
 * - `search=<word>` against `where={body:{contains:<word>}}`, both through Strata's
 *   collections API (the LIKE-style scan the anchors use): target ≥ 50×;
 * - `search=<word>` against a hand-written `Deno.serve` endpoint reading the same full-text
 *   index with the driver (`node:sqlite` / `npm:pg`, see _peer.ts), answering the same bytes
 *   (checked first): reported, no target.
 *
 * Run alone: `deno run -A bench/search/run.ts` (`BENCH_DATABASES=sqlite` for one).
 *
 * @module
 */
import {
  DURATION,
  loadDescription,
  QUICK,
  ROUNDS,
  type Server,
  startStrataAndPeer,
  threadCpu,
  wrk,
  type WrkOptions,
} from "../_load.ts";
import { type BenchReport, type Comparison, printReport } from "../_report.ts";
import { type BenchDatabase, freshDatabase, selectedKinds } from "../_db.ts";
import { NEEDLE, ROWS, seedDatabase } from "./_seed.ts";

const SERVER = new URL("./server.ts", import.meta.url);
const CONNECTIONS = 16;

const searchPath = `/collections/posts?search=${NEEDLE}&page=1&perPage=20`;
const containsPath = `/collections/posts?where=${
  encodeURIComponent(`{body:{contains:${NEEDLE}}}`)
}&page=1&perPage=20`;

/** Seconds of a wrk duration (`5s`, `20s`). */
function seconds(duration: string): number {
  return Number.parseFloat(duration);
}

async function answer(server: Server, path: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`);
  return `${response.status} ${
    response.headers.get("content-type")
  } ${await response
    .text()}`;
}

async function measureOn(
  database: BenchDatabase,
  rows: number,
  port: number,
): Promise<Comparison[]> {
  const servers: Server[] = [];
  try {
    const seeded = performance.now();
    await seedDatabase(database, rows);
    console.log(
      `${database.label}: seeded and indexed ${rows} posts in ${
        ((performance.now() - seeded) / 1000).toFixed(1)
      } s`,
    );
    const [strata, peer] = await startStrataAndPeer(
      SERVER,
      database.args,
      port,
      servers,
    );
    const ours = await answer(strata, searchPath);
    const theirs = await answer(peer, searchPath);
    if (ours !== theirs || !ours.startsWith("200 ")) {
      throw new Error(
        `The servers answer ${searchPath} differently:\nStrata: ${
          ours.slice(0, 500)
        }\npeer:   ${theirs.slice(0, 500)}`,
      );
    }
    // The scan finds the same posts: the same total.
    const total = (text: string) =>
      JSON.parse(text.replace(/^\S+ \S+ /, "")).total;
    const scanned = await answer(strata, containsPath);
    if (total(scanned) !== total(ours) || total(ours) !== rows / 100) {
      throw new Error(
        `search found ${total(ours)} posts, the scan ${
          total(scanned)
        }, expected ${rows / 100}`,
      );
    }
    const url = (server: Server, path: string) =>
      `http://127.0.0.1:${server.port}${path}`;
    const load = { connections: CONNECTIONS, timeout: "30s" };
    // A scan takes a second or more: few connections, so none waits past wrk's timeout,
    // and long enough for several to complete.
    const scanLoad = {
      connections: 2,
      timeout: "60s",
      duration: QUICK ? "5s" : "20s",
    };
    const runs: { server: Server; path: string; load: WrkOptions }[] = [
      { server: strata, path: searchPath, load },
      { server: strata, path: containsPath, load: scanLoad },
      { server: peer, path: searchPath, load },
    ];
    for (const run of runs) {
      await wrk(url(run.server, run.path), { ...run.load, duration: "1s" });
    }
    const best = runs.map(() => 0);
    // Strata's CPU seconds and requests per run, summed over the rounds: a figure that the
    // other processes sharing the machine disturb far less than requests per second.
    const cpu = runs.map(() => ({ seconds: 0, requests: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so a noisy moment does not always hit the same one.
      const order = round % 2 ? [...runs.keys()].reverse() : [...runs.keys()];
      for (const i of order) {
        const { server, path, load: options } = runs[i];
        const before = await threadCpu(server.pid);
        const rate = await wrk(url(server, path), options);
        const after = await threadCpu(server.pid);
        best[i] = Math.max(best[i], rate);
        if (before && after) {
          cpu[i].seconds += after.main + after.others - before.main -
            before.others;
          cpu[i].requests += rate * seconds(options.duration ?? DURATION);
        }
      }
    }
    const perCpuSecond = (i: number) =>
      cpu[i].seconds > 0 ? cpu[i].requests / cpu[i].seconds : 0;
    const driver = database.kind === "postgres" ? "pg" : "node:sqlite";
    // On SQLite the whole work is the server process's; PostgreSQL does it in its own.
    const cpuRow: Comparison[] = database.kind === "sqlite"
      ? [{
        measure:
          `${database.label}: search=word vs where contains, requests per CPU-second`,
        peer: "Strata, where={body:{contains:word}}",
        peerValue: perCpuSecond(1),
        ours: perCpuSecond(0),
        digits: 2,
      }]
      : [];
    return [
      {
        measure: `${database.label}: search=word vs where contains, req/s`,
        peer: "Strata, where={body:{contains:word}}",
        peerValue: best[1],
        ours: best[0],
        min: 50,
        digits: 2,
      },
      ...cpuRow,
      {
        measure: `${database.label}: search=word req/s`,
        peer: `Deno.serve + ${driver} on the same index`,
        peerValue: best[2],
        ours: best[0],
      },
    ];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Seeds each database, serves it both ways and measures the searches. */
export async function searchBench(): Promise<BenchReport> {
  const rows = QUICK ? ROWS / 10 : ROWS;
  const results: Comparison[] = [];
  for (const [i, kind] of selectedKinds().entries()) {
    const database = await freshDatabase(kind, "search");
    try {
      results.push(...await measureOn(database, rows, 8790 + 2 * i));
    } finally {
      await database.drop();
    }
  }
  return {
    title: "Full-text search vs a LIKE scan and a hand-written endpoint",
    method:
      `${rows} posts of 180–220 made-up words, "${NEEDLE}" in 1% of them (SQLite file in WAL mode; PostgreSQL in a fresh schema); GET ${searchPath} against GET ${containsPath}; ${await loadDescription(
        CONNECTIONS,
      )} (the scan: 2 connections for ${
        QUICK ? 5 : 20
      } s, 60 s request timeout); Strata and the peer answer the same bytes, the scan the same total (checked first)`,
    rows: results,
  };
}

if (import.meta.main) printReport(await searchBench());
