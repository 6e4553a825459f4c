/**
 * The import map a new app gets: how its files reach `@strata/strata`, from JSR, from a URL
 * or from a local checkout.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Where `strata new` points `@strata/strata` unless `--strata` says otherwise. */
export const DEFAULT_STRATA_SOURCE = "jsr:@strata/strata@^0";

/** The package's entry points: export name → file under the package root. */
export const STRATA_EXPORTS: Readonly<Record<string, string>> = Object.freeze({
  ".": "mod.ts",
  "./auth": "auth/mod.ts",
  "./testing": "testing/mod.ts",
  "./utils/crypto": "utils/crypto.ts",
  "./cli": "cli/mod.ts",
  "./internal": "internal.ts",
  "./client": "client/mod.ts",
});

/**
 * The npm packages Strata's own files import by bare name. JSR rewrites those names from the
 * package's import map when it publishes; an app that imports Strata's files from a path or a
 * plain URL must map them itself, to the same versions as the repository's `deno.json`.
 */
export const STRATA_NPM_IMPORTS: Readonly<Record<string, string>> = Object
  .freeze({
    kysely: "npm:kysely@^0.28.2",
    nodemailer: "npm:nodemailer@^7.0.9",
    pg: "npm:pg@^8.16.0",
    sharp: "npm:sharp@^0.35.5",
  });

/**
 * The `imports` of a new app's `deno.json` for a Strata `source`: a `jsr:` specifier
 * (`jsr:@strata/strata@^0`), an `http(s):` or `file:` URL of the package root (or of its
 * `mod.ts`), or a local path to a checkout (resolved against `cwd`). Every export gets its
 * own entry, plus the `@strata/strata/` prefix; a non-JSR source also maps `kysely`, `nodemailer`, `pg` and `sharp`.
 *
 * @example
 * ```ts
 * import { strataImportMap } from "@strata/strata/cli";
 * strataImportMap("jsr:@strata/strata@^0");
 * // { "@strata/strata": "jsr:@strata/strata@^0", "@strata/strata/": "jsr:/@strata/strata@^0/" }
 * strataImportMap("/src/strata")["@strata/strata/auth"]; // "file:///src/strata/auth/mod.ts"
 * ```
 */
export function strataImportMap(
  source: string = DEFAULT_STRATA_SOURCE,
  cwd: string = Deno.cwd(),
): Record<string, string> {
  if (source.trim() === "") throw new Error("The Strata source is empty");
  if (source.startsWith("jsr:")) {
    const spec = source.slice("jsr:".length).replace(/^\/+/, "");
    if (!/^@strata\/strata(@[^/]+)?$/.test(spec)) {
      throw new Error(
        `Invalid Strata source "${source}": expected jsr:@strata/strata@<version>`,
      );
    }
    return {
      "@strata/strata": `jsr:${spec}`,
      "@strata/strata/": `jsr:/${spec}/`,
    };
  }
  const base = packageRoot(source, cwd);
  const imports: Record<string, string> = {};
  for (const [name, file] of Object.entries(STRATA_EXPORTS)) {
    const specifier = name === "."
      ? "@strata/strata"
      : `@strata/strata/${name.slice(2)}`;
    imports[specifier] = new URL(file, base).href;
  }
  imports["@strata/strata/"] = base.href;
  return { ...imports, ...STRATA_NPM_IMPORTS };
}

/** The package root as a URL ending in `/`. */
function packageRoot(source: string, cwd: string): URL {
  let url: URL;
  if (/^(https?|file):/i.test(source)) {
    try {
      url = new URL(source);
    } catch {
      throw new Error(`Invalid Strata source "${source}": not a valid URL`);
    }
  } else {
    url = pathToFileURL(isAbsolute(source) ? source : resolve(cwd, source));
  }
  if (url.pathname.endsWith(".ts")) return new URL(".", url);
  return url.pathname.endsWith("/") ? url : new URL(`${url.href}/`);
}
