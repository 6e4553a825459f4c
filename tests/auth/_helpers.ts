/**
 * Helpers of the auth tests: apps booted from a fixture on SQLite and (when
 * `STRATA_TEST_POSTGRES` is set) PostgreSQL in a fresh schema, an injectable clock, and a
 * small HTTP client over `app.fetch`.
 *
 * @module
 */
import pg from "pg";
import { type App, createApp, type StrataConfig } from "../../mod.ts";

/** The PostgreSQL URL of the test server, if any. */
export const PG_URL: string | undefined =
  Deno.env.get("STRATA_TEST_POSTGRES") || undefined;

/** The default fixture: the auth layer with cost 1024, roles editor and manager. */
export const AUTH_APP: string = fixture("auth_app");

/** The absolute path of `tests/fixtures/<name>`. */
export function fixture(name: string): string {
  return new URL(`../fixtures/${name}/`, import.meta.url).pathname;
}

/** A settable clock in epoch ms. */
export interface Clock {
  now(): number;
  advance(ms: number): void;
}

/** A clock starting at 2030-01-01. */
export function testClock(start = Date.UTC(2030, 0, 1)): Clock {
  let time = start;
  return { now: () => time, advance: (ms) => void (time += ms) };
}

/** Options of {@link Harness.boot}. */
export interface BootOptions {
  /** The app folder; default the `auth_app` fixture. */
  root?: string;
  /** A config replacing the folder's config file. */
  config?: StrataConfig;
}

/** One database of one test, on which apps can be booted (all share it). */
export interface Harness {
  readonly dialect: "sqlite" | "postgres";
  /** The clock every booted app uses. */
  readonly clock: Clock;
  /** Boots an app on this test's database; closed when the test ends. */
  boot(options?: BootOptions): Promise<App>;
}

/** Options of {@link authTest}. */
export interface AuthTestOptions {
  /** SQLite on a file, so several apps can share the database. */
  shared?: boolean;
  /** Only on PostgreSQL. */
  postgresOnly?: boolean;
  /** Only on SQLite. */
  sqliteOnly?: boolean;
}

let schemas = 0;

async function run(
  dialect: "sqlite" | "postgres",
  fn: (h: Harness) => Promise<void>,
  options: AuthTestOptions,
): Promise<void> {
  const clock = testClock();
  const apps: App[] = [];
  const dir = dialect === "sqlite" && options.shared
    ? await Deno.makeTempDir()
    : undefined;
  const schema = dialect === "postgres"
    ? `t_auth_${crypto.randomUUID().slice(0, 8)}_${++schemas}`
    : undefined;
  const database = dialect === "postgres"
    ? PG_URL!
    : dir
    ? `${dir}/app.db`
    : ":memory:";
  try {
    await fn({
      dialect,
      clock,
      async boot(boot = {}) {
        const app = await createApp({
          root: boot.root ?? AUTH_APP,
          config: boot.config,
          database,
          databaseSchema: schema,
          now: clock.now,
        });
        apps.push(app);
        return app;
      },
    });
  } finally {
    for (const app of apps) await app.close();
    if (dir) await Deno.remove(dir, { recursive: true });
    if (schema) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    }
  }
}

/** Registers `name [sqlite]` and `name [postgres]` (ignored without PostgreSQL). */
export function authTest(
  name: string,
  fn: (h: Harness) => Promise<void>,
  options: AuthTestOptions = {},
): void {
  if (!options.postgresOnly) {
    Deno.test(`${name} [sqlite]`, () => run("sqlite", fn, options));
  }
  if (options.sqliteOnly) return;
  Deno.test({
    name: `${name} [postgres]`,
    ignore: !PG_URL,
    fn: () => run("postgres", fn, options),
  });
}

/** A request to an app. */
export interface Call {
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** A raw body (with `contentType`). */
  body?: BodyInit;
  contentType?: string;
  /** `name=value` of the session cookie. */
  cookie?: string;
  /** A Bearer token. */
  bearer?: string;
  origin?: string;
  /** The client address the app sees. */
  ip?: string;
  headers?: Record<string, string>;
}

/** Sends a request to `app` (path relative to http://localhost). */
export function send(
  app: App,
  path: string,
  call: Call = {},
): Promise<Response> {
  const headers = new Headers(call.headers);
  let body = call.body;
  if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    headers.set("content-type", "application/json");
  } else if (call.contentType) headers.set("content-type", call.contentType);
  if (call.cookie) headers.set("cookie", call.cookie);
  if (call.bearer) headers.set("authorization", `Bearer ${call.bearer}`);
  if (call.origin) headers.set("origin", call.origin);
  const method = call.method ??
    (call.json !== undefined || call.body !== undefined ? "POST" : "GET");
  return app.fetch(
    new Request(new URL(path, "http://localhost"), { method, headers, body }),
    { remoteAddr: { hostname: call.ip ?? "192.0.2.1" } },
  );
}

/** A response read as status, JSON body and headers. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

/** Sends and reads the JSON answer. */
export async function ask(
  app: App,
  path: string,
  call: Call = {},
): Promise<Answer> {
  const response = await send(app, path, call);
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? undefined : JSON.parse(text),
    headers: response.headers,
  };
}

/** The `name=value` part of the session cookie a response sets, if any. */
export function cookieOf(
  answer: { headers: Headers },
  name = "session",
): string | undefined {
  const cookie = answer.headers.getSetCookie().find((c) =>
    c.startsWith(`${name}=`)
  );
  return cookie?.split(";")[0];
}

/** The raw token of a `name=value` cookie. */
export function tokenOf(cookie: string): string {
  return cookie.slice(cookie.indexOf("=") + 1);
}

export const ADMIN = { email: "admin@example.com", password: "admin-password" };

/** Installs the first admin and returns its session cookie and user. */
export async function install(
  app: App,
  credentials = ADMIN,
): Promise<{ cookie: string; user: Answer["body"] }> {
  const answer = await ask(app, "/auth/install", { json: credentials });
  if (answer.status !== 200) {
    throw new Error(`Install failed: ${JSON.stringify(answer)}`);
  }
  return { cookie: cookieOf(answer)!, user: answer.body };
}

/** Creates a user through trusted code (outside any request). */
export async function createUser(
  app: App,
  input: { email: string; password: string; roles?: string[] },
): Promise<string> {
  const result = await app.query("Users").create(input);
  if (!result.ok) throw new Error(`Create failed: ${JSON.stringify(result)}`);
  return result.record.UUID;
}

/** Signs in and returns the session cookie (throws on failure). */
export async function login(
  app: App,
  email: string,
  password: string,
  remember?: boolean,
): Promise<string> {
  const answer = await ask(app, "/auth/login", {
    json: { email, password, ...(remember === undefined ? {} : { remember }) },
  });
  if (answer.status !== 200) {
    throw new Error(`Login failed: ${JSON.stringify(answer)}`);
  }
  return cookieOf(answer)!;
}

/** How many Sessions rows the database holds. */
export async function sessionCount(app: App): Promise<number> {
  return await app.query("Sessions").count();
}
