// HTTP benchmark: Strata vs Hono vs raw Deno.serve, 200 routes, load from wrk on loopback.
// Prints req/s per server and path, and the ratios Strata/Hono and Strata/raw.
import { BENCH_PATHS } from "./routes.ts";

const DURATION = Deno.env.get("BENCH_DURATION") ?? "5s";
const CONNECTIONS = Deno.env.get("BENCH_CONNECTIONS") ?? "64";
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");
const kinds = ["strata", "hono", "raw"] as const;
type Kind = typeof kinds[number];

async function startServer(
  kind: Kind,
  port: number,
): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./server.ts", import.meta.url).pathname,
      kind,
      String(port),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${kind} server exited before it was ready`);
    seen += value;
  }
  reader.releaseLock();
  return child;
}

async function wrk(url: string): Promise<number> {
  const output = await new Deno.Command("wrk", {
    args: ["-t1", `-c${CONNECTIONS}`, `-d${DURATION}`, url],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!match) throw new Error(`wrk printed no rate:\n${text}`);
  return Number(match[1]);
}

async function measure(): Promise<
  Record<Kind, Record<keyof typeof BENCH_PATHS, number>>
> {
  const results = {} as Record<Kind, Record<keyof typeof BENCH_PATHS, number>>;
  for (const kind of kinds) {
    results[kind] = { static: 0, param: 0, notFound: 0 };
  }
  // Interleave servers over several rounds and keep the best round of each, so a noisy moment
  // on a shared machine does not decide a ratio.
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, kind] of kinds.entries()) {
      const port = 8700 + i;
      const server = await startServer(kind, port);
      try {
        for (
          const [name, path] of Object.entries(BENCH_PATHS) as [
            keyof typeof BENCH_PATHS,
            string,
          ][]
        ) {
          await wrk(`http://127.0.0.1:${port}${path}`); // warm-up pass, discarded
          results[kind][name] = Math.max(
            results[kind][name],
            await wrk(`http://127.0.0.1:${port}${path}`),
          );
        }
      } finally {
        server.kill();
        await server.status;
      }
    }
  }
  return results;
}

export async function runHttpBench(): Promise<void> {
  console.log(
    `HTTP: 200 routes, wrk -t1 -c${CONNECTIONS} -d${DURATION}, best of ${ROUNDS} rounds`,
  );
  const r = await measure();
  const rows = Object.keys(BENCH_PATHS).map((name) => {
    const key = name as keyof typeof BENCH_PATHS;
    return {
      path: `${name} ${BENCH_PATHS[key]}`,
      "strata req/s": Math.round(r.strata[key]),
      "hono req/s": Math.round(r.hono[key]),
      "raw req/s": Math.round(r.raw[key]),
      "strata/hono": (r.strata[key] / r.hono[key]).toFixed(2),
      "strata/raw": (r.strata[key] / r.raw[key]).toFixed(2),
    };
  });
  console.table(rows);
}

if (import.meta.main) await runHttpBench();
