/**
 * Startup benchmark: how long `createApp` takes on an app of 200 routes and 10 collections
 * (plus the auth layer). Target: under 150 ms.
 *
 * - fresh processes: N times `deno run` a script that imports Strata and boots the app once
 *   (cold module graph, cold app files); the median is reported for the boot alone, for
 *   import + boot, and for the whole process as the parent sees it;
 * - in-process: repeated boots in one process on fresh `:memory:` databases (warm modules).
 *
 * `deno run -A bench/startup/run.ts` prints the table; `bench/run.ts` calls
 * {@link runStartupBench}.
 *
 * @module
 */
import { median } from "../_report.ts";
import { createApp } from "../../mod.ts";
import { generateApp } from "./_generate.ts";

/** Options of {@link runStartupBench}. */
export interface StartupBenchOptions {
  /** Fresh processes to start (default 7, env `BENCH_STARTUP_PROCESSES`). */
  processes?: number;
  /** In-process boots (default 15, env `BENCH_STARTUP_BOOTS`). */
  boots?: number;
  /** Route files in the generated app (default 200). */
  routes?: number;
  /** Collections in the generated app (default 10). */
  collections?: number;
  /** Print the table (default true). */
  print?: boolean;
}

/** One row of the result table; times in milliseconds. */
export interface StartupRow {
  /** What was measured. */
  readonly name: string;
  /** The median. */
  readonly median: number;
  /** The fastest run. */
  readonly min: number;
  /** The slowest run. */
  readonly max: number;
  /** How many runs. */
  readonly runs: number;
}

/** What {@link runStartupBench} measured. */
export interface StartupBenchResult {
  /** Route count of the booted app (the app's files plus framework and auth routes). */
  readonly routes: number;
  /** The rows. */
  readonly rows: readonly StartupRow[];
  /** The target for `createApp` in a fresh process, in ms. */
  readonly targetMs: number;
  /** Whether the median fresh-process boot met the target. */
  readonly meetsTarget: boolean;
}

/** The target of issue 7: `createApp` on 200 routes and 10 collections under 150 ms. */
export const STARTUP_TARGET_MS = 150;

function row(name: string, samples: number[]): StartupRow {
  return {
    name,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
  };
}

function envNumber(name: string): number | undefined {
  const value = Deno.env.get(name);
  return value === undefined ? undefined : Number(value);
}

/**
 * Formats rows as a table.
 *
 * @example
 * ```ts ignore
 * console.log(formatStartupTable((await runStartupBench({ print: false })).rows));
 * ```
 */
export function formatStartupTable(rows: readonly StartupRow[]): string {
  const header = ["measure", "median ms", "min ms", "max ms", "runs"];
  const body = rows.map((r) => [
    r.name,
    r.median.toFixed(1),
    r.min.toFixed(1),
    r.max.toFixed(1),
    String(r.runs),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.map((line) => line[i].length))
  );
  return [header, ...body].map((line) =>
    line.map((cell, i) =>
      i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])
    )
      .join("  ")
  ).join("\n");
}

async function freshProcess(root: string): Promise<
  { importMs: number; bootMs: number; wallMs: number; routes: number }
> {
  const started = performance.now();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./_child.ts", import.meta.url).pathname,
      root,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wallMs = performance.now() - started;
  if (code !== 0) {
    throw new Error(
      `The startup child failed:\n${new TextDecoder().decode(stderr)}`,
    );
  }
  const result = JSON.parse(new TextDecoder().decode(stdout).trim());
  return { ...result, wallMs };
}

/**
 * Generates the app in a temp folder, measures, prints the table (unless `print: false`)
 * and returns the rows. The temp folder is removed afterwards.
 *
 * @example
 * ```ts ignore
 * import { runStartupBench } from "./bench/startup/mod.ts";
 * const { meetsTarget } = await runStartupBench({ processes: 5 });
 * ```
 */
export async function runStartupBench(
  options: StartupBenchOptions = {},
): Promise<StartupBenchResult> {
  const processes = options.processes ??
    envNumber("BENCH_STARTUP_PROCESSES") ?? 7;
  const boots = options.boots ?? envNumber("BENCH_STARTUP_BOOTS") ?? 15;
  const root = await Deno.makeTempDir({ prefix: "strata_startup_" });
  try {
    await generateApp(root, options.routes ?? 200, options.collections ?? 10);
    const fresh: Awaited<ReturnType<typeof freshProcess>>[] = [];
    for (let i = 0; i < processes; i++) {
      fresh.push(await freshProcess(root));
    }
    const inProcess: number[] = [];
    let routes = fresh[0]?.routes ?? 0;
    // Boot 0 loads the app's modules into this process: a warm-up, not counted.
    for (let i = 0; i <= boots; i++) {
      const t0 = performance.now();
      const app = await createApp({ root, database: ":memory:" });
      if (i > 0) inProcess.push(performance.now() - t0);
      routes = app.routes.length;
      await app.close();
    }
    const rows = [
      row("fresh process: createApp", fresh.map((f) => f.bootMs)),
      row(
        "fresh process: import + createApp",
        fresh.map((f) => f.importMs + f.bootMs),
      ),
      row("fresh process: whole `deno run`", fresh.map((f) => f.wallMs)),
      row("in-process createApp (warm modules)", inProcess),
    ];
    const meetsTarget = rows[0].median < STARTUP_TARGET_MS;
    if (options.print !== false) {
      console.log(
        `Startup: ${options.routes ?? 200} route files + ${
          options.collections ?? 10
        } collections + auth layer (${routes} routes in the table)\n${
          formatStartupTable(rows)
        }\ntarget: createApp < ${STARTUP_TARGET_MS} ms in a fresh process — ${
          meetsTarget ? "met" : "MISSED"
        }`,
      );
    }
    return { routes, rows, targetMs: STARTUP_TARGET_MS, meetsTarget };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
