// Auth benchmark (`deno run -A bench/auth/run.ts`), at the real scrypt cost (32768):
// 1. median login time, unknown email vs wrong password (target: within 5%),
// 2. authenticated GET /auth/me vs an anonymous route answering the same bytes (req/s,
//    target ≥ 0.85×),
// 3. anonymous throughput while 8 logins/s run vs idle (target ≥ 0.9×).
// Prints a table with the peer figure, ours and the ratio. Needs `wrk` for 2 and 3.
import { BENCH_USER, bootBenchApp } from "./_app.ts";

const DURATION = Deno.env.get("BENCH_DURATION") ?? "5s";
const CONNECTIONS = Deno.env.get("BENCH_CONNECTIONS") ?? "32";
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? "2");
const LOGINS = Number(Deno.env.get("BENCH_LOGINS") ?? "25");
const PORT = 8790;

interface Row {
  measure: string;
  peer: string;
  ours: string;
  ratio: string;
  target: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function loginTimes(database: string): Promise<Row> {
  const app = await bootBenchApp(database);
  let ip = 0;
  const attempt = async (email: string) => {
    const started = performance.now();
    const response = await app.fetch(
      new Request("http://localhost/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "wrong-password" }),
      }),
      // A fresh address per attempt keeps the throttle (on, as in production) out of it.
      { remoteAddr: { hostname: `10.0.${(++ip >> 8) & 255}.${ip & 255}` } },
    );
    await response.body?.cancel();
    if (response.status !== 401) {
      throw new Error(`Login gave ${response.status}`);
    }
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < 3; i++) {
      await attempt(BENCH_USER.email);
      await attempt("nobody@example.com");
    }
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < LOGINS; i++) {
      // Alternate which goes first so drift hits both alike.
      if (i % 2) {
        wrong.push(await attempt(BENCH_USER.email));
        unknown.push(await attempt("nobody@example.com"));
      } else {
        unknown.push(await attempt("nobody@example.com"));
        wrong.push(await attempt(BENCH_USER.email));
      }
    }
    const [peer, ours] = [median(wrong), median(unknown)];
    return {
      measure:
        `login median ms (${LOGINS} each): wrong password vs unknown email`,
      peer: peer.toFixed(1),
      ours: ours.toFixed(1),
      ratio: (ours / peer).toFixed(3),
      target: "0.95–1.05",
    };
  } finally {
    await app.close();
  }
}

async function startServer(database: string): Promise<Deno.ChildProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./server.ts", import.meta.url).pathname,
      String(PORT),
      database,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("The bench server exited before it was ready");
    seen += value;
  }
  reader.releaseLock();
  return child;
}

async function wrk(path: string, headers: string[] = []): Promise<number> {
  const output = await new Deno.Command("wrk", {
    args: [
      "-t1",
      `-c${CONNECTIONS}`,
      `-d${DURATION}`,
      ...headers.flatMap((h) => ["-H", h]),
      `http://127.0.0.1:${PORT}${path}`,
    ],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!rate) throw new Error(`wrk printed no rate:\n${text}`);
  if (/Non-2xx/.test(text)) {
    throw new Error(`wrk saw errors on ${path}:\n${text}`);
  }
  return Number(rate[1]);
}

async function signIn(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${PORT}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...BENCH_USER, remember: true }),
  });
  await response.body?.cancel();
  const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
  if (response.status !== 200 || !cookie) {
    throw new Error(`Sign-in gave ${response.status}`);
  }
  return cookie;
}

/** Runs `work` while 8 logins per second hit the server; counts the logins served. */
async function underLogins<T>(work: () => Promise<T>): Promise<[T, number]> {
  let running = true;
  let served = 0;
  const driver = (async () => {
    const pending: Promise<void>[] = [];
    while (running) {
      pending.push(
        fetch(`http://127.0.0.1:${PORT}/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(BENCH_USER),
        }).then(async (response) => {
          await response.body?.cancel();
          if (response.status === 200) served++;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 125));
    }
    await Promise.all(pending);
  })();
  try {
    return [await work(), served];
  } finally {
    running = false;
    await driver;
  }
}

/** Runs the benchmark and prints its table. */
export async function runAuthBench(): Promise<void> {
  if (!Deno.env.get("BENCH_QUIET")) {
    console.log(
      `Auth: scrypt cost 32768, SQLite file, wrk -t1 -c${CONNECTIONS} -d${DURATION}, best of ${ROUNDS} rounds`,
    );
  }
  const dir = await Deno.makeTempDir({ prefix: "strata-auth-bench-" });
  const database = `${dir}/app.db`;
  const rows: Row[] = [];
  try {
    rows.push(await loginTimes(database));
    const server = await startServer(database);
    try {
      const cookie = await signIn();
      await wrk("/anonymous");
      await wrk("/auth/me", [`Cookie: ${cookie}`]);
      let anonymous = 0, me = 0, idle = 0, busy = 0, logins = 0;
      for (let round = 0; round < ROUNDS; round++) {
        anonymous = Math.max(anonymous, await wrk("/anonymous"));
        me = Math.max(me, await wrk("/auth/me", [`Cookie: ${cookie}`]));
        idle = Math.max(idle, await wrk("/anonymous"));
        const [rate, served] = await underLogins(() => wrk("/anonymous"));
        busy = Math.max(busy, rate);
        logins = Math.max(logins, served);
      }
      rows.push({
        measure: "req/s: anonymous route vs authenticated GET /auth/me",
        peer: anonymous.toFixed(0),
        ours: me.toFixed(0),
        ratio: (me / anonymous).toFixed(3),
        target: "≥ 0.85",
      });
      rows.push({
        measure:
          `req/s: anonymous route idle vs during 8 logins/s (${logins} served)`,
        peer: idle.toFixed(0),
        ours: busy.toFixed(0),
        ratio: (busy / idle).toFixed(3),
        target: "≥ 0.9",
      });
    } finally {
      server.kill();
      await server.status;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.table(rows);
}

if (import.meta.main) await runAuthBench();
