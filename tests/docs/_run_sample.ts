// Runs a docs sample for real: the app its page describes is served on a real socket, the
// sample's base URL is pointed at it, and the sample runs as a module in a subprocess, the way
// a reader runs it (`deno run -A sample.ts` in a folder whose deno.json maps `@strata/strata`
// to this checkout).
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../testing/mod.ts";
import { PG_URL } from "../_helpers/db_apps.ts";
import { pageAppFiles, writeApp } from "./_doc_apps.ts";

/** The databases a served app runs on: SQLite, and PostgreSQL when configured. */
export const DATABASES: { name: string; url: string | undefined }[] = [
  { name: "sqlite", url: ":memory:" },
  { name: "postgres", url: PG_URL },
];

/** The origins the docs write their samples against (`deno task dev` serves the first). */
const SAMPLE_ORIGINS = ["http://localhost:8000", "https://app.example.com"];

/** A page's app, booted with `createTestApp` and served on 127.0.0.1. */
export interface Served {
  app: TestApp;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** The app's folder. */
  root: string;
  close(): Promise<void>;
}

/** Options of {@link servePage}. */
export interface ServeOptions {
  /** Files added to the page's app (path → text). */
  extra?: Record<string, string>;
  /** The harness's own routes beside the app's (path → answer), e.g. a mailbox. */
  routes?: Record<string, (app: TestApp) => Promise<Response>>;
}

/**
 * Writes the app `page` describes (plus `extra` files) into a temp folder, boots it on
 * `database` (a PostgreSQL one in a schema of its own) and serves it on a free port.
 */
export async function servePage(
  page: string,
  database: string,
  options: ServeOptions = {},
): Promise<Served> {
  const files = await pageAppFiles(page);
  assert.ok(files.size > 0, `${page} describes no app`);
  for (const [path, code] of Object.entries(options.extra ?? {})) {
    files.set(path, code);
  }
  const root = await Deno.makeTempDir({ prefix: "strata_docs_served_" });
  let app: TestApp | undefined;
  try {
    await writeApp(root, files);
    app = await createTestApp({ root, database });
    const served = app;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) => {
        const own = options.routes?.[new URL(request.url).pathname];
        return own ? own(served) : served.fetch(request);
      },
    );
    return {
      app,
      base: `http://127.0.0.1:${server.addr.port}`,
      root,
      async close() {
        try {
          await server.shutdown();
          await served.close();
        } finally {
          await Deno.remove(root, { recursive: true });
        }
      },
    };
  } catch (error) {
    await app?.close();
    await Deno.remove(root, { recursive: true });
    throw error;
  }
}

/** How long a sample may run before it is killed and its test fails. */
const SAMPLE_TIMEOUT = 180_000;

/** What a sample run printed. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runSample}. */
export interface RunOptions {
  /** The served app: the docs' origins in the sample become its URL. */
  base?: string;
  /** Further substitutions, each of which must occur in the sample. */
  replace?: [string, string][];
  /** The folder the sample runs in (its deno.json is written there); a temp one by default. */
  cwd?: string;
  env?: Record<string, string>;
  /** `--location` for a sample that fetches relative URLs, as a page in a browser does. */
  location?: string;
  /**
   * The session cookie of a signed-in page: with `location`, the sample's same-origin
   * requests carry it and their `Origin`, as a browser sends them.
   */
  cookie?: string;
  /**
   * Module text run before the sample (`--preload`): what a person at the terminal supplies
   * (a `prompt` that answers), as `cookie` supplies what a browser sends.
   */
  preload?: string;
  /** Runs while the sample does; the sample's stdin closes when it resolves. */
  during?: (stdout: () => string) => Promise<unknown>;
}

/** Runs `code` as `sample.ts` after the substitutions and answers its output. */
export async function runSample(
  code: string,
  options: RunOptions = {},
): Promise<Ran> {
  const replace = [...options.replace ?? []];
  if (options.base) {
    const origins = SAMPLE_ORIGINS.filter((origin) => code.includes(origin));
    assert.ok(
      origins.length > 0,
      `no base URL to point at the app in:\n${code}`,
    );
    for (const origin of origins) replace.push([origin, options.base]);
  }
  const text = substitute(code, replace);
  const dir = options.cwd ??
    await Deno.makeTempDir({ prefix: "strata_docs_sample_" });
  try {
    const files = new Map([["sample.ts", text]]);
    const preload = [
      options.cookie ? browser(options.cookie) : "",
      options.preload ?? "",
    ].join("\n").trim();
    if (preload) files.set("preload.ts", preload);
    await writeApp(dir, files);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-check",
        ...options.location ? [`--location=${options.location}`] : [],
        ...preload ? ["--preload=preload.ts"] : [],
        "sample.ts",
      ],
      cwd: dir,
      env: { NO_COLOR: "1", ...options.env },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stdout = "";
    const reading = child.stdout.pipeThrough(new TextDecoderStream())
      .pipeTo(
        new WritableStream({
          write(chunk) {
            stdout += chunk;
          },
        }),
      );
    const stderr = new Response(child.stderr).text();
    // A sample that never ends fails the test instead of holding the run (generous: load).
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, SAMPLE_TIMEOUT);
    let failure: unknown;
    try {
      await options.during?.(() => stdout);
    } catch (error) {
      failure = error;
    } finally {
      await child.stdin.close();
    }
    const { code: exit } = await child.status;
    clearTimeout(timer);
    await reading;
    const said = await stderr;
    if (failure) throw failure;
    assert.ok(
      !hung,
      `the sample still ran after ${SAMPLE_TIMEOUT} ms:\n${text}`,
    );
    return { code: exit, stdout, stderr: said };
  } finally {
    if (!options.cwd) await Deno.remove(dir, { recursive: true });
  }
}

/**
 * `code` with each `[from, to]` replaced; each must occur, so a sample that changes under
 * the harness fails rather than running unpointed.
 */
export function substitute(code: string, replace: [string, string][]): string {
  let text = code;
  for (const [from, to] of replace) {
    assert.ok(
      text.includes(from),
      `the sample no longer has ${from}:\n${code}`,
    );
    text = text.replaceAll(from, to);
  }
  return text;
}

/** Asserts a run exited 0 and answers its stdout. */
export function succeeded(where: string, ran: Ran): string {
  assert.equal(
    ran.code,
    0,
    `${where} failed:\n${ran.stdout}\n${ran.stderr}`,
  );
  return ran.stdout;
}

/** Polls `condition` until it answers a value (at most `seconds`), for load-proof waits. */
export async function eventually<T>(
  what: string,
  condition: () => Promise<T | undefined> | T | undefined,
  seconds = 60,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (true) {
    const value = await condition();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `root`'s own temp folder with `my-app` linked to `app`, for samples that open `./my-app`. */
export async function besideApp(app: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "strata_docs_beside_" });
  await Deno.symlink(app, join(dir, "my-app"));
  return dir;
}

/** A preload module that sends `cookie` and `Origin` with same-origin requests. */
function browser(cookie: string): string {
  return `const send = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const request = new Request(input, init);
  if (new URL(request.url).origin === location.origin) {
    request.headers.set("cookie", ${JSON.stringify(cookie)});
    request.headers.set("origin", location.origin);
  }
  return send(request);
};
`;
}
