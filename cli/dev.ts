/**
 * `strata dev [dir]`: serves an app's `main.ts` with `deno serve --watch`.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { CliError } from "./errors.ts";

/** Options of {@link devServer}. */
export interface DevOptions {
  /** The app folder, holding `main.ts`; default the cwd. */
  dir?: string;
  /** The port; default 8000. */
  port?: number;
  /** The address to listen on; default `127.0.0.1` (this machine only). */
  host?: string;
  /** Called once with the URL, when the server first answers (never if the boot fails). */
  onUrl?: (url: string) => void;
}

/**
 * The app folders the dev server watches besides the module graph, so adding or removing a
 * file there (a new route, collection, role, catalog…) restarts it.
 */
export const DEV_WATCH_DIRS: readonly string[] = Object.freeze([
  "api",
  "collections",
  "middleware",
  "roles",
  "messages",
  "hooks",
  "layers",
]);

/** Throws a {@link CliError} naming the port when something already listens on it. */
function assertPortFree(host: string, port: number): void {
  try {
    Deno.listen({ hostname: host, port }).close();
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new CliError(
        `Port ${port} is already in use on ${host}: stop the other server, or pick another port with --port ${
          port === 65535 ? 8001 : port + 1
        }`,
      );
    }
    throw error;
  }
}

/** Calls `then` once the server accepts connections; gives up when `stopped` settles. */
async function whenListening(
  host: string,
  port: number,
  stopped: Promise<unknown>,
  then: () => void,
): Promise<void> {
  let done = false;
  stopped.finally(() => done = true);
  while (!done) {
    try {
      (await Deno.connect({ hostname: host, port })).close();
      if (!done) then();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Runs `deno serve -A --host 127.0.0.1 --port <port> --watch=<app folders> main.ts` in the
 * app folder (with `STRATA_DEV=1`: a request log) until the server exits (SIGINT and SIGTERM
 * stop it) and returns its exit code. Adding or removing a file in the app's folders restarts
 * it. A folder without `main.ts`, or a port already in use, throws a {@link CliError}.
 *
 * @example
 * ```ts ignore
 * import { devServer } from "@strata/strata/cli";
 * const code = await devServer({ dir: "./my-app", port: 8080, onUrl: console.log });
 * ```
 */
export async function devServer(options: DevOptions = {}): Promise<number> {
  const root = resolve(options.dir ?? ".");
  const port = options.port ?? 8000;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CliError(`Invalid port ${port}: use a number from 1 to 65535`);
  }
  try {
    await Deno.stat(join(root, "main.ts"));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CliError(
        `No main.ts in ${root}: is it a Strata app? (create one with strata new <dir>)`,
      );
    }
    throw error;
  }
  const host = options.host ?? "127.0.0.1";
  assertPortFree(host, port);
  const spawn = () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "serve",
        "-A",
        "--host",
        host,
        "--port",
        String(port),
        `--watch=${DEV_WATCH_DIRS.join(",")}`,
        "main.ts",
      ],
      cwd: root,
      // A request log, and strata.gen.ts rewritten when collections change.
      env: { STRATA_DEV: "1", STRATA_WRITE_TYPES: "1" },
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
  let child = spawn();
  let stopping = false;
  if (options.onUrl) {
    const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
    const url = `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}/`;
    whenListening(host, port, child.status, () => options.onUrl!(url));
  }
  const stop = (target: Deno.ChildProcess) => {
    try {
      target.kill("SIGINT");
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        target.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 5000);
    Deno.unrefTimer(timer);
  };
  // `deno serve --watch` watches folders that exist when it starts: one of the app's folders
  // created later (a first middleware/ or roles/) restarts the server from here.
  const folders = Deno.watchFs(root, { recursive: false });
  const watching = (async () => {
    for await (const change of folders) {
      if (stopping || change.kind !== "create") continue;
      const created = change.paths.some((path) =>
        DEV_WATCH_DIRS.includes(path.slice(path.lastIndexOf("/") + 1))
      );
      if (!created) continue;
      const previous = child;
      stop(previous);
      await previous.status;
      if (!stopping) child = spawn();
    }
  })().catch(() => {});
  // `deno serve --watch` treats SIGTERM as "the served process ended" and keeps watching;
  // SIGINT (Ctrl+C) ends the watcher too, so both signals are passed on as SIGINT.
  const signals = ["SIGINT", "SIGTERM"] as const;
  const forward = signals.map((signal) => {
    const listener = () => {
      stopping = true;
      stop(child);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  try {
    // A restart replaces the child: wait until the current one ends while not restarting.
    while (true) {
      const current = child;
      const { code } = await current.status;
      if (
        current === child &&
        (stopping || !(await replaced(() => child, current)))
      ) {
        return code;
      }
    }
  } finally {
    stopping = true;
    folders.close();
    await watching;
    for (const [signal, listener] of forward) {
      Deno.removeSignalListener(signal, listener);
    }
  }
}

/** Whether `current()` moves on from `ended` shortly (a restart in progress). */
async function replaced(
  current: () => Deno.ChildProcess,
  ended: Deno.ChildProcess,
): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    if (current() !== ended) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
