/**
 * The CLI's usage errors.
 *
 * @module
 */

/**
 * A mistake of the person running the CLI (unknown command, bad app name, folder not empty):
 * `runCli` prints its message alone, without a stack, and exits with code 1.
 *
 * @example
 * ```ts
 * import { CliError } from "@strata/strata/cli";
 * throw new CliError('Unknown command "serve"');
 * ```
 */
export class CliError extends Error {
  /** The process exit code this error ends the CLI with. */
  readonly code: number;

  /** Creates a usage error with `message`, ending the CLI with `code` (default 1). */
  constructor(message: string, code = 1) {
    super(message);
    this.name = "CliError";
    this.code = code;
  }
}
