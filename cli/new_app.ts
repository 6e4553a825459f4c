/**
 * `strata new <dir>`: scaffolds an app that passes its own `deno task test` right away.
 *
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { appFiles } from "./_templates.ts";
import { DEFAULT_STRATA_SOURCE, strataImportMap } from "./import_map.ts";
import { CliError } from "./errors.ts";

/** Options of {@link scaffoldApp}. */
export interface ScaffoldOptions {
  /** The folder to create; its last segment is the app's name. */
  dir: string;
  /**
   * Where the app imports Strata from: a `jsr:` specifier (default
   * `jsr:@strata/strata@^0`), a URL of the package root, or a local path to a checkout.
   */
  strata?: string;
  /** Folder that relative `dir` and `strata` paths resolve against; default the cwd. */
  cwd?: string;
}

/** What {@link scaffoldApp} created. */
export interface ScaffoldResult {
  /** The app's name (the folder's last segment). */
  readonly name: string;
  /** The absolute path of the app folder. */
  readonly root: string;
  /** The files written, relative to `root`, sorted. */
  readonly files: readonly string[];
}

const APP_NAME = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * Checks an app name: lower-case letters and digits, single `-` or `_` between them,
 * starting with a letter, at most 64 characters. Returns the problem, or `undefined`.
 *
 * @example
 * ```ts
 * import { appNameProblem } from "@strata/strata/cli";
 * appNameProblem("my-app"); // undefined
 * appNameProblem("My App"); // "use lower-case letters, digits, and single - or _ between them, starting with a letter"
 * ```
 */
export function appNameProblem(name: string): string | undefined {
  if (name.length > 64) return "use at most 64 characters";
  if (!APP_NAME.test(name)) {
    return "use lower-case letters, digits, and single - or _ between them, starting with a letter";
  }
  return undefined;
}

async function assertEmptyOrMissing(root: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(root);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  if (!info.isDirectory) {
    throw new CliError(`${root} exists and is not a folder`);
  }
  for await (const _ of Deno.readDir(root)) {
    throw new CliError(
      `${root} already exists and is not empty: choose another folder`,
    );
  }
}

/**
 * Writes a new app into `options.dir` (which must be missing or empty): `deno.json` with
 * the tasks `dev`, `start` and `test` and an import map for `@strata/strata`,
 * `strata.config.ts` stacking the auth layer, `main.ts`, one route, one collection served by
 * the collections API, and one test using `createTestApp`. A bad name or a non-empty folder
 * throws a {@link CliError} and writes nothing.
 *
 * @example
 * ```ts
 * import { scaffoldApp } from "@strata/strata/cli";
 * const dir = await Deno.makeTempDir();
 * const { files } = await scaffoldApp({ dir: `${dir}/my-app` });
 * files.includes("strata.config.ts"); // true
 * ```
 */
export async function scaffoldApp(
  options: ScaffoldOptions,
): Promise<ScaffoldResult> {
  const cwd = options.cwd ?? Deno.cwd();
  if (typeof options.dir !== "string" || options.dir.trim() === "") {
    throw new CliError("Missing folder: strata new <dir>");
  }
  const root = resolve(cwd, options.dir);
  const name = basename(root);
  const problem = appNameProblem(name);
  if (problem) throw new CliError(`Invalid app name "${name}": ${problem}`);
  let imports: Record<string, string>;
  try {
    imports = strataImportMap(options.strata ?? DEFAULT_STRATA_SOURCE, cwd);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  await assertEmptyOrMissing(root);
  const files = appFiles(name, imports);
  for (const [file, content] of Object.entries(files)) {
    const path = join(root, file);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, content, { createNew: true });
  }
  return Object.freeze({
    name,
    root,
    files: Object.freeze(Object.keys(files).sort()),
  });
}
