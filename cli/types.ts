/**
 * `strata types [dir] [--check]`: writes the app's `strata.gen.ts` (the registry that types
 * `query("Name")`), or with `--check` fails when it is missing or stale.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { createApp } from "../app/create_app.ts";
import {
  registryEntries,
  TYPES_FILE,
  typesFileText,
  writeTypesFile,
} from "../app/types_file.ts";
import { CliError } from "./errors.ts";

/**
 * Boots the app in `dir` on an in-memory database and writes its `strata.gen.ts`; with
 * `check`, only compares and throws a {@link CliError} when the file is missing or stale.
 * Returns the line to print.
 *
 * @example
 * ```ts ignore
 * import { typesCommand } from "@strata/strata/cli";
 * console.log(await typesCommand("./my-app", { check: true }));
 * ```
 */
export async function typesCommand(
  dir: string,
  options: { check?: boolean } = {},
): Promise<string> {
  const root = resolve(dir);
  try {
    await Deno.stat(join(root, "strata.config.ts"));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CliError(`No strata.config.ts in ${root}: is it a Strata app?`);
    }
    throw error;
  }
  const app = await createApp({ root, database: ":memory:" });
  try {
    const path = join(root, TYPES_FILE);
    if (options.check) {
      const expected = typesFileText(registryEntries(app.layers, root));
      const current = await Deno.readTextFile(path).catch(() => null);
      if (current !== expected) {
        throw new CliError(
          `${path} is ${
            current === null ? "missing" : "stale"
          }: run \`strata types\` to write it`,
        );
      }
      return `${path} is up to date`;
    }
    const written = await writeTypesFile(app.layers, root);
    return written ? `Wrote ${path}` : `${path} is up to date`;
  } finally {
    await app.close();
  }
}
