/**
 * Event-loop benchmark (issue 11): on a SQLite file, while one request runs the slowest
 * query the grammar allows within the default guards for ~10 s (a `like` of 500 `_` over
 * 400 KB values; `query.timeout` raised to 60 s for it), a fixed-rate client reads a route
 * that does not touch the database and a record by UUID. Target: p99 latency of each
 * under 50 ms. Latency is counted from when a request was due, so a stalled server cannot
 * hide behind requests the client failed to send. A bare `Deno.serve` (the control) is read
 * by the same client at the same time: its latencies are what the machine adds. Neither
 * server is pinned to a core: the reader thread that runs the slow query may take the
 * other core, as it would in a deployment.
 *
 * Run alone: `deno run -A bench/event_loop/run.ts`.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { createApp } from "../../mod.ts";
import { QUICK, type Server, startServer } from "../_load.ts";
import {
  type BenchReport,
  type Comparison,
  percentile,
  printReport,
} from "../_report.ts";
import { freshDatabase } from "../_db.ts";

const SERVER = new URL("./server.ts", import.meta.url);
const APP_ROOT = new URL("./app/", import.meta.url).pathname;
const PORT = 8780;
/** How long the slow query should run. */
const SLOW_SECONDS = QUICK ? 3 : 10;
/** Requests per second to each of the two routes. */
const RATE = 50;
const TARGET_MS = 50;
const LONG_BODY = "ab".repeat(200_000);
/** 503 bytes, within `maxPatternBytes` (512): each `_` may match anywhere. */
const SLOW_PATTERN = "%" + "_".repeat(500) + "z%";
const SLOW_PATH = `/collections/notes?select=[UUID]&where=${
  encodeURIComponent(`{body:{like:\`${SLOW_PATTERN}}}`)
}`;

function insertNotes(path: string, bodies: string[]): string[] {
  const db = new DatabaseSync(path);
  try {
    db.exec("pragma busy_timeout = 5000");
    const insert = db.prepare(
      'insert into "Notes" ("UUID", "_updatedAt", "body") values (?, ?, ?)',
    );
    const uuids: string[] = [];
    db.exec("begin");
    for (const body of bodies) {
      const uuid = crypto.randomUUID();
      insert.run(uuid, Date.now(), body);
      uuids.push(uuid);
    }
    db.exec("commit");
    return uuids;
  } finally {
    db.close();
  }
}

/** Runs the slow query once; its status and seconds. */
async function slowQuery(
  port: number,
): Promise<{ status: number; seconds: number }> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${SLOW_PATH}`);
  await response.body?.cancel();
  return {
    status: response.status,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Sends a request to each of `urls` every 1/RATE s until `done()` (or `seconds` pass); the
 * latency of each from its due time, by URL.
 */
async function fixedRate(
  urls: readonly string[],
  done: () => boolean,
  seconds: number,
): Promise<number[][]> {
  const latencies = urls.map((): number[] => []);
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; !done(); i++) {
    const due = started + (i * 1000) / RATE;
    if (due - started > seconds * 1000) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    urls.forEach((url, k) =>
      pending.push(
        fetch(url).then(async (response) => {
          await response.arrayBuffer();
          if (response.status !== 200) {
            throw new Error(`${url} answered ${response.status}`);
          }
          latencies[k].push(performance.now() - due);
        }),
      )
    );
  }
  await Promise.all(pending);
  return latencies;
}

/** Seeds, calibrates the slow query to ~SLOW_SECONDS, then measures. */
export async function eventLoopBench(): Promise<BenchReport> {
  const database = await freshDatabase("sqlite", "event-loop");
  const servers: Server[] = [];
  try {
    await (await createApp({ root: APP_ROOT, database: database.url }))
      .close();
    const [short] = insertNotes(
      database.url,
      Array.from({ length: 100 }, (_, i) => `A short note, number ${i}.`),
    );
    const sample = 3;
    insertNotes(database.url, Array(sample).fill(LONG_BODY));
    servers.push(
      await startServer(SERVER, ["strata", String(PORT), database.url], PORT, {
        pin: false,
      }),
      await startServer(SERVER, ["control", String(PORT + 1)], PORT + 1, {
        pin: false,
      }),
    );
    // Calibrate: how long the query takes per long row here, now.
    const probe = await slowQuery(PORT);
    if (probe.status !== 200) {
      throw new Error(`The slow query answered ${probe.status}`);
    }
    const longRows = Math.min(
      400,
      Math.max(sample, Math.round((sample * SLOW_SECONDS) / probe.seconds)),
    );
    insertNotes(database.url, Array(longRows - sample).fill(LONG_BODY));
    const base = `http://127.0.0.1:${PORT}`;
    const urls = [
      `${base}/ping`,
      `${base}/collections/notes/${short}`,
      `http://127.0.0.1:${PORT + 1}/ping`,
    ];
    // Warm-up, then the same client with no slow query running, for comparison.
    await fixedRate(urls, () => false, 1);
    const idle = await fixedRate(urls, () => false, QUICK ? 2 : 5);
    let slowDone = false;
    const slow = slowQuery(PORT).finally(() => slowDone = true);
    const during = await fixedRate(urls, () => slowDone, SLOW_SECONDS * 6);
    const { status, seconds } = await slow;
    if (status !== 200) throw new Error(`The slow query answered ${status}`);
    const names = ["GET /ping (no database)", "GET /collections/notes/<UUID>"];
    const p99 = (values: number[]) => percentile(values, 0.99);
    const rows: Comparison[] = names.map((name, k) => ({
      measure: `${name} p99 ms during the slow query (${
        during[k].length
      } requests)`,
      peer: "target",
      peerValue: TARGET_MS,
      ours: p99(during[k]),
      max: 1,
      digits: 1,
    }));
    rows.push(...names.map((name, k) => ({
      measure: `${name} p99 ms during the slow query`,
      peer: "control: bare Deno.serve /ping, same client, same time",
      peerValue: p99(during[2]),
      ours: p99(during[k]),
      digits: 1,
    })));
    rows.push(...names.map((name, k) => ({
      measure: `${name} p99 ms, no slow query (${idle[k].length} requests)`,
      peer: "control, same time",
      peerValue: p99(idle[2]),
      ours: p99(idle[k]),
      digits: 1,
    })));
    rows.push(...names.map((name, k) => ({
      measure: `${name} max ms during the slow query`,
      peer: "control, same time",
      peerValue: Math.max(...during[2]),
      ours: Math.max(...during[k]),
      digits: 1,
    })));
    return {
      title: "Event loop: serving while a slow query runs (SQLite file)",
      method:
        `GET /collections/notes?select=[UUID]&where={body:{like:\`%_…_z%}} (500 \`_\`, URL-encoded) over ${longRows} notes of 400 KB (+100 short ones) ran ${
          seconds.toFixed(1)
        } s (200, query.timeout 60 s); meanwhile a fixed-rate client sent ${RATE} req/s to each route and to the control, latency from each request's due time; no server pinned`,
      rows,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await database.drop();
  }
}

if (import.meta.main) printReport(await eventLoopBench());
