/**
 * Load-test plumbing shared by the benchmarks: a server child process that prints "ready",
 * `wrk` against it, and the settings every HTTP benchmark takes from the environment.
 *
 * The machine these run on has 2 cores, shared: the server is pinned to one core and `wrk`
 * (one thread) to the other when `taskset` exists, so the load generator never steals the
 * server's core; peers are measured in interleaved rounds and each keeps its best.
 *
 * @module
 */

/**
 * Makes a server process exit cleanly on SIGTERM (how {@link startServer} stops it), so
 * that `BENCH_CPU_PROF=<dir>` (servers run with `--cpu-prof`) writes their profiles.
 */
export function exitOnTerm(): void {
  Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
}

/** `BENCH_QUICK=1`: a short smoke run (1 round, 1 s per measurement). */
export const QUICK: boolean = Deno.env.get("BENCH_QUICK") === "1";

/** Seconds of load per measurement (`BENCH_DURATION`, e.g. `5s`). */
export const DURATION: string = Deno.env.get("BENCH_DURATION") ??
  (QUICK ? "1s" : "5s");

/** Interleaved rounds per benchmark; each peer keeps its best round (`BENCH_ROUNDS`). */
export const ROUNDS: number = Number(
  Deno.env.get("BENCH_ROUNDS") ?? (QUICK ? "1" : "3"),
);

/** Open connections `wrk` keeps (`BENCH_CONNECTIONS`). */
export const CONNECTIONS: number = Number(
  Deno.env.get("BENCH_CONNECTIONS") ?? "64",
);

const SERVER_CPU = "0";
const LOAD_CPU = "1";

let pinning: Promise<boolean> | undefined;

/** Whether `taskset` can pin processes here (checked once). */
function canPin(): Promise<boolean> {
  if (Deno.env.get("BENCH_PIN") === "0") return Promise.resolve(false);
  pinning ??= new Deno.Command("taskset", {
    args: ["-c", LOAD_CPU, "true"],
    stdout: "null",
    stderr: "null",
  }).output().then((out) => out.success && navigator.hardwareConcurrency > 1)
    .catch(() => false);
  return pinning;
}

/** How the load was applied, for the table headers. */
export async function loadDescription(
  connections = CONNECTIONS,
): Promise<string> {
  const pinned = await canPin();
  return `wrk -t1 -c${connections} -d${DURATION}, best of ${ROUNDS} interleaved round${
    ROUNDS === 1 ? "" : "s"
  }${pinned ? ", server on CPU 0 and wrk on CPU 1 (taskset)" : ""}`;
}

/** A server child process. */
export interface Server {
  /** The port it listens on. */
  readonly port: number;
  /** Its process id (`taskset` execs the server, so this is the server's own). */
  readonly pid: number;
  /** Stops it and waits for it to exit. */
  stop(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** The core to pin it to: the server's (default) or the load generator's. */
  readonly cpu?: "server" | "load";
  /** `false`: not pinned, the scheduler may use every core. */
  readonly pin?: boolean;
  /** Receives what it prints after `ready`. */
  readonly onOutput?: (text: string) => void;
}

/**
 * Starts `deno run -A <script> ...args` (pinned to the server core when possible) and waits
 * until it prints `ready`.
 */
export async function startServer(
  script: string | URL,
  args: readonly string[],
  port: number,
  options: StartOptions = {},
): Promise<Server> {
  const profileDir = Deno.env.get("BENCH_CPU_PROF");
  const deno = [
    Deno.execPath(),
    "run",
    "-A",
    ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    new URL(script).pathname,
    ...args,
  ];
  const [command, ...rest] = options.pin !== false && await canPin()
    ? ["taskset", "-c", options.cpu === "load" ? LOAD_CPU : SERVER_CPU, ...deno]
    : deno;
  const child = new Deno.Command(command, {
    args: rest,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      throw new Error(`${script} exited before it was ready`);
    }
    seen += value;
  }
  // Keep draining so the child never blocks on a full pipe.
  (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        options.onOutput?.(value);
      }
    } catch { /* closed */ }
  })();
  return {
    port,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
    },
  };
}

/**
 * Starts `script` as Strata's server on `port` and as the hand-written peer's on `port + 1`
 * (`<strata|peer> <port> ...args`), each pushed onto `servers` as soon as it runs so the
 * caller's cleanup stops it even when the other fails to start.
 */
export async function startStrataAndPeer(
  script: string | URL,
  args: readonly string[],
  port: number,
  servers: Server[],
): Promise<[strata: Server, peer: Server]> {
  const strata = await startServer(
    script,
    ["strata", String(port), ...args],
    port,
  );
  servers.push(strata);
  const peer = await startServer(
    script,
    ["peer", String(port + 1), ...args],
    port + 1,
  );
  servers.push(peer);
  return [strata, peer];
}

/** Options of {@link wrk}. */
export interface WrkOptions {
  /** Extra request headers (`Name: value`). */
  headers?: readonly string[];
  /** Connections (default {@link CONNECTIONS}). */
  connections?: number;
  /** Duration (default {@link DURATION}). */
  duration?: string;
  /** A Lua script (its text) that shapes the requests: method, body, a path per request. */
  script?: string;
  /** How long one request may take before wrk counts it an error (wrk's default: 2s). */
  timeout?: string;
}

const scripts = new Map<string, string>();

/** Writes `text` to a temp file once and returns its path (wrk reads scripts from files). */
async function scriptFile(text: string): Promise<string> {
  let path = scripts.get(text);
  if (!path) {
    path = await Deno.makeTempFile({ prefix: "strata-bench-", suffix: ".lua" });
    await Deno.writeTextFile(path, text);
    scripts.set(text, path);
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(path!);
      } catch { /* gone */ }
    });
  }
  return path;
}

/** A Lua string literal of `text` (for building wrk scripts). */
export function luaString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => "\\" + c).replace(/\n/g, "\\n")}"`;
}

/**
 * How many times a round whose only errors are wrk's timeouts is run again before the
 * benchmark gives up (`BENCH_RETRIES`): on a loaded machine a round can lose a few requests
 * past wrk's 2 s limit on a peer as on Strata, which says nothing about either.
 */
export const RETRIES: number = Number(Deno.env.get("BENCH_RETRIES") ?? "2");

/** Pause before a retried round, so the server drains what the timed-out round left queued. */
const RETRY_PAUSE_MS = 2000;

/** What {@link wrk} saw go wrong in one round. */
interface WrkErrors {
  /** Non-2xx answers or socket errors other than timeouts: never retried. */
  readonly hard: boolean;
  /** Requests wrk gave up on after its `--timeout`. */
  readonly timeouts: number;
}

/**
 * The errors wrk printed: a `Non-2xx` line, and the counts of its `Socket errors` line
 * (`connect 0, read 0, write 0, timeout 12`).
 *
 * @example
 * ```ts ignore
 * wrkErrors("  Socket errors: connect 0, read 0, write 0, timeout 12\n");
 * // { hard: false, timeouts: 12 }
 * ```
 */
export function wrkErrors(text: string): WrkErrors {
  const socket =
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(text);
  const other = socket
    ? Number(socket[1]) + Number(socket[2]) + Number(socket[3])
    : 0;
  return {
    hard: /Non-2xx/.test(text) || other > 0 ||
      (!socket && /Socket errors/.test(text)),
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

const retried: string[] = [];
let retriedInAll = 0;

/**
 * How many rounds were retried in this process so far.
 *
 * @example
 * ```ts ignore
 * console.log(`${retriedRounds()} rounds retried after wrk timeouts`);
 * ```
 */
export function retriedRounds(): number {
  return retriedInAll;
}

/**
 * The rounds retried since the last call (one line each), and forgets them: the reports
 * print them under their table (see `printReport`).
 */
export function takeRetries(): string[] {
  return retried.splice(0);
}

/**
 * Runs `wrk` against `url` and returns requests per second; non-2xx answers and socket
 * errors are an error. A round whose only errors are timeouts is run again, at most
 * {@link RETRIES} times, and noted (see {@link takeRetries}); only then is it an error.
 */
export async function wrk(
  url: string,
  options: WrkOptions = {},
  expectErrors = false,
): Promise<number> {
  const wrkArgs = [
    "-t1",
    `-c${options.connections ?? CONNECTIONS}`,
    `-d${options.duration ?? DURATION}`,
    ...(options.headers ?? []).flatMap((header) => ["-H", header]),
    ...(options.script ? ["-s", await scriptFile(options.script)] : []),
    ...(options.timeout ? ["--timeout", options.timeout] : []),
    url,
  ];
  const [command, ...args] = await canPin()
    ? ["taskset", "-c", LOAD_CPU, "wrk", ...wrkArgs]
    : ["wrk", ...wrkArgs];
  for (let attempt = 0;; attempt++) {
    const output = await new Deno.Command(command, { args, stdout: "piped" })
      .output();
    const text = new TextDecoder().decode(output.stdout);
    const rate = /Requests\/sec:\s+([\d.]+)/.exec(text);
    if (!rate) throw new Error(`wrk printed no rate:\n${text}`);
    if (expectErrors) return Number(rate[1]);
    const errors = wrkErrors(text);
    if (!errors.hard && errors.timeouts === 0) return Number(rate[1]);
    if (errors.hard || attempt >= RETRIES) {
      throw new Error(
        `wrk saw errors on ${url}${
          attempt > 0 ? ` (after ${attempt} retried rounds)` : ""
        }:\n${text}`,
      );
    }
    const note = `round retried: ${errors.timeouts} request${
      errors.timeouts === 1 ? "" : "s"
    } timed out in wrk on ${url} (retry ${attempt + 1} of ${RETRIES})`;
    retried.push(note);
    retriedInAll++;
    console.error(note);
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
  }
}

/** CPU seconds a process has used, split into its main (event loop) thread and the rest. */
export interface ThreadCpu {
  readonly main: number;
  readonly others: number;
}

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time of process `pid` so far by thread group (from `/proc/<pid>/task`), or
 * `null` where /proc is missing. The main thread's id is the process id.
 */
export async function threadCpu(pid: number): Promise<ThreadCpu | null> {
  let main = 0, others = 0;
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const stat = await Deno.readTextFile(
        `/proc/${pid}/task/${task.name}/stat`,
      )
        .catch(() => "");
      // Fields after the parenthesised command name; utime and stime are 14th and 15th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      if (!Number.isFinite(ticks)) continue;
      if (task.name === String(pid)) main += ticks;
      else others += ticks;
    }
  } catch {
    return null;
  }
  return { main: main / TICKS_PER_SECOND, others: others / TICKS_PER_SECOND };
}
