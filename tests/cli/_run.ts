// Runs the CLI (or any deno subcommand) as a child process, the way a person would.
import { fileURLToPath } from "node:url";

/** The repository root as a URL ending in `/`. */
export const REPO_URL: URL = new URL("../../", import.meta.url);
/** The repository root as a path (no trailing slash). */
export const REPO_ROOT: string = fileURLToPath(REPO_URL).replace(/\/$/, "");
export const CLI: string = fileURLToPath(new URL("cli/mod.ts", REPO_URL));

export interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/** `deno <args>` in `cwd`, colours off. */
export async function deno(args: string[], cwd?: string): Promise<Output> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
  };
}

/** `deno run -A cli/mod.ts <args>` in `cwd`. */
export function strata(args: string[], cwd?: string): Promise<Output> {
  return deno(["run", "-A", CLI, ...args], cwd);
}
