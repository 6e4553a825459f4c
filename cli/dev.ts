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
  /** Called once with the URL, before the server starts. */
  onUrl?: (url: string) => void;
}

/**
 * Runs `deno serve -A --watch --port <port> main.ts` in the app folder until the server
 * exits (SIGINT and SIGTERM stop it) and returns its exit code. A folder without
 * `main.ts` throws a {@link CliError}.
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
  options.onUrl?.(`http://localhost:${port}/`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["serve", "-A", "--watch", "--port", String(port), "main.ts"],
    cwd: root,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // `deno serve --watch` treats SIGTERM as "the served process ended" and keeps watching;
  // SIGINT (Ctrl+C) ends the watcher too, so both signals are passed on as SIGINT.
  const signals = ["SIGINT", "SIGTERM"] as const;
  const forward = signals.map((signal) => {
    const listener = () => {
      try {
        child.kill("SIGINT");
      } catch { /* already gone */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
      }, 5000);
      Deno.unrefTimer(timer);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  try {
    return (await child.status).code;
  } finally {
    for (const [signal, listener] of forward) {
      Deno.removeSignalListener(signal, listener);
    }
  }
}
