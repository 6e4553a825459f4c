/**
 * Route files to routes: the file-name conventions of the API directory
 * (SPEC.md "Route conventions") and the canonical pattern string.
 *
 * @module
 */

import { canonicalizePath } from "./canonical_path.ts";

/**
 * One segment of a route pattern.
 *
 * - `static`: literal text, stored in canonical form (see
 *   {@linkcode canonicalizePath}), so `café` is stored as `caf%C3%A9`.
 * - `param`: a whole segment `[name]`; matches exactly one URL segment.
 * - `mixed`: literal text and params inside one segment (`feed.[format]`,
 *   `[id].json`, `[a]-[b]`); two params are always separated by text.
 * - `catchAll`: `[...name]`, the last segment; matches one or more segments.
 */
export type RouteSegment =
  | { kind: "static"; value: string }
  | { kind: "param"; name: string }
  | { kind: "mixed"; parts: Array<string | { param: string }> }
  | { kind: "catchAll"; name: string };

/** What a route file name says: the method it answers and its pattern. */
export interface ParsedRouteFile {
  /** Upper-case method (`"GET"`), or `"*"` for a file without method suffix. */
  method: string;
  /** The canonical pattern string, e.g. `/posts/[id]`; `/` for the root. */
  pattern: string;
  /** The pattern, segment by segment. */
  segments: RouteSegment[];
}

const EXTENSIONS = [".tsx", ".mts", ".mjs", ".ts", ".js"];
const METHOD_SUFFIXES = new Set([
  "get",
  "post",
  "put",
  "patch",
  "delete",
  "head",
  "options",
]);

/**
 * Parses the path of a route file, relative to the API directory and
 * separated by `/`, into its method and pattern.
 *
 * - The extension (`.ts`, `.tsx`, `.js`, `.mjs`, `.mts`) is stripped.
 * - A method suffix (`.get`, `.post`, `.put`, `.patch`, `.delete`, `.head`,
 *   `.options`, any case) right before the extension sets the method; a file
 *   without one answers every method (`"*"`).
 * - A trailing `index` collapses into its parent.
 * - Static text is stored in canonical form, so `café.ts` matches a request
 *   for `/caf%C3%A9` and a `%` in a file name is a literal percent sign.
 *
 * @param relPath The file path relative to the API directory, e.g.
 *   `posts/[id].get.ts`.
 * @returns The method, the canonical pattern and its segments.
 * @throws {Error} For an unsupported extension or an invalid name: a
 *   catch-all that is not the last segment or shares its segment with text,
 *   an empty or repeated param name, unbalanced brackets, an empty segment.
 *
 * @example
 * ```ts
 * import { parseRouteFile } from "./route_path.ts";
 *
 * parseRouteFile("posts/[id].get.ts");
 * // { method: "GET", pattern: "/posts/[id]", segments: [
 * //   { kind: "static", value: "posts" }, { kind: "param", name: "id" } ] }
 * parseRouteFile("authors/index.GET.ts").pattern; // "/authors"
 * parseRouteFile("index.ts"); // { method: "*", pattern: "/", segments: [] }
 * ```
 */
export function parseRouteFile(relPath: string): ParsedRouteFile {
  const fail = (reason: string): Error =>
    new Error(`Invalid route file "${relPath}": ${reason}`);
  let path = relPath.startsWith("./") ? relPath.slice(2) : relPath;
  if (path.startsWith("/")) path = path.slice(1);
  const lower = path.toLowerCase();
  const extension = EXTENSIONS.find((ext) => lower.endsWith(ext));
  if (extension === undefined) {
    throw fail(`a route file must end in ${EXTENSIONS.join(", ")}`);
  }
  path = path.slice(0, -extension.length);
  let method = "*";
  const dot = path.lastIndexOf(".");
  const suffix = path.slice(dot + 1).toLowerCase();
  if (dot > path.lastIndexOf("/") && METHOD_SUFFIXES.has(suffix)) {
    method = suffix.toUpperCase();
    path = path.slice(0, dot);
  }
  const texts = path.split("/");
  if (texts[texts.length - 1] === "index") texts.pop();
  const segments = parseSegments(texts, encodeFileText, fail);
  return { method, pattern: formatRoutePattern(segments), segments };
}

/**
 * Parses a pattern string such as `/posts/[id]` or `/files/[...path]` into
 * segments. Static text is taken as URL text (as in a request path, so `%`
 * starts an escape) and canonicalised. One trailing slash is ignored.
 *
 * @param pattern The pattern, starting with `/`.
 * @returns The segments; an empty array for `/`.
 * @throws {Error} For a pattern that does not start with `/`, or invalid
 *   segments as in {@linkcode parseRouteFile}.
 *
 * @example
 * ```ts
 * import { parseRoutePattern } from "./route_path.ts";
 *
 * parseRoutePattern("/feed.[format]");
 * // [{ kind: "mixed", parts: ["feed.", { param: "format" }] }]
 * ```
 */
export function parseRoutePattern(pattern: string): RouteSegment[] {
  const fail = (reason: string): Error =>
    new Error(`Invalid route pattern "${pattern}": ${reason}`);
  if (!pattern.startsWith("/")) throw fail("a pattern must start with /");
  let body = pattern.slice(1);
  if (body.endsWith("/")) body = body.slice(0, -1);
  if (body === "") return [];
  return parseSegments(body.split("/"), encodePatternText, fail);
}

/**
 * Writes segments back as the canonical pattern string: `/posts/[id]`,
 * `/feed.[format]`, `/files/[...path]`, `/` for no segments.
 *
 * @param segments The segments, as from {@linkcode parseRouteFile}.
 * @returns The pattern string.
 *
 * @example
 * ```ts
 * import { formatRoutePattern } from "./route_path.ts";
 *
 * formatRoutePattern([
 *   { kind: "static", value: "files" },
 *   { kind: "catchAll", name: "path" },
 * ]); // "/files/[...path]"
 * ```
 */
export function formatRoutePattern(segments: readonly RouteSegment[]): string {
  if (segments.length === 0) return "/";
  let pattern = "";
  for (const segment of segments) {
    pattern += "/";
    switch (segment.kind) {
      case "static":
        pattern += segment.value;
        break;
      case "param":
        pattern += `[${segment.name}]`;
        break;
      case "catchAll":
        pattern += `[...${segment.name}]`;
        break;
      case "mixed":
        for (const part of segment.parts) {
          pattern += typeof part === "string" ? part : `[${part.param}]`;
        }
        break;
    }
  }
  return pattern;
}

/**
 * The identity of a route within a layer stack: method and pattern.
 *
 * @param method Upper-case method, or `"*"` for a suffixless file.
 * @param pattern The canonical pattern string.
 * @returns `"GET /posts/[id]"`, `"* /posts/[id]"`.
 *
 * @example
 * ```ts
 * import { routeId } from "./route_path.ts";
 *
 * routeId("GET", "/posts/[id]"); // "GET /posts/[id]"
 * ```
 */
export function routeId(method: string, pattern: string): string {
  return `${method} ${pattern}`;
}

type Fail = (reason: string) => Error;
type Encode = (text: string, fail: Fail) => string;

function parseSegments(
  texts: string[],
  encode: Encode,
  fail: Fail,
): RouteSegment[] {
  // A plain loop: a thousand route files parse at every boot, in code not yet optimized.
  const segments: RouteSegment[] = new Array(texts.length);
  let names: Set<string> | undefined;
  for (let index = 0; index < texts.length; index++) {
    const segment = parseSegment(texts[index], encode, fail);
    segments[index] = segment;
    if (segment.kind === "static") continue;
    if (segment.kind === "catchAll" && index !== texts.length - 1) {
      throw fail(
        `catch-all segment "[...${segment.name}]" must be the last segment`,
      );
    }
    names ??= new Set();
    for (const name of paramNames(segment)) {
      if (names.has(name)) throw fail(`param name "${name}" is used twice`);
      names.add(name);
    }
  }
  return segments;
}

/**
 * The param names a segment binds, in order.
 *
 * @param segment One segment of a pattern.
 * @returns The names; empty for a static segment.
 *
 * @example
 * ```ts
 * import { paramNames } from "./route_path.ts";
 *
 * paramNames({ kind: "mixed", parts: [{ param: "a" }, "-", { param: "b" }] });
 * // ["a", "b"]
 * ```
 */
export function paramNames(segment: RouteSegment): string[] {
  switch (segment.kind) {
    case "static":
      return [];
    case "param":
    case "catchAll":
      return [segment.name];
    case "mixed":
      return segment.parts.flatMap((part) =>
        typeof part === "string" ? [] : [part.param]
      );
  }
}

function parseSegment(
  text: string,
  encode: Encode,
  fail: Fail,
): RouteSegment {
  if (text === "") throw fail("empty path segment");
  if (!text.includes("[") && !text.includes("]")) {
    return { kind: "static", value: encode(text, fail) };
  }
  const parts: Array<string | { param: string; catchAll: boolean }> = [];
  let literal = "";
  for (let i = 0; i < text.length;) {
    const char = text[i];
    if (char === "]") throw fail(`unbalanced "]" in segment "${text}"`);
    if (char !== "[") {
      literal += char;
      i++;
      continue;
    }
    const close = text.indexOf("]", i + 1);
    const inner = close === -1 ? "" : text.slice(i + 1, close);
    if (close === -1 || inner.includes("[")) {
      throw fail(`unbalanced "[" in segment "${text}"`);
    }
    if (literal !== "") parts.push(encode(literal, fail));
    literal = "";
    const catchAll = inner.startsWith("...");
    const name = catchAll ? inner.slice(3) : inner;
    if (name === "") throw fail(`empty param name in segment "${text}"`);
    if (/[\s.\/\\]/.test(name)) {
      throw fail(`invalid param name "${name}" in segment "${text}"`);
    }
    if (typeof parts[parts.length - 1] === "object") {
      throw fail(`params in segment "${text}" need text between them`);
    }
    parts.push({ param: name, catchAll });
    i = close + 1;
  }
  if (literal !== "") parts.push(encode(literal, fail));
  const only = parts[0];
  if (parts.length === 1 && typeof only === "object") {
    return only.catchAll
      ? { kind: "catchAll", name: only.param }
      : { kind: "param", name: only.param };
  }
  return {
    kind: "mixed",
    parts: parts.map((part) => {
      if (typeof part === "string") return part;
      if (part.catchAll) {
        throw fail(
          `catch-all "[...${part.param}]" must be a whole segment, not part of "${text}"`,
        );
      }
      return { param: part.param };
    }),
  };
}

function encodeFileText(text: string, fail: Fail): string {
  return encodeUrlText(text, true, fail);
}

function encodePatternText(text: string, fail: Fail): string {
  const canonical = canonicalizePath(encodeUrlText(text, false, fail));
  if (canonical === null) {
    throw fail("an encoded slash or backslash can never match a request");
  }
  return canonical;
}

/**
 * Percent-encodes what the URL parser would encode in a path (C0 controls,
 * space, `"` `#` `<` `>` `?` `` ` `` `{` `}`, DEL, non-ASCII), so that static
 * text compares equal to the canonical request path. File names are decoded
 * text, so there `%` is encoded too.
 */
/** Text the URL parser leaves alone in a path, `%` aside: returned as it is. */
const PLAIN_TEXT = /^[\w\-.~!$&'()*+,;=:@[\]^|]*$/;

function encodeUrlText(
  text: string,
  encodePercent: boolean,
  fail: Fail,
): string {
  if (PLAIN_TEXT.test(text)) return text;
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === 0x5c) throw fail("a backslash can never match a request");
    if (
      code <= 0x20 || code >= 0x7f || char === '"' || char === "#" ||
      char === "<" || char === ">" || char === "?" || char === "`" ||
      char === "{" || char === "}" || (encodePercent && char === "%")
    ) {
      try {
        out += encodeURIComponent(char);
      } catch {
        throw fail("a lone surrogate can never match a request");
      }
    } else {
      out += char;
    }
  }
  return out;
}

/** Whether `a` becomes `b` by one insertion, deletion, substitution or swap of neighbours. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    return a.slice(i + 1) === b.slice(i + 1) ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] &&
        a.slice(i + 2) === b.slice(i + 2));
  }
  return a.length > b.length
    ? a.slice(i + 1) === b.slice(i)
    : a.slice(i) === b.slice(i + 1);
}

/**
 * The method suffix a route file most likely meant when its own suffix is one edit away from
 * one (`ping.gett.ts`, `x.pots.ts`); `undefined` otherwise. Such a file still serves its
 * literal path for every method (SPEC.md), so the boot only warns.
 *
 * @example
 * ```ts
 * import { likelyMethodSuffix } from "./route_path.ts";
 * likelyMethodSuffix("ping.gett.ts"); // "get"
 * likelyMethodSuffix("posts/x.pots.ts"); // "post"
 * likelyMethodSuffix("feed.rss.ts"); // undefined
 * ```
 */
export function likelyMethodSuffix(file: string): string | undefined {
  const name = file.slice(file.lastIndexOf("/") + 1)
    .replace(/\.(?:ts|tsx|js|jsx|mts|mjs)$/i, "");
  const dot = name.lastIndexOf(".");
  if (dot === -1) return undefined;
  const suffix = name.slice(dot + 1).toLowerCase();
  if (METHOD_SUFFIXES.has(suffix)) return undefined;
  for (const method of METHOD_SUFFIXES) {
    if (oneEditApart(suffix, method)) return method;
  }
  return undefined;
}
