/**
 * The route matcher: a segment trie over canonical paths.
 *
 * @module
 */

import { decodeParam } from "./_decode_param.ts";
import {
  formatRoutePattern,
  paramNames,
  parseRoutePattern,
  type RouteSegment,
} from "./route_path.ts";

/** A path and method that found a route. */
export interface RouteMatch<T> {
  /** The value the route was added with. */
  value: T;
  /** The params of the route, URI-decoded strings. */
  params: Record<string, string>;
}

/**
 * A path that matched one or more routes, none of which serves the method.
 * The dispatcher answers 405 with an `Allow` header, or 204 with it for
 * `OPTIONS`.
 */
export interface RouteMiss {
  /**
   * The methods served on the path, sorted: the union over every matching
   * route, `HEAD` wherever `GET` is, and always `OPTIONS`.
   */
  allowed: string[];
}

/** A route at a node: its value and the names its params bind, in order. */
interface Entry<T> {
  value: T;
  names: string[];
  /** A param named `__proto__` must be defined, not assigned. */
  definesProto: boolean;
}

/** A mixed segment such as `[a]-[b].json`: prefix, param, (text, param)*, suffix. */
interface MixedEdge<T> {
  key: string;
  prefix: string;
  middles: string[];
  suffix: string;
  literalLength: number;
  node: Node<T>;
}

class Node<T> {
  statics: Map<string, Node<T>> | null = null;
  /**
   * The static children again, for matching. While they are few, a list
   * compared in place; past that, an open-addressing table probed by a hash
   * computed over the segment where it lies in the path. Either way no
   * segment is sliced out and hashed by a Map: on a fresh request string
   * that costs several times a whole match.
   */
  staticTexts: (string | null)[] = [];
  staticNodes: (Node<T> | null)[] = [];
  /** Table size - 1 when `staticTexts` is a hash table, -1 while it is a list. */
  staticMask = -1;
  mixed: MixedEdge<T>[] | null = null;
  param: Node<T> | null = null;
  catchAll: Node<T> | null = null;
  /** Routes with an explicit method. */
  methods: Map<string, Entry<T>> | null = null;
  /** The suffixless route, serving every method the node has no route for. */
  any: Entry<T> | null = null;
  /** What serves GET and HEAD here, fallbacks resolved (the common methods, no lookup). */
  forGet: Entry<T> | null = null;
  forHead: Entry<T> | null = null;
}

/** Per-match scratch space, reused: matching is synchronous. */
interface Scratch {
  /** Start and end offsets of each captured param, in pattern order. */
  offsets: number[];
  depth: number;
  /** A node matched the path but did not serve the method. */
  seen: boolean;
  /** When set, every matching node's methods land here (405 pass). */
  collect: Set<string> | null;
}

const SLASH = 47;
/** Up to this many static children are compared in place, not hashed. */
const FEW_STATICS = 4;

/**
 * A segment trie that maps a method and a canonical path (see
 * `canonicalizePath`) to the value of the route that serves it.
 *
 * **Specificity.** Segments are compared left to right and the leftmost
 * difference decides. For one segment the order is: static text, then mixed
 * segments (text with params, such as `feed.[format]`), then a bare
 * `[param]`, then `[...catchAll]`. Between two mixed segments that both match,
 * the one with more literal characters wins; with equal counts, the one added
 * first. When a branch fails deeper down (`/a/[x]/c` against `/a/b/d`), the
 * next branch is tried (backtracking).
 *
 * **Methods.** The result is the most specific route that matches the path
 * *and* serves the method, so `GET /posts/[id]` wins over a more specific
 * `POST /posts/new` for `GET /posts/new`. On one node an explicit method
 * wins over the suffixless `"*"` route. `HEAD` is served by the node's HEAD
 * route, else its GET route, else `"*"`; `OPTIONS` only by an explicit
 * OPTIONS or a `"*"` route.
 *
 * **Results.** A {@linkcode RouteMatch}; a {@linkcode RouteMiss} when routes
 * match the path but none serves the method (405); `null` when no route
 * matches the path (404).
 *
 * **Paths.** One trailing slash is tolerated (`/posts/` is `/posts`); a
 * second one or an empty inner segment (`/a//b`) never matches. A catch-all
 * needs at least one segment and binds the rest of the path joined by `/`.
 * Mixed-segment params bind at least one character each, the earlier ones as
 * few as possible. Params are decoded with `decodeURIComponent` (only when
 * they hold a `%`); an escape that is not valid UTF-8 stays as raw text.
 * Every match returns a fresh plain params object; a param named
 * `__proto__` becomes an own property and never touches a prototype.
 *
 * @typeParam T The value stored per route, e.g. a handler.
 *
 * @example
 * ```ts
 * import { RouteTrie } from "./trie.ts";
 *
 * const trie = new RouteTrie<string>();
 * trie.add("GET", "/posts/[id]", "show post");
 * trie.add("*", "/files/[...path]", "files");
 * trie.freeze();
 *
 * trie.match("GET", "/posts/42"); // { value: "show post", params: { id: "42" } }
 * trie.match("POST", "/posts/42"); // { allowed: ["GET", "HEAD", "OPTIONS"] }
 * trie.match("GET", "/files/a/b"); // { value: "files", params: { path: "a/b" } }
 * trie.match("GET", "/nothing"); // null
 * ```
 */
export class RouteTrie<T> {
  #root = new Node<T>();
  /** Nodes whose pattern is all static, by canonical path. */
  #staticPaths = new Map<string, Node<T>>();
  /**
   * The same as an open-addressing table probed by {@linkcode segmentHash}
   * over the whole path (no Map hashing of a fresh request string); built
   * lazily, dropped by every `add`.
   */
  #staticTexts: (string | null)[] | null = null;
  #staticNodes: (Node<T> | null)[] = [];
  #staticMask = 0;
  /**
   * Nodes whose static children changed since their matching index was built: indexed in
   * one go before the next match, not on every `add` (rebuilding a node's table per new
   * child made a thousand routes quadratic).
   */
  #unindexed = new Set<Node<T>>();
  #frozen = false;
  #scratch: Scratch = { offsets: [], depth: 0, seen: false, collect: null };

  /**
   * Adds a route.
   *
   * @param method Upper-case method, or `"*"` for a route answering every
   *   method its path has no explicit route for.
   * @param segments The pattern, as segments from `parseRouteFile` or as a
   *   pattern string such as `/posts/[id]`.
   * @param value The value a match returns.
   * @throws {Error} When the same method is added twice for the same node
   *   (`/posts/[id]` and `/posts/[slug]` are the same node), for an invalid
   *   pattern, or after {@linkcode RouteTrie.freeze}.
   */
  add(method: string, segments: RouteSegment[] | string, value: T): void {
    const list = typeof segments === "string"
      ? parseRoutePattern(segments)
      : segments;
    // Formatted only for an error or an all-static route: a thousand routes add at boot.
    const pattern = () => formatRoutePattern(list);
    if (this.#frozen) {
      throw new Error(
        `Cannot add route ${method} ${pattern()}: trie is frozen`,
      );
    }
    if (method === "" || /\s/.test(method)) {
      throw new Error(`Invalid method "${method}" for route ${pattern()}`);
    }
    method = method.toUpperCase();
    const names: string[] = [];
    let allStatic = true;
    for (let i = 0; i < list.length; i++) {
      const segment = list[i];
      if (segment.kind === "static") continue;
      allStatic = false;
      if (segment.kind === "catchAll" && i !== list.length - 1) {
        throw new Error(
          `Invalid route ${method} ${pattern()}: a catch-all must be the last segment`,
        );
      }
      for (const name of paramNames(segment)) {
        if (names.includes(name)) {
          throw new Error(
            `Invalid route ${method} ${pattern()}: a param name is used twice`,
          );
        }
        names.push(name);
      }
    }
    // Matching rebuilds its indexes first, even when this add fails half-way.
    this.#staticTexts = null;
    let node = this.#root;
    for (const segment of list) node = childFor(node, segment, this.#unindexed);
    const entry: Entry<T> = {
      value,
      names,
      definesProto: names.includes("__proto__"),
    };
    if (method === "*") {
      if (node.any !== null) throw duplicate(method, pattern());
      node.any = entry;
    } else {
      node.methods ??= new Map();
      if (node.methods.has(method)) throw duplicate(method, pattern());
      node.methods.set(method, entry);
    }
    node.forGet = serveSlowly(node, "GET");
    node.forHead = serveSlowly(node, "HEAD");
    if (allStatic) this.#staticPaths.set(pattern(), node);
  }

  /**
   * Finds the route serving `method` on `path`.
   *
   * @param method The request method, upper-case.
   * @param path The canonical request path (see `canonicalizePath`).
   * @returns The match; `{ allowed }` when the path matches but the method
   *   does not (405); `null` when nothing matches the path (404).
   */
  match(method: string, path: string): RouteMatch<T> | RouteMiss | null {
    let end = path.length;
    if (end === 0 || path.charCodeAt(0) !== SLASH) return null;
    if (end > 1 && path.charCodeAt(end - 1) === SLASH) {
      end--;
      if (end === 1) return null; // "//"
    }
    // An all-static route is the most specific match there is.
    const known = this.#staticNode(path, end);
    if (known !== null) {
      const entry = serve(known, method);
      if (entry !== null) return { value: entry.value, params: {} };
    }
    const scratch = this.#scratch;
    scratch.depth = 0;
    scratch.seen = false;
    const entry = end === 1
      ? terminal(this.#root, method, scratch)
      : find(this.#root, path, 1, end, method, scratch);
    if (entry !== null) {
      return {
        value: entry.value,
        params: buildParams(entry, path, scratch.offsets),
      };
    }
    if (!scratch.seen) return null;
    const allowed = new Set<string>();
    scratch.collect = allowed;
    try {
      if (end === 1) terminal(this.#root, method, scratch);
      else find(this.#root, path, 1, end, method, scratch);
    } finally {
      scratch.collect = null;
    }
    if (allowed.has("GET")) allowed.add("HEAD");
    allowed.add("OPTIONS");
    return { allowed: [...allowed].sort() };
  }

  /** The node of the all-static route whose path is `path[0, end)`, or `null`. */
  #staticNode(path: string, end: number): Node<T> | null {
    const texts = this.#staticTexts ?? this.#indexStatic();
    const mask = this.#staticMask;
    let slot = segmentHash(path, 0, end) & mask;
    while (true) {
      const text = texts[slot];
      if (text === null) return null;
      if (
        text.length === end &&
        (end === path.length ? text === path : path.startsWith(text))
      ) {
        return this.#staticNodes[slot];
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Builds what matching reads: the pending static-children indexes, the static paths. */
  #indexStatic(): (string | null)[] {
    for (const node of this.#unindexed) indexStatics(node);
    this.#unindexed.clear();
    // At most a quarter full: probes stay short.
    let size = 8;
    while (size < this.#staticPaths.size * 4) size *= 2;
    const texts: (string | null)[] = new Array(size).fill(null);
    const nodes: (Node<T> | null)[] = new Array(size).fill(null);
    for (const [text, node] of this.#staticPaths) {
      let slot = segmentHash(text, 0, text.length) & (size - 1);
      while (texts[slot] !== null) slot = (slot + 1) & (size - 1);
      texts[slot] = text;
      nodes[slot] = node;
    }
    this.#staticNodes = nodes;
    this.#staticMask = size - 1;
    return this.#staticTexts = texts;
  }

  /**
   * Ends the boot phase: later {@linkcode RouteTrie.add} calls throw, so the
   * table a running app matches against cannot change under it.
   */
  freeze(): void {
    this.#frozen = true;
    if (this.#staticTexts === null) this.#indexStatic();
  }
}

function duplicate(method: string, pattern: string): Error {
  return new Error(
    `Duplicate route ${method} ${pattern}: another route with the same method already matches the same paths`,
  );
}

function childFor<T>(
  node: Node<T>,
  segment: RouteSegment,
  unindexed: Set<Node<T>>,
): Node<T> {
  switch (segment.kind) {
    case "static": {
      node.statics ??= new Map();
      let child = node.statics.get(segment.value);
      if (child === undefined) {
        child = new Node();
        node.statics.set(segment.value, child);
        unindexed.add(node);
      }
      return child;
    }
    case "param":
      return node.param ??= new Node();
    case "catchAll":
      return node.catchAll ??= new Node();
    case "mixed": {
      const edge = mixedEdge<T>(segment.parts);
      node.mixed ??= [];
      const same = node.mixed.find((other) => other.key === edge.key);
      if (same !== undefined) return same.node;
      // Stable: after every edge with at least as many literal characters.
      let at = node.mixed.length;
      while (at > 0 && node.mixed[at - 1].literalLength < edge.literalLength) {
        at--;
      }
      node.mixed.splice(at, 0, edge);
      return edge.node;
    }
  }
}

function mixedEdge<T>(parts: Array<string | { param: string }>): MixedEdge<T> {
  const literals: string[] = [];
  let pending = "";
  for (const part of parts) {
    if (typeof part === "string") {
      pending += part;
    } else {
      literals.push(pending);
      pending = "";
    }
  }
  literals.push(pending);
  const middles = literals.slice(1, -1);
  if (literals.length < 2 || middles.includes("")) {
    throw new Error(
      `Invalid mixed segment ${
        formatRoutePattern([{ kind: "mixed", parts }])
      }: it needs params separated by text`,
    );
  }
  return {
    // NUL never occurs in a canonical path, so it cannot collide with text.
    key: literals.join("\0"),
    prefix: literals[0],
    middles,
    suffix: literals[literals.length - 1],
    literalLength: literals.reduce((sum, text) => sum + text.length, 0),
    node: new Node(),
  };
}

/** The node's route for `method`, fallbacks included. */
function serve<T>(node: Node<T>, method: string): Entry<T> | null {
  if (method === "GET") return node.forGet;
  if (method === "HEAD") return node.forHead;
  return serveSlowly(node, method);
}

/** {@linkcode serve} without the cached answers for GET and HEAD. */
function serveSlowly<T>(node: Node<T>, method: string): Entry<T> | null {
  const methods = node.methods;
  if (methods !== null) {
    const entry = methods.get(method) ??
      (method === "HEAD" ? methods.get("GET") : undefined);
    if (entry !== undefined) return entry;
  }
  return node.any;
}

/** The path ended at `node`: does it serve the method? */
function terminal<T>(
  node: Node<T>,
  method: string,
  scratch: Scratch,
): Entry<T> | null {
  const collect = scratch.collect;
  if (collect !== null) {
    // No node on the path has a "*" route here: it would have served.
    node.methods?.forEach((_, name) => collect.add(name));
    return null;
  }
  const entry = serve(node, method);
  if (entry === null && node.methods !== null) scratch.seen = true;
  return entry;
}

/**
 * Depth-first search in specificity order from the segment starting at
 * `start`; `end` excludes the tolerated trailing slash.
 */
function find<T>(
  node: Node<T>,
  path: string,
  start: number,
  end: number,
  method: string,
  scratch: Scratch,
): Entry<T> | null {
  let stop = path.indexOf("/", start);
  if (stop === -1 || stop > end) stop = end;
  if (stop === start) return null; // empty segment
  const last = stop === end;
  const next = stop + 1;
  let found: Entry<T> | null;

  if (node.statics !== null) {
    const child = staticChild(node, path, start, stop);
    if (child !== undefined) {
      found = last
        ? terminal(child, method, scratch)
        : find(child, path, next, end, method, scratch);
      if (found !== null) return found;
    }
  }

  const offsets = scratch.offsets;
  const depth = scratch.depth;
  if (node.mixed !== null) {
    for (const edge of node.mixed) {
      if (!matchMixed(edge, path, start, stop, scratch)) continue;
      found = last
        ? terminal(edge.node, method, scratch)
        : find(edge.node, path, next, end, method, scratch);
      if (found !== null) return found;
      scratch.depth = depth;
    }
  }

  if (node.param !== null) {
    offsets[depth] = start;
    offsets[depth + 1] = stop;
    scratch.depth = depth + 2;
    found = last
      ? terminal(node.param, method, scratch)
      : find(node.param, path, next, end, method, scratch);
    if (found !== null) return found;
    scratch.depth = depth;
  }

  if (node.catchAll !== null) {
    const gap = path.indexOf("//", start);
    if (gap === -1 || gap >= end) {
      offsets[depth] = start;
      offsets[depth + 1] = end;
      scratch.depth = depth + 2;
      found = terminal(node.catchAll, method, scratch);
      if (found !== null) return found;
      scratch.depth = depth;
    }
  }
  return null;
}

/** Rebuilds the matching index of a node's static children. */
function indexStatics<T>(node: Node<T>): void {
  const statics = node.statics!;
  if (statics.size <= FEW_STATICS) {
    node.staticTexts = [...statics.keys()];
    node.staticNodes = [...statics.values()];
    node.staticMask = -1;
    return;
  }
  // At most a quarter full: probes stay short.
  let size = 8;
  while (size < statics.size * 4) size *= 2;
  const texts: (string | null)[] = new Array(size).fill(null);
  const nodes: (Node<T> | null)[] = new Array(size).fill(null);
  for (const [text, child] of statics) {
    let slot = segmentHash(text, 0, text.length) & (size - 1);
    while (texts[slot] !== null) slot = (slot + 1) & (size - 1);
    texts[slot] = text;
    nodes[slot] = child;
  }
  node.staticTexts = texts;
  node.staticNodes = nodes;
  node.staticMask = size - 1;
}

/**
 * A hash of `text[start, stop)` from its length and up to four of its code
 * units (first, last, second to last, middle): cheap, and it tells apart the
 * usual sibling names (`route56`, `route57`). Whole-segment hashing in a JS
 * loop costs more than it saves; collisions only lengthen a probe.
 */
function segmentHash(text: string, start: number, stop: number): number {
  const length = stop - start;
  let hash = Math.imul(length, 0x9e3779b1);
  hash = Math.imul(hash ^ text.charCodeAt(start), 0x01000193);
  if (length > 1) {
    hash = Math.imul(hash ^ text.charCodeAt(stop - 1), 0x01000193);
    hash = Math.imul(hash ^ text.charCodeAt(stop - 2), 0x01000193);
    hash = Math.imul(hash ^ text.charCodeAt(start + (length >> 1)), 0x01000193);
  }
  return hash ^ (hash >>> 15);
}

function staticChild<T>(
  node: Node<T>,
  path: string,
  start: number,
  stop: number,
): Node<T> | undefined {
  const texts = node.staticTexts;
  const length = stop - start;
  const mask = node.staticMask;
  if (mask === -1) {
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (text.length === length && path.startsWith(text, start)) {
        return node.staticNodes[i]!;
      }
    }
    return undefined;
  }
  let slot = segmentHash(path, start, stop) & mask;
  while (true) {
    const text = texts[slot];
    if (text === null) return undefined;
    if (text.length === length && path.startsWith(text, start)) {
      return node.staticNodes[slot]!;
    }
    slot = (slot + 1) & mask;
  }
}

/** Matches one mixed segment `[start, stop)`, pushing its params' offsets. */
function matchMixed<T>(
  edge: MixedEdge<T>,
  path: string,
  start: number,
  stop: number,
  scratch: Scratch,
): boolean {
  let from = start + edge.prefix.length;
  const until = stop - edge.suffix.length;
  if (
    until <= from ||
    (edge.prefix !== "" && !path.startsWith(edge.prefix, start)) ||
    (edge.suffix !== "" && !path.startsWith(edge.suffix, until))
  ) {
    return false;
  }
  const offsets = scratch.offsets;
  let depth = scratch.depth;
  for (const text of edge.middles) {
    // Earliest occurrence: leaves the most room for the params after it.
    const at = path.indexOf(text, from + 1);
    if (at === -1 || at + text.length >= until) return false;
    offsets[depth++] = from;
    offsets[depth++] = at;
    from = at + text.length;
  }
  offsets[depth++] = from;
  offsets[depth++] = until;
  scratch.depth = depth;
  return true;
}

function buildParams<T>(
  entry: Entry<T>,
  path: string,
  offsets: number[],
): Record<string, string> {
  const params: Record<string, string> = {};
  const names = entry.names;
  for (let i = 0; i < names.length; i++) {
    let value = path.slice(offsets[2 * i], offsets[2 * i + 1]);
    if (value.indexOf("%") !== -1) value = decodeParam(value);
    if (entry.definesProto) {
      // Assigning `__proto__` would set the prototype (or be ignored).
      Object.defineProperty(params, names[i], {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      params[names[i]] = value;
    }
  }
  return params;
}
