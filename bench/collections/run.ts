/**
 * Collections API benchmark (issue 4): `GET /collections/posts?where={views:{atLeast:N}}&
 * order=[-views]&limit=20` over 100k rows in a SQLite file (index on views), Strata's API vs a
 * hand-written `Deno.serve` + Kysely endpoint running the same SQL and answering the same
 * JSON. Target: Strata ≥ 0.8× the peer's req/s.
 *
 * Run alone: `deno run -A bench/collections/run.ts`.
 *
 * @module
 */
import {
  loadDescription,
  QUICK,
  ROUNDS,
  type Server,
  startServer,
  wrk,
} from "../_load.ts";
import { type BenchReport, printReport } from "../_report.ts";
import { seedDatabase } from "./_seed.ts";
import { listPath, ROWS } from "./_shape.ts";

const SERVER = new URL("./server.ts", import.meta.url);
const CONNECTIONS = 32;

/** Seeds a database, serves it both ways and measures the list request. */
export async function collectionsBench(): Promise<BenchReport> {
  const dir = await Deno.makeTempDir({ prefix: "strata-collections-bench-" });
  const database = `${dir}/bench.db`;
  const rows = QUICK ? ROWS / 10 : ROWS;
  const path = listPath(rows);
  const servers: Server[] = [];
  try {
    await seedDatabase(database, rows);
    const strata = await startServer(
      SERVER,
      ["strata", "8750", database],
      8750,
    );
    servers.push(strata);
    const peer = await startServer(SERVER, ["kysely", "8751", database], 8751);
    servers.push(peer);
    const url = (server: Server) => `http://127.0.0.1:${server.port}${path}`;
    const [ours, theirs] = await Promise.all(
      [strata, peer].map(async (server) => {
        const response = await fetch(url(server));
        return `${response.status} ${await response.text()}`;
      }),
    );
    if (ours !== theirs || !ours.startsWith("200 [{")) {
      throw new Error(`The servers answer differently:\n${ours}\n${theirs}`);
    }
    for (const server of servers) {
      await wrk(url(server), { duration: "1s", connections: CONNECTIONS });
    }
    let best = { strata: 0, peer: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      best = {
        strata: Math.max(
          best.strata,
          await wrk(url(strata), { connections: CONNECTIONS }),
        ),
        peer: Math.max(
          best.peer,
          await wrk(url(peer), { connections: CONNECTIONS }),
        ),
      };
    }
    return {
      title: "Collections API: list with where/order/limit over SQLite",
      method:
        `${rows} rows (SQLite file, WAL, index on views); GET ${path}; ${await loadDescription(
          CONNECTIONS,
        )}; same JSON bytes from both (checked first)`,
      rows: [{
        measure: "list req/s",
        peer: "Deno.serve + Kysely",
        peerValue: best.peer,
        ours: best.strata,
        min: 0.8,
      }],
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) printReport(await collectionsBench());
