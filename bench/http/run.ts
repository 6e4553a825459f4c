/**
 * HTTP benchmark (issue 2): the same 200 routes served by Strata, by Hono (npm:hono, default
 * router) and by a raw `Deno.serve` doing a Map lookup, all answering the same JSON bytes;
 * load from `wrk` on loopback. Targets on the param route: Strata ≥ 1.0× Hono, ≥ 0.9× raw.
 *
 * Run alone: `deno run -A bench/http/run.ts`.
 *
 * @module
 */
import { BENCH_PATHS } from "./routes.ts";
import {
  loadDescription,
  ROUNDS,
  type Server,
  startServer,
  wrk,
} from "../_load.ts";
import { type BenchReport, type Comparison, printReport } from "../_report.ts";

const KINDS = ["strata", "hono", "raw"] as const;
type Kind = typeof KINDS[number];
type PathName = keyof typeof BENCH_PATHS;
const SERVER = new URL("./server.ts", import.meta.url);

function sortKeys(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).sort(([a], [b]) => a < b ? -1 : 1).map((
      [key, inner],
    ) => [key, sortKeys(inner)]),
  );
}

/** Every server must send the same status and body for each path before speed is compared. */
async function checkSameAnswers(servers: Record<Kind, Server>): Promise<void> {
  for (const [name, path] of Object.entries(BENCH_PATHS)) {
    const answers = await Promise.all(KINDS.map(async (kind) => {
      const response = await fetch(
        `http://127.0.0.1:${servers[kind].port}${path}`,
      );
      const text = await response.text();
      // Hono lists params in another order: same bytes, same content.
      return `${response.status} ${text.length} ${
        JSON.stringify(sortKeys(JSON.parse(text)))
      }`;
    }));
    if (new Set(answers).size !== 1) {
      throw new Error(
        `The servers answer ${name} differently:\n${answers.join("\n")}`,
      );
    }
  }
}

/** Measures every server on every path and returns the report. */
export async function httpBench(): Promise<BenchReport> {
  const servers = {} as Record<Kind, Server>;
  try {
    for (const [i, kind] of KINDS.entries()) {
      servers[kind] = await startServer(
        SERVER,
        [kind, String(8700 + i)],
        8700 + i,
      );
    }
    await checkSameAnswers(servers);
    const best = {} as Record<Kind, Record<PathName, number>>;
    for (const kind of KINDS) best[kind] = { static: 0, param: 0, notFound: 0 };
    const url = (kind: Kind, path: string) =>
      `http://127.0.0.1:${servers[kind].port}${path}`;
    for (const kind of KINDS) {
      for (const path of Object.values(BENCH_PATHS)) {
        await wrk(url(kind, path), { duration: "1s" }, true); // warm-up (JIT, caches)
      }
    }
    // Interleaved: each round measures every server on every path, so a noisy moment on a
    // shared machine hits all peers alike; each keeps its best round.
    for (let round = 0; round < ROUNDS; round++) {
      for (
        const [name, path] of Object.entries(BENCH_PATHS) as [
          PathName,
          string,
        ][]
      ) {
        for (const kind of KINDS) {
          const rate = await wrk(url(kind, path), {}, name === "notFound");
          best[kind][name] = Math.max(best[kind][name], rate);
        }
      }
    }
    const rows: Comparison[] = [];
    for (
      const [name, path] of Object.entries(BENCH_PATHS) as [PathName, string][]
    ) {
      const measured = name === "param";
      rows.push({
        measure: `${name} ${path} req/s`,
        peer: "Hono",
        peerValue: best.hono[name],
        ours: best.strata[name],
        min: measured ? 1.0 : undefined,
      });
      rows.push({
        measure: `${name} ${path} req/s`,
        peer: "raw Deno.serve",
        peerValue: best.raw[name],
        ours: best.strata[name],
        min: measured ? 0.9 : undefined,
      });
    }
    return {
      title: "HTTP: 200 routes, Strata vs Hono vs raw Deno.serve",
      method:
        `${await loadDescription()}; same JSON bytes from every server (checked first)`,
      rows,
    };
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
}

if (import.meta.main) printReport(await httpBench());
