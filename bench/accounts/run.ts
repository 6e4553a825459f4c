/**
 * Accounts benchmark: the enumeration-sensitive answers take the same time whatever the
 * account's existence. Measured in-process (`app.fetch`, no socket noise), per database:
 *
 * - `POST /auth/password/forgot` for a known vs an unknown email (`resetRateLimit: false`,
 *   so every request writes its mail; the throttle's queries are the same on both paths);
 * - `POST /auth/signup` under `requireVerifiedEmail` for a taken vs a fresh email, with the
 *   default scrypt cost (32768), which dominates both.
 *
 * Each figure is the median of 15 requests (after 5 warm-ups), the two kinds interleaved so
 * load on the machine hits both alike; the target is a ratio within 0.85–1.15. Run alone:
 * `deno run -A bench/accounts/run.ts` (`BENCH_DATABASES=sqlite` for one database).
 *
 * @module
 */
import { type App, createApp } from "../../mod.ts";
import { authLayer } from "../../auth/mod.ts";
import { type Comparison, median, printReport } from "../_report.ts";
import type { BenchReport } from "../_report.ts";
import { freshDatabase, selectedKinds } from "../_db.ts";

const SAMPLES = 15;
const WARMUP = 5;

async function timed(
  app: App,
  path: string,
  body: unknown,
): Promise<number> {
  // The mail worker's work for the previous request is let finish first: it runs after the
  // answer, and would otherwise land on whichever request came next.
  await app.mail.settle();
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const start = performance.now();
  const response = await app.fetch(request);
  await response.arrayBuffer();
  const ms = performance.now() - start;
  if (response.status >= 300) {
    throw new Error(`${path} answered ${response.status}`);
  }
  return ms;
}

/** Medians of `a` and `b` over interleaved samples. */
async function pair(
  a: (i: number) => Promise<number>,
  b: (i: number) => Promise<number>,
): Promise<[number, number]> {
  for (let i = 0; i < WARMUP; i++) {
    await a(-1 - i);
    await b(-1 - i);
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2 === 0) {
      as.push(await a(i));
      bs.push(await b(i));
    } else {
      bs.push(await b(i));
      as.push(await a(i));
    }
  }
  return [median(as), median(bs)];
}

/** Runs the benchmark and returns its report. */
export async function accountsBench(): Promise<BenchReport> {
  const rows: Comparison[] = [];
  for (const kind of selectedKinds()) {
    const database = await freshDatabase(kind, "accounts");
    const log = console.log;
    console.log = () => {}; // the log transport prints every mail
    const app = await createApp({
      root: new URL("./", import.meta.url),
      database: database.url,
      databaseSchema: database.schema,
      config: {
        layers: [authLayer()],
        auth: {
          signup: { requireVerifiedEmail: true },
          resetRateLimit: false,
          loginRateLimit: false,
        },
      },
    });
    try {
      await timed(app, "/auth/install", {
        email: "admin@example.com",
        password: "admin-password-1",
      });
      const [known, unknown] = await pair(
        () =>
          timed(app, "/auth/password/forgot", { email: "admin@example.com" }),
        (i) =>
          timed(app, "/auth/password/forgot", {
            email: `ghost${i}@example.com`,
          }),
      );
      rows.push({
        measure: `${database.label}: forgot, unknown email (ms, median)`,
        peer: "known email",
        peerValue: known,
        ours: unknown,
        min: 0.85,
        max: 1.15,
        digits: 2,
      });
      const [taken, fresh] = await pair(
        () =>
          timed(app, "/auth/signup", {
            email: "admin@example.com",
            password: "violet-anchor-47",
          }),
        (i) =>
          timed(app, "/auth/signup", {
            email: `new${i + 100}@example.com`,
            password: "violet-anchor-47",
          }),
      );
      rows.push({
        measure: `${database.label}: sign-up, fresh email (ms, median)`,
        peer: "taken email",
        peerValue: taken,
        ours: fresh,
        min: 0.85,
        max: 1.15,
        digits: 2,
      });
    } finally {
      await app.close();
      console.log = log;
      await database.drop();
    }
  }
  return {
    title: "Accounts: equal time for existing and missing accounts",
    method:
      `in-process app.fetch; median of ${SAMPLES} interleaved requests per kind after ${WARMUP} warm-ups; scrypt cost 32768`,
    rows,
  };
}

if (import.meta.main) printReport(await accountsBench());
