/**
 * Collections API benchmark (issue 11): over 100k rows, on a SQLite file (WAL) and on
 * PostgreSQL (a fresh schema, dropped afterwards), Strata's collections API against a
 * hand-written `Deno.serve` endpoint using the driver directly (`node:sqlite` / `npm:pg`,
 * see _peer.ts) that answers the same JSON bytes (checked first):
 * - list `where={views:{atLeast:N}}&order=[-views]&limit=20`: target ≥ 0.85×;
 * - read by UUID (1,000 UUIDs in turn): ≥ 0.7×;
 * - paginated (`page`/`perPage` with the total): ≥ 0.9×; and, without a target, the same
 *   on a Strata server without a statement deadline (`query.timeout: false`);
 * - create (POST): ≥ 0.8×; and, without a target, create on a collection with
 *   `events: false` (no change-log row per write, like the peer). On SQLite Strata commits
 *   the creates that reach the database in one turn of the event loop as one transaction
 *   (group commit, docs/deployment.md); the peer commits each create on its own, as a
 *   hand-written endpoint does;
 * - Strata's create with the change log (the default) against Strata's create without it
 *   (`events: false`), in the same run: ≥ 0.9× (issue 15), in requests per second and in
 *   requests per CPU-second of the server process (which a busy machine skews least);
 * - the same guarantee by hand: Strata's create with the change log against the peer's create
 *   that also writes an outbox row in its transaction (`?outbox`), ≥ 0.8× like a create; and
 *   what the log costs Strata (on / off) against what that outbox row costs the peer (outbox /
 *   plain), ≥ 0.9×, in requests per second and per CPU-second of each server.
 *
 * The reads are measured first (all their rounds) over the table as seeded, then the creates,
 * which grow it.
 *
 * Run alone: `deno run -A bench/collections/run.ts` (`BENCH_DATABASES=sqlite` for one).
 *
 * @module
 */
import {
  loadDescription,
  luaString,
  QUICK,
  retriedRounds,
  ROUNDS,
  type Server,
  startServer,
  startStrataAndPeer,
  threadCpu,
  wrk,
  type WrkOptions,
} from "../_load.ts";
import { type BenchReport, type Comparison, printReport } from "../_report.ts";
import { type BenchDatabase, freshDatabase, selectedKinds } from "../_db.ts";
import { seedDatabase } from "./_seed.ts";
import { CREATE_BODY, listPath, pagePath, ROWS } from "./_shape.ts";

const SERVER = new URL("./server.ts", import.meta.url);
/** The peer's create that also writes an outbox row in its transaction (_peer.ts). */
const OUTBOX_PATH = "/collections/posts?outbox";
const CONNECTIONS = 32;
const READ_UUIDS = 1000;
/** The first port the servers listen on (`BENCH_PORT`, for a machine that runs two benches). */
const PORT = Number(Deno.env.get("BENCH_PORT") ?? 8750);

interface Measure {
  readonly name: string;
  /** The target; none for a measure that only explains another. */
  readonly min?: number;
  /** Measured on the Strata server without a statement deadline (`query.timeout: false`). */
  readonly untimed?: boolean;
  /** The URL path wrk is pointed at (a script may replace it per request). */
  readonly path: string;
  /** The peer's path, when it differs. */
  readonly peerPath?: string;
  readonly load: WrkOptions;
  /** A create: measured after every read (it grows the table). */
  readonly creates?: boolean;
}

async function answer(
  server: Server,
  path: string,
  init?: RequestInit,
): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, init);
  return `${response.status} ${
    response.headers.get("content-type")
  } ${await response
    .text()}`;
}

/** Throws unless both servers answer `path` with the same status, type and bytes. */
async function checkSame(
  strata: Server,
  peer: Server,
  path: string,
  normalise: (text: string) => string = (text) => text,
  init?: () => RequestInit,
): Promise<string> {
  const ours = normalise(await answer(strata, path, init?.()));
  const theirs = normalise(await answer(peer, path, init?.()));
  if (ours !== theirs || !/^20[01] /.test(ours)) {
    throw new Error(
      `The servers answer ${path} differently:\nStrata: ${ours}\npeer:   ${theirs}`,
    );
  }
  return ours;
}

/** A wrk script reading `paths` in turn. */
function cyclingScript(paths: readonly string[]): string {
  return `local paths = { ${paths.map(luaString).join(", ")} }
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
`;
}

const createScript = `wrk.method = "POST"
wrk.body = ${luaString(CREATE_BODY)}
wrk.headers["Content-Type"] = "application/json"
`;

async function measureOn(
  database: BenchDatabase,
  rows: number,
  port: number,
): Promise<Comparison[]> {
  const servers: Server[] = [];
  try {
    await seedDatabase(database, rows);
    const [strata, peer] = await startStrataAndPeer(
      SERVER,
      database.args,
      port,
      servers,
    );
    const untimed = await startServer(
      SERVER,
      ["strata-untimed", String(port + 2), ...database.args],
      port + 2,
    );
    servers.push(untimed);
    // The same bytes first: the list, the page, a read by UUID, the creates.
    await checkSame(strata, peer, listPath(rows));
    await checkSame(strata, peer, pagePath(rows));
    const all = JSON.parse(
      (await answer(
        peer,
        `/collections/posts?where={views:{atLeast:0}}&order=[-views]&limit=${READ_UUIDS}`,
      )).replace(/^\S+ \S+ /, ""),
    ) as { UUID: string }[];
    const uuidPaths = all.map((post) => `/collections/posts/${post.UUID}`);
    await checkSame(strata, peer, uuidPaths[0]);
    // A create's UUID and time differ by nature.
    const checkCreate = (path: string) =>
      checkSame(
        strata,
        peer,
        path,
        (text) =>
          text.replace(/"UUID":"[0-9a-f-]{36}"/, '"UUID":"…"')
            .replace(/"_updatedAt":\d+/, '"_updatedAt":…'),
        () => ({
          method: "POST",
          headers: { "content-type": "application/json" },
          body: CREATE_BODY,
        }),
      );
    for (const path of ["/collections/posts", "/collections/drafts"]) {
      const created = await checkCreate(path);
      if (!created.startsWith("201 ")) {
        throw new Error(`A create answered ${created}`);
      }
    }
    const outboxCreate = await answer(peer, OUTBOX_PATH, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: CREATE_BODY,
    });
    if (!outboxCreate.startsWith("201 ")) {
      throw new Error(
        `The peer's create with an outbox row answered ${outboxCreate}`,
      );
    }
    const load = { connections: CONNECTIONS };
    const measures: Measure[] = [
      { name: "list", min: 0.85, path: listPath(rows), load },
      {
        name: `by UUID (${uuidPaths.length} in turn)`,
        min: 0.7,
        path: "/collections/posts",
        load: { ...load, script: cyclingScript(uuidPaths) },
      },
      { name: "paginated", min: 0.9, path: pagePath(rows), load },
      {
        // What the deadline costs the row above: this server runs without one. On SQLite
        // the page and its total (1,000 index entries) are walks its plan bounds, which run
        // without the sampled per-row check (collections/_bounded_reads.ts), so the two
        // rows should agree; a gap means the check came back.
        name: "paginated, query.timeout: false",
        path: pagePath(rows),
        load,
        untimed: true,
      },
      {
        name: "create (POST)",
        creates: true,
        min: 0.8,
        path: "/collections/posts",
        load: { ...load, script: createScript },
      },
      {
        // Why the row above may miss: a collection with events (the default) also writes
        // a change-log row in each create's transaction; this one has `events: false`.
        name: "create (POST), collection with events: false",
        creates: true,
        path: "/collections/drafts",
        load: { ...load, script: createScript },
      },
      {
        // The change log's guarantee by hand: the peer writes an outbox row in the insert's
        // transaction; Strata's create is the one with the change log.
        name: "create (POST), peer writes an outbox row in its transaction",
        creates: true,
        min: 0.8,
        path: "/collections/posts",
        peerPath: OUTBOX_PATH,
        load: { ...load, script: createScript },
      },
    ];
    const url = (server: Server, measure: Measure) =>
      `http://127.0.0.1:${server.port}${
        server === peer ? measure.peerPath ?? measure.path : measure.path
      }`;
    const ours = (measure: Measure) => measure.untimed ? untimed : strata;
    const best = measures.map(() => ({
      strata: 0,
      peer: 0,
      perCpu: 0,
      peerPerCpu: 0,
    }));
    // The reads go first, all their rounds, over the table as seeded: each create adds a
    // row, and the creates of a round (tens of thousands a second, both servers) would
    // otherwise have the next round's reads measure a table several times the size the
    // method names. Past _bounded_reads.ts's BOUNDED_ROWS a page's total is even counted
    // under the sampled deadline check.
    const phases = [
      measures.filter((measure) => !measure.creates),
      measures.filter((measure) => measure.creates),
    ];
    for (const phase of phases) {
      for (const measure of phase) {
        for (const server of [ours(measure), peer]) {
          await wrk(url(server, measure), {
            ...measure.load,
            duration: "1s",
          });
        }
      }
      for (let round = 0; round < ROUNDS; round++) {
        for (const measure of phase) {
          const i = measures.indexOf(measure);
          // Alternate who goes first, so a noisy moment hits both alike.
          const order = (round + i) % 2
            ? [peer, ours(measure)]
            : [ours(measure), peer];
          for (const server of order) {
            const before = await threadCpu(server.pid);
            const retried = retriedRounds();
            const started = performance.now();
            const rate = await wrk(url(server, measure), measure.load);
            const seconds = (performance.now() - started) / 1000;
            const after = await threadCpu(server.pid);
            const key = server === peer ? "peer" : "strata";
            best[i][key] = Math.max(best[i][key], rate);
            // A retried round's time and CPU hold a lost round too: no per-CPU figure.
            if (before && after && retriedRounds() === retried) {
              const cpu = after.main + after.others - before.main -
                before.others;
              const cpuKey = server === peer ? "peerPerCpu" : "perCpu";
              if (cpu > 0) {
                best[i][cpuKey] = Math.max(
                  best[i][cpuKey],
                  rate * seconds / cpu,
                );
              }
            }
          }
        }
      }
    }
    const driver = database.kind === "postgres" ? "pg" : "node:sqlite";
    const report = measures.map((measure, i): Comparison => ({
      measure: `${database.label}: ${measure.name} req/s`,
      peer: `Deno.serve + ${driver}`,
      peerValue: best[i].peer,
      ours: best[i].strata,
      min: measure.min,
    }));
    // Issue 15: a create with its change-log row against one without, both Strata's.
    const on = measures.findIndex((m) => m.name === "create (POST)");
    const off = measures.findIndex((m) => m.name.endsWith("events: false"));
    report.push({
      measure:
        `${database.label}: create req/s, change log on (events) vs off (events: false)`,
      peer: "Strata, events: false",
      peerValue: best[off].strata,
      ours: best[on].strata,
      min: 0.9,
    });
    // The same in what a create costs the server (requests per CPU-second of its process):
    // what other work on a shared machine skews least. (On PostgreSQL the database server's
    // share, an insert into the log per create, is not counted.)
    if (best[on].perCpu > 0 && best[off].perCpu > 0) {
      report.push({
        measure:
          `${database.label}: creates per CPU-second of the server, change log on vs off`,
        peer: "Strata, events: false",
        peerValue: best[off].perCpu,
        ours: best[on].perCpu,
        min: 0.9,
      });
    }
    // The same guarantee by hand: what the change log costs Strata (on / off) against what
    // an outbox row in the insert's transaction costs the peer (outbox / plain, into Drafts
    // like Strata's off). The peer's plain rate is that of the off row.
    const outbox = measures.findIndex((m) => m.peerPath === OUTBOX_PATH);
    report.push({
      measure:
        `${database.label}: the change log's cost vs an outbox row's: create req/s on/off ÷ peer's outbox/plain`,
      peer: "peer with an outbox row",
      peerValue: best[outbox].peer / best[off].peer,
      ours: best[on].strata / best[off].strata,
      min: 0.9,
      digits: 2,
    });
    if (
      best[on].perCpu > 0 && best[off].perCpu > 0 &&
      best[outbox].peerPerCpu > 0 && best[off].peerPerCpu > 0
    ) {
      report.push({
        measure:
          `${database.label}: the same in creates per CPU-second of each server`,
        peer: "peer with an outbox row",
        peerValue: best[outbox].peerPerCpu / best[off].peerPerCpu,
        ours: best[on].perCpu / best[off].perCpu,
        min: 0.9,
        digits: 2,
      });
    }
    return report;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Seeds each database, serves it both ways and measures the four requests. */
export async function collectionsBench(): Promise<BenchReport> {
  const rows = QUICK ? ROWS / 10 : ROWS;
  const results: Comparison[] = [];
  for (const [i, kind] of selectedKinds().entries()) {
    const database = await freshDatabase(kind, "collections");
    try {
      results.push(...await measureOn(database, rows, PORT + 3 * i));
    } finally {
      await database.drop();
    }
  }
  return {
    title: "Collections API vs hand-written endpoints",
    method:
      `${rows} rows (SQLite file in WAL mode; PostgreSQL in a fresh schema, pool of 10 both sides); list GET ${
        listPath(rows)
      }; paginated GET ${
        pagePath(rows)
      }; create POST ${CREATE_BODY} (on SQLite Strata commits the creates of one event-loop turn together, the peer each alone); every read's rounds run first, over the table as seeded, then the creates'; ${await loadDescription(
        CONNECTIONS,
      )}; same status, type and JSON bytes from both (checked first)`,
    rows: results,
  };
}

if (import.meta.main) printReport(await collectionsBench());
