/**
 * The Strata command line (`@strata/strata/cli`):
 *
 * - `new <dir> [--strata <source>]` scaffolds an app that passes its own `deno task test`;
 * - `routes [dir]` prints the merged route table (method, pattern, layer, file);
 * - `dev [dir] [--port <n>] [--host <addr>]` serves the app with `deno serve --watch` on
 *   127.0.0.1 (unless `--host` says otherwise) and prints its URL once it answers;
 * - `types [dir] [--check]` writes `strata.gen.ts`, the registry that types `query("Name")`
 *   (`--check` exits 1 when it is missing or stale).
 *
 * ```sh
 * deno run -A jsr:@strata/strata/cli new my-app
 * cd my-app && deno task dev
 * ```
 *
 * Mistakes (unknown command, bad app name, a folder that exists and is not empty) print one
 * clear line and exit with code 1.
 *
 * @example
 * ```ts
 * import { runCli } from "@strata/strata/cli";
 * const { code } = await runCli(["routes", "./examples/blog"]);
 * ```
 *
 * @module
 */
import { CliError } from "./errors.ts";
import { scaffoldApp } from "./new_app.ts";
import { routeTable } from "./routes.ts";
import { devServer } from "./dev.ts";
import { typesCommand } from "./types.ts";

export { CliError } from "./errors.ts";
export {
  appNameProblem,
  scaffoldApp,
  type ScaffoldOptions,
  type ScaffoldResult,
} from "./new_app.ts";
export { formatRoutes, routeTable } from "./routes.ts";
export { DEV_WATCH_DIRS, type DevOptions, devServer } from "./dev.ts";
export { typesCommand } from "./types.ts";
export {
  DEFAULT_STRATA_SOURCE,
  STRATA_EXPORTS,
  STRATA_NPM_IMPORTS,
  strataImportMap,
} from "./import_map.ts";
export type { RouteInfo } from "../app/route_table.ts";

/** The outcome of one CLI run. */
export interface CliResult {
  /** The process exit code. */
  readonly code: number;
}

/** Where the CLI writes; the console unless a test passes its own. */
export interface CliOutput {
  /** Normal output. */
  log(text: string): void;
  /** Errors. */
  error(text: string): void;
}

/** The usage text `strata help` prints. */
export const USAGE = `Usage: strata <command> [options]

Commands:
  new <dir> [--strata <source>]   create an app in dir (missing or empty)
                                  source: jsr:@strata/strata@^0 (default), a URL or a path
  routes [dir]                    print the merged route table of the app in dir (default .)
  dev [dir] [--port <n>] [--host <addr>]
                                  serve the app in dir with --watch (default 127.0.0.1:8000)
  types [dir] [--check]           write dir/strata.gen.ts, the registry of typed collections;
                                  --check exits 1 when it is missing or stale
  help                            print this text`;

interface ParsedArgs {
  positional: string[];
  flags: Map<string, string>;
}

/** Options that take no value. */
const SWITCH_FLAGS: ReadonlySet<string> = new Set(["check"]);

const VALUE_FLAGS: ReadonlySet<string> = new Set(["strata", "port", "host"]);

function parseArgs(args: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") {
      flags.set("help", "");
      continue;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (SWITCH_FLAGS.has(name) && inline === undefined) {
      flags.set(name, "");
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new CliError(`Unknown option "${arg}"`);
    const value = inline ?? args[++i];
    if (value === undefined || value === "") {
      throw new CliError(`Option --${name} needs a value`);
    }
    flags.set(name, value);
  }
  return { positional, flags };
}

function allowOnly(
  command: string,
  parsed: ParsedArgs,
  flags: readonly string[],
  maxPositional: number,
): void {
  for (const flag of parsed.flags.keys()) {
    if (flag !== "help" && !flags.includes(flag)) {
      throw new CliError(`Option --${flag} does not apply to "${command}"`);
    }
  }
  if (parsed.positional.length > maxPositional) {
    throw new CliError(
      `Too many arguments for "${command}": ${
        parsed.positional.slice(maxPositional).join(" ")
      }`,
    );
  }
}

async function run(
  args: readonly string[],
  out: CliOutput,
): Promise<number> {
  const [command, ...rest] = args;
  if (
    command === undefined || command === "help" || command === "-h" ||
    command === "--help"
  ) {
    out.log(USAGE);
    return 0;
  }
  const parsed = parseArgs(rest);
  if (parsed.flags.has("help")) {
    out.log(USAGE);
    return 0;
  }
  switch (command) {
    case "new": {
      allowOnly(command, parsed, ["strata"], 1);
      const dir = parsed.positional[0];
      if (dir === undefined) {
        throw new CliError("Missing folder: strata new <dir>");
      }
      const result = await scaffoldApp({
        dir,
        strata: parsed.flags.get("strata"),
      });
      out.log(
        `Created ${result.name} in ${result.root}:\n${
          result.files.map((file) => `  ${file}`).join("\n")
        }\n\nNext:\n  cd ${dir}\n  deno task dev    # serve on http://localhost:8000 with watch\n  deno task test   # run the tests`,
      );
      return 0;
    }
    case "routes": {
      allowOnly(command, parsed, [], 1);
      out.log(await routeTable(parsed.positional[0] ?? "."));
      return 0;
    }
    case "dev": {
      allowOnly(command, parsed, ["port", "host"], 1);
      const portText = parsed.flags.get("port");
      const host = parsed.flags.get("host");
      const port = portText === undefined ? undefined : Number(portText);
      if (port !== undefined && !/^\d+$/.test(portText!)) {
        throw new CliError(`Invalid port "${portText}": use a number`);
      }
      return await devServer({
        dir: parsed.positional[0],
        port,
        host: typeof host === "string" ? host : undefined,
        onUrl: (url) =>
          out.log(`Strata dev server: ${url} (restarts when files change)`),
      });
    }
    case "types": {
      allowOnly(command, parsed, ["check"], 1);
      out.log(
        await typesCommand(parsed.positional[0] ?? ".", {
          check: parsed.flags.has("check"),
        }),
      );
      return 0;
    }
    default:
      throw new CliError(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code. Usage
 * mistakes print one message to `out.error` and give code 1; an app that fails to boot
 * (`routes`) prints the boot error, which names the file at fault, and gives code 1.
 *
 * @example
 * ```ts
 * import { runCli } from "@strata/strata/cli";
 * const { code } = await runCli(["new", "my-app"]);
 * if (code !== 0) Deno.exit(code);
 * ```
 */
export async function runCli(
  args: readonly string[],
  out: CliOutput = { log: console.log, error: console.error },
): Promise<CliResult> {
  try {
    return { code: await run(args, out) };
  } catch (error) {
    if (error instanceof CliError) {
      out.error(`strata: ${error.message}`);
      return { code: error.code };
    }
    out.error(`strata: ${(error as Error)?.message ?? String(error)}`);
    return { code: 1 };
  }
}

if (import.meta.main) {
  const { code } = await runCli(Deno.args);
  Deno.exit(code);
}
