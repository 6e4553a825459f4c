/**
 * Route-id globs for the `disable.routes` configuration key.
 *
 * @module
 */

const METHOD = /^[A-Za-z]+$/;

/**
 * Compiles a `disable.routes` glob into a predicate over route ids
 * (`"GET /admin/users"`, `"* /collections/[name]"`).
 *
 * A glob is an optional method and a path glob separated by whitespace:
 *
 * - `"GET /admin/**"` matches GET route ids only (method case-insensitive);
 *   `"/collections/**"`, without method (or with `*`), matches every method,
 *   the suffixless `*` routes included.
 * - The path glob is matched against the route *pattern*, literally except
 *   for wildcards: `[name]` in a glob matches the text `[name]`.
 * - `*` matches any run of characters inside one segment; a `**` segment
 *   matches any number of whole segments, zero included, so
 *   `/collections/**` matches `/collections` too and `/**` matches
 *   everything.
 *
 * @param glob The glob, e.g. `"GET /admin/**"`.
 * @returns A predicate telling whether a route id is matched.
 * @throws {Error} For an empty glob, a path not starting with `/`, an empty
 *   segment, `**` inside a segment, or a method that is not a word.
 *
 * @example
 * ```ts
 * import { compileRouteGlob } from "./glob.ts";
 *
 * const adminGets = compileRouteGlob("GET /admin/**");
 * adminGets("GET /admin/users/[id]"); // true
 * adminGets("POST /admin/users"); // false
 * compileRouteGlob("/collections/**")("* /collections"); // true
 * ```
 */
export function compileRouteGlob(glob: string): (routeId: string) => boolean {
  const fail = (reason: string): Error =>
    new Error(`Invalid route glob "${glob}": ${reason}`);
  const words = glob.trim().split(/\s+/);
  if (words[0] === "") throw fail("the glob is empty");
  if (words.length > 2) throw fail("expected an optional method and a path");
  const pathGlob = words[words.length - 1];
  let method: string | null = null;
  if (words.length === 2) {
    if (words[0] !== "*") {
      if (!METHOD.test(words[0])) throw fail(`invalid method "${words[0]}"`);
      method = words[0].toUpperCase();
    }
  }
  const regexp = compilePathGlob(pathGlob, fail);
  return (routeId: string): boolean => {
    const space = routeId.indexOf(" ");
    if (space === -1) return false;
    if (method !== null && routeId.slice(0, space).toUpperCase() !== method) {
      return false;
    }
    const pattern = routeId.slice(space + 1);
    // The root is the empty list of segments, so that `/**` covers it.
    return regexp.test(pattern === "/" ? "" : pattern);
  };
}

function compilePathGlob(
  pathGlob: string,
  fail: (reason: string) => Error,
): RegExp {
  if (!pathGlob.startsWith("/")) throw fail("the path must start with /");
  if (pathGlob === "/") return /^$/;
  let source = "";
  const body = pathGlob.endsWith("/")
    ? pathGlob.slice(1, -1)
    : pathGlob.slice(1);
  for (const segment of body.split("/")) {
    if (segment === "") throw fail("empty path segment");
    if (segment === "**") {
      source += "(?:/[^/]+)*";
      continue;
    }
    if (segment.includes("**")) {
      throw fail(`"**" must be a whole segment, not part of "${segment}"`);
    }
    source += "/" + segment.split("*").map(escapeRegExp).join("[^/]*");
  }
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
