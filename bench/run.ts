/**
 * `deno task bench`: every benchmark in turn, each printing a table of the peer's figure,
 * Strata's, the ratio and whether the target is met; a summary of targets at the end.
 *
 * - `deno task bench` runs all; `deno task bench http auth` runs the named ones
 *   (`http`, `router`, `collections`, `scale`, `search`, `data`, `auth`, `eventloop`, `startup`,
 *   `webhooks`, `accounts`, `files`, `realtime`).
 * - `BENCH_DATABASES=sqlite` (or `postgres`) runs the data benchmarks on one database;
 *   PostgreSQL is `BENCH_POSTGRES` (default `postgres://postgres@127.0.0.1:5432/test`).
 * - `BENCH_QUICK=1` makes a short smoke run (1 round, 1 s of load, smaller data).
 * - `BENCH_DURATION`, `BENCH_ROUNDS`, `BENCH_CONNECTIONS`, `BENCH_PIN=0` tune the load;
 *   `BENCH_RETRIES` (default 2) bounds how often a round with wrk timeouts is run again.
 * - `BENCH_CPU_PROF=<dir>` runs the servers with `deno run --cpu-prof` (profiles in `<dir>`).
 *
 * Each benchmark also runs alone: `deno run -A bench/http/run.ts`, `bench/collections/run.ts`,
 * `bench/scale/run.ts`, `bench/search/run.ts`,
 * `bench/data_bench.ts`, `bench/auth/run.ts`, `bench/event_loop/run.ts`, `bench/router_match.ts`,
 * `bench/webhooks/run.ts`, `bench/accounts/run.ts`, `bench/files/run.ts`, `bench/realtime/run.ts`.
 *
 * @module
 */
import { httpBench } from "./http/run.ts";
import { collectionsBench } from "./collections/run.ts";
import { scaleBench } from "./scale/run.ts";
import { searchBench } from "./search/run.ts";
import { dataBench } from "./data_bench.ts";
import { authBench } from "./auth/run.ts";
import { eventLoopBench } from "./event_loop/run.ts";
import { routerMatchBench } from "./router_match.ts";
import { startupBench } from "./startup/mod.ts";
import { webhooksBench } from "./webhooks/run.ts";
import { accountsBench } from "./accounts/run.ts";
import { filesBench } from "./files/run.ts";
import { realtimeBench } from "./realtime/run.ts";
import { QUICK, retriedRounds } from "./_load.ts";
import { type BenchReport, printReport, targetMet } from "./_report.ts";

const BENCHES: Record<string, () => Promise<BenchReport>> = {
  http: httpBench,
  router: routerMatchBench,
  collections: collectionsBench,
  scale: () => scaleBench(),
  search: searchBench,
  data: dataBench,
  auth: authBench,
  eventloop: eventLoopBench,
  startup: startupBench,
  webhooks: webhooksBench,
  accounts: accountsBench,
  files: filesBench,
  realtime: realtimeBench,
};

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
if (retriedRounds() > 0) {
  console.log(
    `${retriedRounds()} round(s) retried after wrk timeouts (listed under their tables)`,
  );
}
