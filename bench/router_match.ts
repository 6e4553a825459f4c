/**
 * Runs `router_match_bench.ts` (a `Deno.bench` file) in a child `deno bench --json` and
 * reports Strata's trie against Hono's default router, in matches per second.
 *
 * Run alone: `deno run -A bench/router_match.ts`.
 *
 * @module
 */
import { type BenchReport, type Comparison, printReport } from "./_report.ts";

interface BenchJson {
  benches: {
    group: string;
    name: string;
    results: { ok?: { avg: number; n: number } }[];
  }[];
}

/** Runs the route-matching micro-benchmark and returns the report. */
export async function routerMatchBench(): Promise<BenchReport> {
  const file = new URL("./router_match_bench.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["bench", "-A", "--json", file],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("deno bench failed");
  const json = JSON.parse(new TextDecoder().decode(output.stdout)) as BenchJson;
  const avg = (group: string, name: string) => {
    const bench = json.benches.find((b) =>
      b.group === group && b.name.endsWith(name)
    );
    const ok = bench?.results[0]?.ok;
    if (!ok) throw new Error(`No result for ${group}: ${name}`);
    return ok.avg;
  };
  const groups = [...new Set(json.benches.map((b) => b.group))];
  const rows: Comparison[] = groups.map((group) => ({
    measure: `${group}: matches/s`,
    peer: "Hono default router",
    peerValue: 1e9 / avg(group, "Hono default (SmartRouter)"),
    ours: 1e9 / avg(group, "Strata RouteTrie"),
  }));
  rows.push(...groups.map((group) => ({
    measure: `${group}: matches/s`,
    peer: "URLPattern linear scan",
    peerValue: 1e9 / avg(group, "URLPattern linear scan"),
    ours: 1e9 / avg(group, "Strata RouteTrie"),
  })));
  return {
    title: "Route matching alone: 200 routes",
    method:
      "deno bench (calibrated iterations), mean time per match → matches/s; each path freshly sliced from a request URL; no target (informational)",
    rows,
  };
}

if (import.meta.main) printReport(await routerMatchBench());
