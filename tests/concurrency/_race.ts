/**
 * The harness of the concurrency suite: the `concurrency_app` fixture served over a real
 * socket (`Deno.serve` on port 0) on SQLite and, when `STRATA_TEST_POSTGRES` is set,
 * PostgreSQL in a schema of its own, with an administrator signed in. `race` sends two
 * requests at once; each test repeats its race `ROUNDS` times and checks every outcome
 * against the serial orders of the two requests.
 *
 * @module
 */
import assert from "node:assert/strict";
import pg from "pg";
import { type App, createApp } from "../../mod.ts";
import { PG_URL } from "../_helpers/db_apps.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";

/** Rounds of each race (`STRATA_RACE_ROUNDS` overrides; each costs a few ms). */
export const ROUNDS: number = Number(Deno.env.get("STRATA_RACE_ROUNDS")) ||
  40;

/** An answer: status, parsed JSON body (or `undefined`) and the session cookie set, if any. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  /** `session=<token>` when the answer sets the session cookie to a token. */
  cookie?: string;
}

/** Options of one request. */
export interface Ask {
  /** Sent as JSON. */
  json?: unknown;
  /** `session=<token>`; default the administrator's; `null` sends none. */
  cookie?: string | null;
}

/** A served app with its administrator. */
export interface Site {
  readonly app: App;
  readonly dialect: "sqlite" | "postgres";
  /** The administrator's session cookie. */
  readonly admin: string;
  /** Sends one request over the socket. */
  ask(method: string, path: string, options?: Ask): Promise<Answer>;
  /** Like `ask`, but throws unless the status is `expected`. */
  must(
    method: string,
    path: string,
    expected: number,
    options?: Ask,
  ): Promise<Answer>;
}

const ADMIN = { email: "admin@example.com", password: "admin-password" };

function cookieOf(headers: Headers): string | undefined {
  // The last one counts: a stale cookie can be cleared before a new one is set.
  const cookie = headers.getSetCookie().findLast((c) =>
    c.startsWith("session=")
  );
  const pair = cookie?.split(";")[0];
  return pair && pair !== "session=" ? pair : undefined;
}

async function serve(
  app: App,
  dialect: "sqlite" | "postgres",
  fn: (site: Site) => Promise<void>,
): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => app.fetch(request, info),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  let admin = "";
  const ask = async (
    method: string,
    path: string,
    options: Ask = {},
  ): Promise<Answer> => {
    const headers = new Headers();
    const cookie = options.cookie === undefined ? admin : options.cookie;
    if (cookie) headers.set("cookie", cookie);
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers.set("content-type", "application/json");
    }
    const response = await fetch(base + path, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      body: text === "" ? undefined : JSON.parse(text),
      cookie: cookieOf(response.headers),
    };
  };
  const must = async (
    method: string,
    path: string,
    expected: number,
    options?: Ask,
  ): Promise<Answer> => {
    const answer = await ask(method, path, options);
    if (answer.status !== expected) {
      throw new Error(
        `${method} ${path} answered ${answer.status}, not ${expected}: ${
          JSON.stringify(answer.body)
        }`,
      );
    }
    return answer;
  };
  try {
    const installed = await must("POST", "/auth/install", 200, {
      json: ADMIN,
      cookie: null,
    });
    admin = installed.cookie!;
    await fn({ app, dialect, admin, ask, must });
  } finally {
    await server.shutdown();
  }
}

let schemas = 0;

/** Drops a test's PostgreSQL schema. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** Registers `name [sqlite]` and `name [postgres]` (ignored without PostgreSQL). */
export function raceTest(
  name: string,
  fn: (site: Site) => Promise<void>,
): void {
  Deno.test(`${name} [sqlite]`, async () => {
    const app = await createApp({
      root: fixturePath("concurrency_app"),
      database: ":memory:",
    });
    try {
      await serve(app, "sqlite", fn);
    } finally {
      await app.close();
    }
  });
  Deno.test({
    name: `${name} [postgres]`,
    ignore: !PG_URL,
    async fn() {
      const schema = `t_race_${crypto.randomUUID().slice(0, 8)}_${++schemas}`;
      const app = await createApp({
        root: fixturePath("concurrency_app"),
        database: PG_URL!,
        databaseSchema: schema,
      });
      try {
        await serve(app, "postgres", fn);
      } finally {
        await app.close();
        await dropSchema(schema);
      }
    },
  });
}

/**
 * Starts `a` and `b` together. Odd rounds give `b` a head start of a few ms and even ones
 * give it to `a`, so both arrival orders (and the overlaps between) are exercised.
 */
export async function race<A, B>(
  round: number,
  a: () => Promise<A>,
  b: () => Promise<B>,
): Promise<[A, B]> {
  const lag = round % 3;
  const later = <T>(fn: () => Promise<T>): Promise<T> =>
    lag === 0
      ? fn()
      : new Promise((resolve) => setTimeout(resolve, lag)).then(fn);
  return round % 2 === 0
    ? await Promise.all([a(), later(b)])
    : await Promise.all([later(a), b()]);
}

/**
 * Asserts that `outcome` equals one of `serial` (the outcomes of the serial orders),
 * naming the round in the failure.
 */
export function assertSerial(
  round: number,
  outcome: unknown,
  serial: readonly unknown[],
): void {
  const matches = serial.some((candidate) => {
    try {
      assert.deepStrictEqual(outcome, candidate);
      return true;
    } catch {
      return false;
    }
  });
  if (!matches) {
    throw new Error(
      `Round ${round}: ${JSON.stringify(outcome)} matches no serial order of ${
        JSON.stringify(serial)
      }`,
    );
  }
}
