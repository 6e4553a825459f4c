/**
 * Realtime fan-out (issue 15): 1,000 subscribers of `GET /collections/items/events` in 10
 * groups (10 different `where`s, each matching every item, 100 subscribers each) while a
 * client creates 100 items a second. Every subscriber must receive every event, and the p99
 * from commit to delivery must stay under 250 ms. Latency is the arrival time at the
 * subscriber minus the item's `_updatedAt` (taken in the write's transaction, just before
 * its commit, on the same clock). The server runs in its own process (pinned to the server
 * core when possible); subscribers and writer share the bench process. The target is
 * absolute, so the table's "peer" column holds the target.
 *
 * Run alone: `deno run -A bench/realtime/run.ts` (`BENCH_DATABASES=sqlite` for one).
 *
 * @module
 */
import { QUICK, startServer } from "../_load.ts";
import {
  type BenchReport,
  type Comparison,
  percentile,
  printReport,
} from "../_report.ts";
import { type BenchDatabase, freshDatabase, selectedKinds } from "../_db.ts";

const SERVER = new URL("./server.ts", import.meta.url);
const PORT = 8820;
const SUBSCRIBERS = 1000;
const GROUPS = 10;
const RATE = 100;
const SECONDS = QUICK ? 3 : 10;
const TARGET_MS = 250;

/** One subscriber: its connection and what it received. */
interface Subscriber {
  /** Resolves once the stream is open (its `retry:` line came). */
  open: Promise<void>;
  stop(): void;
}

const encoder = new TextEncoder();
const UPDATED_AT = /"_updatedAt":(\d+)[,}]/g;

/**
 * Follows `path` over a raw HTTP/1.1 connection (cheaper than fetch for a thousand streams
 * in one process), calling `onEvent` with each event's latency. The chunked framing is
 * left in the text: only `"_updatedAt":<ms>` is looked for, and one event is one chunk.
 */
function subscribe(
  port: number,
  path: string,
  onEvent: (latency: number) => void,
): Subscriber {
  let conn: Deno.Conn | null = null;
  let stopped = false;
  const open = (async () => {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(
      encoder.encode(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      ),
    );
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(64 * 1024);
    let text = "";
    let opened = false;
    let ready!: () => void;
    const isOpen = new Promise<void>((resolve) => ready = resolve);
    (async () => {
      while (true) {
        const n = await conn!.read(buffer).catch(() => null);
        if (n === null) return;
        const now = Date.now();
        text += decoder.decode(buffer.subarray(0, n), { stream: true });
        if (!opened) {
          if (!text.includes("retry: 2000")) continue;
          if (!text.startsWith("HTTP/1.1 200")) {
            throw new Error(`${path} answered ${text.split("\r\n")[0]}`);
          }
          opened = true;
          ready();
        }
        let consumed = 0;
        for (const match of text.matchAll(UPDATED_AT)) {
          onEvent(now - Number(match[1]));
          consumed = match.index! + match[0].length;
        }
        text = text.slice(consumed).slice(-4096);
      }
    })().catch((error) => {
      if (!stopped) console.error(error);
    });
    await isOpen;
  })();
  return {
    open,
    stop() {
      stopped = true;
      try {
        (conn as Deno.Conn | null)?.close();
      } catch { /* closed */ }
    },
  };
}

/** Runs the load on `database`: delivered events, expected events, latencies. */
async function measureOn(database: BenchDatabase, port: number) {
  const server = await startServer(
    SERVER,
    [String(port), ...database.args],
    port,
  );
  const base = `http://127.0.0.1:${port}`;
  const latencies: number[] = [];
  const subscribers: Subscriber[] = [];
  try {
    const writes = RATE * SECONDS;
    const expected = writes * SUBSCRIBERS;
    let delivered = 0;
    let allDelivered!: () => void;
    const done = new Promise<void>((resolve) => allDelivered = resolve);
    for (let i = 0; i < SUBSCRIBERS; i++) {
      // Group g follows items with rank ≥ -(g+1): every item, through its own where.
      const where = encodeURIComponent(`{rank:{atLeast:${-1 - (i % GROUPS)}}}`);
      subscribers.push(
        subscribe(port, `/collections/items/events?where=${where}`, (ms) => {
          latencies.push(ms);
          if (++delivered === expected) allDelivered();
        }),
      );
    }
    await Promise.all(subscribers.map((s) => s.open));
    const started = performance.now();
    const posts: Promise<void>[] = [];
    for (let i = 0; i < writes; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posts.push(
        fetch(`${base}/collections/items`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ title: `item ${i}`, rank: i }),
        }).then(async (response) => {
          await response.body?.cancel();
          if (response.status !== 201) {
            throw new Error(`A write answered ${response.status}`);
          }
        }),
      );
    }
    await Promise.all(posts);
    const writeSeconds = (performance.now() - started) / 1000;
    // Everything committed: wait for the last deliveries (at most 30 s).
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      done,
      new Promise((resolve) => timer = setTimeout(resolve, 30_000)),
    ]);
    clearTimeout(timer);
    return { delivered, expected, latencies, writeSeconds, writes };
  } finally {
    for (const subscriber of subscribers) subscriber.stop();
    await server.stop();
  }
}

/**
 * Measures each selected database.
 *
 * @example
 * ```ts ignore
 * printReport(await realtimeBench());
 * ```
 */
export async function realtimeBench(): Promise<BenchReport> {
  const rows: Comparison[] = [];
  const notes: string[] = [];
  for (const [i, kind] of selectedKinds().entries()) {
    const database = await freshDatabase(kind, "realtime");
    try {
      const run = await measureOn(database, PORT + i);
      rows.push(
        {
          measure:
            `${database.label}: events delivered (${run.writes} writes × ${SUBSCRIBERS})`,
          peer: "every one",
          peerValue: run.expected,
          ours: run.delivered,
          min: 1,
        },
        {
          measure: `${database.label}: p99 commit → delivery, ms`,
          peer: "target",
          peerValue: TARGET_MS,
          ours: percentile(run.latencies, 0.99),
          max: 1,
        },
        {
          measure: `${database.label}: median commit → delivery, ms`,
          peer: "target",
          peerValue: TARGET_MS,
          ours: percentile(run.latencies, 0.5),
        },
      );
      notes.push(
        `${database.label}: ${run.writes} writes in ${
          run.writeSeconds.toFixed(1)
        } s`,
      );
    } finally {
      await database.drop();
    }
  }
  return {
    title:
      "Realtime: committed writes fanned out to 1,000 event stream subscribers",
    method:
      `${SUBSCRIBERS} subscribers of GET /collections/items/events in ${GROUPS} groups (a where each, all matching), ${RATE} creates/s for ${SECONDS} s over HTTP; latency = arrival minus the item's _updatedAt; target: every event delivered, p99 < ${TARGET_MS} ms (${
        notes.join("; ")
      })`,
    rows,
  };
}

if (import.meta.main) printReport(await realtimeBench());
