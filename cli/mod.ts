/**
 * The Strata command line: `new <dir>` scaffolds an app, `routes` prints the merged route
 * table, `dev` serves the app with watch.
 *
 * ```sh
 * deno run -A jsr:@strata/strata/cli routes
 * ```
 *
 * @module
 */
import { createApp } from "../app/create_app.ts";
import { formatRouteTable } from "../app/route_table.ts";

/** The outcome of one CLI run. */
export interface CliResult {
  /** The process exit code. */
  readonly code: number;
}

const USAGE = `Usage: strata <command>

Commands:
  routes [dir]   print the merged route table of the app in dir (default: .)
  dev [dir]      serve the app in dir with --watch`;

/**
 * Runs the CLI with `args`; prints to the console and returns the exit code.
 *
 * @example
 * ```ts
 * import { runCli } from "@strata/strata/cli";
 * const { code } = await runCli(["routes", "./examples/blog"]);
 * ```
 */
export async function runCli(args: readonly string[]): Promise<CliResult> {
  const [command, ...rest] = args;
  switch (command) {
    case "routes": {
      const app = await createApp({ root: rest[0] ?? Deno.cwd() });
      try {
        console.log(formatRouteTable(app.routes));
      } finally {
        await app.close();
      }
      return { code: 0 };
    }
    case "dev": {
      const dir = rest[0] ?? ".";
      const main = `${dir}/main.ts`;
      const child = new Deno.Command(Deno.execPath(), {
        args: ["serve", "-A", "--watch", main],
        stdout: "inherit",
        stderr: "inherit",
      }).spawn();
      return { code: (await child.status).code };
    }
    default:
      console.error(
        command ? `Unknown command "${command}"\n\n${USAGE}` : USAGE,
      );
      return { code: 1 };
  }
}

if (import.meta.main) {
  const { code } = await runCli(Deno.args);
  Deno.exit(code);
}
