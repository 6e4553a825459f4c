/**
 * `deno task bench`: every benchmark in turn, each printing a table of the peer's figure,
 * Strata's, the ratio and whether the target is met; a summary of targets at the end.
 *
 * - `deno task bench` runs all; `deno task bench http auth` runs the named ones
 *   (`http`, `router`, `collections`, `data`, `auth`, `startup`).
 * - `BENCH_QUICK=1` makes a short smoke run (1 round, 1 s of load, smaller data).
 * - `BENCH_DURATION`, `BENCH_ROUNDS`, `BENCH_CONNECTIONS`, `BENCH_PIN=0` tune the load.
 *
 * Each benchmark also runs alone: `deno run -A bench/http/run.ts`, `bench/collections/run.ts`,
 * `bench/data_bench.ts`, `bench/auth/run.ts`, `bench/router_match.ts`.
 *
 * @module
 */
import { httpBench } from "./http/run.ts";
import { collectionsBench } from "./collections/run.ts";
import { dataBench } from "./data_bench.ts";
import { authBench } from "./auth/run.ts";
import { routerMatchBench } from "./router_match.ts";
import { runStartupBench, STARTUP_TARGET_MS } from "./startup/mod.ts";
import { QUICK } from "./_load.ts";
import { type BenchReport, printReport, targetMet } from "./_report.ts";

const BENCHES: Record<string, () => Promise<BenchReport>> = {
  http: httpBench,
  router: routerMatchBench,
  collections: collectionsBench,
  data: dataBench,
  auth: authBench,
  startup: startupBench,
};

/** Boot time of an app of 200 routes and 10 collections, against the absolute 150 ms target. */
async function startupBench(): Promise<BenchReport> {
  const result = await runStartupBench({
    print: false,
    processes: QUICK ? 3 : 9,
  });
  const fresh = result.rows[0];
  return {
    title:
      "Startup: createApp on 200 route files + 10 collections + the auth layer",
    method:
      `median of ${fresh.runs} fresh processes (each imports Strata, then times createApp)`,
    rows: [{
      measure: "createApp ms, fresh process",
      peer: "target",
      peerValue: STARTUP_TARGET_MS,
      ours: fresh.median,
      max: 1,
      digits: 1,
    }, {
      measure: "createApp ms, warm modules",
      peer: "target",
      peerValue: STARTUP_TARGET_MS,
      ours: result.rows[3].median,
      digits: 1,
    }],
  };
}

const names = Deno.args.length > 0 ? Deno.args : Object.keys(BENCHES);
for (const name of names) {
  if (!(name in BENCHES)) {
    console.error(
      `Unknown benchmark "${name}"; known: ${Object.keys(BENCHES).join(", ")}`,
    );
    Deno.exit(2);
  }
}

if (QUICK) console.log("BENCH_QUICK=1: a smoke run, not a measurement\n");
const summary: string[] = [];
let missed = 0;
for (const name of names) {
  const started = performance.now();
  const report = await BENCHES[name]();
  printReport(report);
  for (const row of report.rows) {
    const met = targetMet(row);
    if (met === undefined) continue;
    if (!met) missed++;
    summary.push(
      `${met ? "met   " : "MISSED"} ${
        report.title.split(":")[0]
      }: ${row.measure} vs ${row.peer}: ${
        (row.ours / row.peerValue).toFixed(2)
      }`,
    );
  }
  console.log(
    `(${name} took ${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
  );
}
console.log("## Targets\n" + summary.join("\n"));
console.log(`\n${summary.length - missed} of ${summary.length} targets met`);
