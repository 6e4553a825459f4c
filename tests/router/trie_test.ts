import assert from "node:assert/strict";
import { parseRouteFile } from "../../router/route_path.ts";
import {
  type RouteMatch,
  type RouteMiss,
  RouteTrie,
} from "../../router/trie.ts";

/** A trie whose values are the route ids, so a test reads which route won. */
function trieOf(...ids: string[]): RouteTrie<string> {
  const trie = new RouteTrie<string>();
  for (const id of ids) {
    const [method, pattern] = id.split(" ");
    trie.add(method, pattern, id);
  }
  return trie;
}

function matched(
  result: RouteMatch<string> | RouteMiss | null,
): RouteMatch<string> {
  assert.ok(result !== null && "value" in result, JSON.stringify(result));
  return result;
}

function winner(trie: RouteTrie<string>, method: string, path: string) {
  const result = trie.match(method, path);
  return result !== null && "value" in result ? result.value : result;
}

Deno.test("static, param and catch-all routes match with their params", () => {
  const trie = trieOf(
    "GET /posts",
    "GET /posts/[id]",
    "GET /posts/[id]/comments/[comment]",
    "GET /files/[...path]",
  );
  assert.deepEqual(trie.match("GET", "/posts"), {
    value: "GET /posts",
    params: {},
  });
  assert.deepEqual(trie.match("GET", "/posts/42"), {
    value: "GET /posts/[id]",
    params: { id: "42" },
  });
  assert.deepEqual(trie.match("GET", "/posts/42/comments/7"), {
    value: "GET /posts/[id]/comments/[comment]",
    params: { id: "42", comment: "7" },
  });
  assert.deepEqual(trie.match("GET", "/files/a/b/c.txt"), {
    value: "GET /files/[...path]",
    params: { path: "a/b/c.txt" },
  });
  assert.equal(trie.match("GET", "/nope"), null);
  assert.equal(trie.match("GET", "/posts/42/comments"), null);
});

Deno.test("the root route matches /", () => {
  const trie = trieOf("GET /", "GET /a");
  assert.equal(winner(trie, "GET", "/"), "GET /");
  assert.equal(winner(trie, "GET", "/a"), "GET /a");
  assert.equal(trie.match("GET", "//"), null);
  assert.equal(trieOf("GET /a").match("GET", "/"), null);
  assert.equal(trie.match("GET", ""), null);
  assert.equal(trie.match("GET", "a"), null);
});

Deno.test("specificity: static > mixed > param > catch-all", () => {
  const trie = trieOf(
    "GET /x/feed.json",
    "GET /x/feed.[format]",
    "GET /x/[name]",
    "GET /x/[...rest]",
  );
  assert.equal(winner(trie, "GET", "/x/feed.json"), "GET /x/feed.json");
  assert.equal(winner(trie, "GET", "/x/feed.xml"), "GET /x/feed.[format]");
  assert.equal(winner(trie, "GET", "/x/other"), "GET /x/[name]");
  assert.equal(winner(trie, "GET", "/x/feed."), "GET /x/[name]");
  assert.equal(winner(trie, "GET", "/x/a/b"), "GET /x/[...rest]");
  // Insertion order does not matter.
  const reversed = trieOf(
    "GET /x/[...rest]",
    "GET /x/[name]",
    "GET /x/feed.[format]",
    "GET /x/feed.json",
  );
  for (const path of ["/x/feed.json", "/x/feed.xml", "/x/other", "/x/a/b"]) {
    assert.equal(winner(reversed, "GET", path), winner(trie, "GET", path));
  }
});

Deno.test("the leftmost segment decides", () => {
  const trie = trieOf("GET /a/[x]/c", "GET /[y]/b/c");
  // `/a/...` is static at the first segment, so it wins over `/[y]/b/c`.
  assert.deepEqual(matched(trie.match("GET", "/a/b/c")), {
    value: "GET /a/[x]/c",
    params: { x: "b" },
  });
});

Deno.test("specificity backtracks when a branch fails deeper", () => {
  const trie = trieOf("GET /a/[x]/c", "GET /[y]/b/d", "GET /[...all]");
  assert.deepEqual(matched(trie.match("GET", "/a/b/d")), {
    value: "GET /[y]/b/d",
    params: { y: "a" },
  });
  assert.deepEqual(matched(trie.match("GET", "/a/z/e")), {
    value: "GET /[...all]",
    params: { all: "a/z/e" },
  });
  // A static first segment wins even when the route ends in a catch-all.
  const rest = trieOf("GET /[y]/b/d", "GET /a/[...rest]");
  assert.deepEqual(matched(rest.match("GET", "/a/b/d")), {
    value: "GET /a/[...rest]",
    params: { rest: "b/d" },
  });
  // Params captured on an abandoned branch do not leak into the result.
  const deep = trieOf("GET /[a]/[b]/x", "GET /[c]/y/z");
  assert.deepEqual(matched(deep.match("GET", "/1/y/z")), {
    value: "GET /[c]/y/z",
    params: { c: "1" },
  });
});

Deno.test("two matching mixed segments: more literal text wins", () => {
  const trie = trieOf(
    "GET /[name].[ext]",
    "GET /[name].tar.[ext]",
    "GET /v[major].[minor]",
  );
  assert.deepEqual(matched(trie.match("GET", "/pkg.tar.gz")), {
    value: "GET /[name].tar.[ext]",
    params: { name: "pkg", ext: "gz" },
  });
  assert.deepEqual(matched(trie.match("GET", "/pkg.zip")), {
    value: "GET /[name].[ext]",
    params: { name: "pkg", ext: "zip" },
  });
  // "v" + "." beats "." alone.
  assert.equal(winner(trie, "GET", "/v1.2"), "GET /v[major].[minor]");
});

Deno.test("two matching mixed segments with equal text: first added wins", () => {
  const first = trieOf("GET /[a]-x.[b]", "GET /[c].x-[d]");
  assert.equal(winner(first, "GET", "/1-x.x-2"), "GET /[a]-x.[b]");
  const second = trieOf("GET /[c].x-[d]", "GET /[a]-x.[b]");
  assert.equal(winner(second, "GET", "/1-x.x-2"), "GET /[c].x-[d]");
});

Deno.test("mixed segments split text as documented", () => {
  const trie = trieOf(
    "GET /r/[a]-[b]",
    "GET /s/[a].[b].json",
    "GET /t/pre-[x]",
    "GET /u/[id].json",
  );
  assert.deepEqual(matched(trie.match("GET", "/r/x-y-z")).params, {
    a: "x",
    b: "y-z",
  });
  assert.deepEqual(matched(trie.match("GET", "/s/x.y.z.json")).params, {
    a: "x",
    b: "y.z",
  });
  assert.deepEqual(matched(trie.match("GET", "/t/pre-1")).params, { x: "1" });
  assert.deepEqual(matched(trie.match("GET", "/u/42.json")).params, {
    id: "42",
  });
  // Every param binds at least one character.
  assert.equal(trie.match("GET", "/r/-y"), null);
  assert.equal(trie.match("GET", "/r/x-"), null);
  assert.equal(trie.match("GET", "/r/xy"), null);
  assert.equal(trie.match("GET", "/s/x..json"), null);
  assert.equal(trie.match("GET", "/t/pre-"), null);
  assert.equal(trie.match("GET", "/u/.json"), null);
  assert.equal(trie.match("GET", "/u/42.jso"), null);
});

Deno.test("the right method beats a more specific route", () => {
  const trie = trieOf("GET /posts/[id]", "POST /posts/new");
  assert.deepEqual(matched(trie.match("GET", "/posts/new")), {
    value: "GET /posts/[id]",
    params: { id: "new" },
  });
  assert.equal(winner(trie, "POST", "/posts/new"), "POST /posts/new");
  const catchAll = trieOf("GET /files/[...path]", "DELETE /files/[id]");
  assert.equal(winner(catchAll, "GET", "/files/a"), "GET /files/[...path]");
});

Deno.test("an explicit method beats * on the same node; * serves the rest", () => {
  const trie = trieOf("GET /posts", "* /posts");
  assert.equal(winner(trie, "GET", "/posts"), "GET /posts");
  assert.equal(winner(trie, "POST", "/posts"), "* /posts");
  assert.equal(winner(trie, "DELETE", "/posts"), "* /posts");
  assert.equal(winner(trie, "OPTIONS", "/posts"), "* /posts");
  assert.equal(winner(trie, "HEAD", "/posts"), "GET /posts");
  // A more specific * route serves before a less specific explicit method.
  const nested = trieOf("GET /[x]", "* /a");
  assert.equal(winner(nested, "GET", "/a"), "* /a");
});

Deno.test("HEAD is served by HEAD, else GET, else *", () => {
  assert.equal(
    winner(trieOf("GET /a", "HEAD /a", "* /a"), "HEAD", "/a"),
    "HEAD /a",
  );
  assert.equal(winner(trieOf("GET /a", "* /a"), "HEAD", "/a"), "GET /a");
  assert.equal(winner(trieOf("POST /a", "* /a"), "HEAD", "/a"), "* /a");
  // A less specific GET serves HEAD before a more specific POST-only node.
  assert.equal(
    winner(trieOf("POST /a", "GET /[x]"), "HEAD", "/a"),
    "GET /[x]",
  );
  assert.deepEqual(trieOf("POST /a").match("HEAD", "/a"), {
    allowed: ["OPTIONS", "POST"],
  });
});

Deno.test("OPTIONS is served only by OPTIONS or * routes", () => {
  assert.equal(
    winner(trieOf("GET /a", "OPTIONS /a"), "OPTIONS", "/a"),
    "OPTIONS /a",
  );
  assert.equal(winner(trieOf("GET /a", "* /a"), "OPTIONS", "/a"), "* /a");
  assert.deepEqual(trieOf("GET /a").match("OPTIONS", "/a"), {
    allowed: ["GET", "HEAD", "OPTIONS"],
  });
});

Deno.test("a miss lists every method on the path, sorted", () => {
  const trie = trieOf(
    "PUT /posts/[id]",
    "GET /posts/[id]",
    "DELETE /posts/[id]",
    "PATCH /posts/new",
    "POST /[...all]",
    "GET /other",
  );
  assert.deepEqual(trie.match("TRACE", "/posts/new"), {
    allowed: ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"],
  });
  // Without GET there is no HEAD; OPTIONS is always there.
  assert.deepEqual(trieOf("POST /a", "PUT /[x]").match("GET", "/a"), {
    allowed: ["OPTIONS", "POST", "PUT"],
  });
  // An explicit HEAD shows once.
  assert.deepEqual(
    trieOf("GET /a", "HEAD /a").match("POST", "/a"),
    { allowed: ["GET", "HEAD", "OPTIONS"] },
  );
  assert.deepEqual(trieOf("GET /").match("POST", "/"), {
    allowed: ["GET", "HEAD", "OPTIONS"],
  });
  assert.equal(trieOf("GET /other").match("PUT", "/other/x"), null);
});

Deno.test("a * route never produces a miss", () => {
  const trie = trieOf("GET /a/b", "* /a/[x]");
  assert.equal(winner(trie, "POST", "/a/b"), "* /a/[x]");
  assert.equal(winner(trie, "PURGE", "/a/b"), "* /a/[x]");
});

Deno.test("one trailing slash is tolerated, not two, not empty segments", () => {
  const trie = trieOf(
    "GET /posts",
    "GET /posts/[id]",
    "GET /files/[...path]",
    "GET /[a]-[b]",
  );
  assert.equal(winner(trie, "GET", "/posts/"), "GET /posts");
  assert.equal(winner(trie, "GET", "/posts/1/"), "GET /posts/[id]");
  assert.deepEqual(matched(trie.match("GET", "/files/a/b/")).params, {
    path: "a/b",
  });
  assert.equal(winner(trie, "GET", "/x-y/"), "GET /[a]-[b]");
  for (
    const path of [
      "/posts//",
      "/posts//1",
      "//posts",
      "/posts/1//",
      "/files/a//b",
      "/files//a",
      "/files/a//",
    ]
  ) {
    assert.equal(trie.match("GET", path), null, path);
  }
});

Deno.test("a catch-all needs at least one segment", () => {
  const trie = trieOf("GET /files/[...path]");
  assert.equal(trie.match("GET", "/files"), null);
  assert.equal(trie.match("GET", "/files/"), null);
  assert.deepEqual(matched(trie.match("GET", "/files/a")).params, {
    path: "a",
  });
  const withIndex = trieOf("GET /files/[...path]", "GET /files");
  assert.equal(winner(withIndex, "GET", "/files/"), "GET /files");
  const root = trieOf("GET /[...all]");
  assert.equal(root.match("GET", "/"), null);
  assert.deepEqual(matched(root.match("GET", "/a/b")).params, { all: "a/b" });
});

Deno.test("params are URI-decoded", () => {
  const trie = trieOf("GET /p/[id]", "GET /f/[...path]", "GET /m/[a]-[b]");
  assert.deepEqual(
    matched(trie.match("GET", "/p/caf%C3%A9%20au%20lait"))
      .params,
    { id: "caf\u00e9 au lait" },
  );
  assert.deepEqual(matched(trie.match("GET", "/p/%25")).params, { id: "%" });
  assert.deepEqual(matched(trie.match("GET", "/f/a%20b/c%3Fd")).params, {
    path: "a b/c?d",
  });
  assert.deepEqual(matched(trie.match("GET", "/m/%C3%A9-%2D")).params, {
    a: "\u00e9",
    b: "-",
  });
  assert.deepEqual(matched(trie.match("GET", "/p/a+b")).params, { id: "a+b" });
});

Deno.test("a malformed escape stays raw text, valid ones still decode", () => {
  const trie = trieOf("GET /p/[id]", "GET /f/[...path]");
  assert.deepEqual(matched(trie.match("GET", "/p/%E0%A4%A")).params, {
    id: "%E0%A4%A",
  });
  assert.deepEqual(matched(trie.match("GET", "/p/caf%C3%A9%E0%A4")).params, {
    id: "caf\u00e9%E0%A4",
  });
  assert.deepEqual(matched(trie.match("GET", "/p/%FF%20%C3")).params, {
    id: "%FF %C3",
  });
  // Overlong and surrogate encodings are not valid UTF-8 either.
  assert.deepEqual(matched(trie.match("GET", "/p/%C0%AF%ED%A0%80")).params, {
    id: "%C0%AF%ED%A0%80",
  });
  assert.deepEqual(matched(trie.match("GET", "/f/%E0%A4%A8/%E0%A4")).params, {
    path: "\u0928/%E0%A4",
  });
  assert.deepEqual(matched(trie.match("GET", "/p/%zz%41")).params, {
    id: "%zzA",
  });
});

Deno.test("canonical static segments match canonical request paths", () => {
  const trie = new RouteTrie<string>();
  const file = parseRouteFile("caf\u00e9/[id].get.ts");
  trie.add(file.method, file.segments, "cafe");
  const path = new URL("http://x/caf\u00e9/1").pathname;
  assert.equal(path, "/caf%C3%A9/1");
  assert.equal(winner(trie, "GET", path), "cafe");
});

Deno.test("params named __proto__ or constructor pollute nothing", () => {
  const trie = trieOf(
    "GET /a/[__proto__]",
    "GET /b/[constructor]/[hasOwnProperty]",
    "GET /c/[...__proto__]",
  );
  const a = matched(trie.match("GET", "/a/x")).params;
  assert.equal(Object.getPrototypeOf(a), Object.prototype);
  assert.ok(Object.hasOwn(a, "__proto__"));
  assert.equal(a["__proto__"], "x");
  assert.deepEqual(Object.keys(a), ["__proto__"]);
  assert.equal(JSON.stringify(a), '{"__proto__":"x"}');
  const b = matched(trie.match("GET", "/b/y/z")).params;
  assert.equal(b.constructor, "y");
  assert.equal(b.hasOwnProperty, "z");
  const c = matched(trie.match("GET", "/c/p/q")).params;
  assert.equal(c["__proto__"], "p/q");
  assert.equal(Object.getPrototypeOf(c), Object.prototype);
  // Nothing leaked to the shared prototype.
  const plain: Record<string, unknown> = {};
  assert.equal(plain.x, undefined);
  assert.equal(typeof plain.constructor, "function");
  assert.equal(Object.hasOwn(Object.prototype, "p/q"), false);
  assert.equal(Object.hasOwn(Object.prototype, "x"), false);
});

Deno.test("each route keeps its own param names on a shared node", () => {
  const trie = trieOf("GET /u/[id]", "POST /u/[uid]", "GET /u/[user]/posts");
  assert.deepEqual(matched(trie.match("GET", "/u/1")).params, { id: "1" });
  assert.deepEqual(matched(trie.match("POST", "/u/1")).params, { uid: "1" });
  assert.deepEqual(matched(trie.match("GET", "/u/1/posts")).params, {
    user: "1",
  });
});

Deno.test("match results are fresh objects", () => {
  const trie = trieOf("GET /a", "GET /b/[x]");
  const first = matched(trie.match("GET", "/a"));
  first.params.injected = "1";
  assert.deepEqual(matched(trie.match("GET", "/a")).params, {});
  const one = matched(trie.match("GET", "/b/1"));
  const two = matched(trie.match("GET", "/b/2"));
  assert.deepEqual(one.params, { x: "1" });
  assert.deepEqual(two.params, { x: "2" });
});

Deno.test("add accepts segments, lower-case methods and rejects duplicates", () => {
  const trie = new RouteTrie<string>();
  const file = parseRouteFile("posts/[id].get.ts");
  trie.add(file.method, file.segments, "from segments");
  trie.add("post", "/posts/[id]", "lower-case");
  assert.equal(winner(trie, "GET", "/posts/1"), "from segments");
  assert.equal(winner(trie, "POST", "/posts/1"), "lower-case");
  assert.throws(
    () => trie.add("GET", "/posts/[slug]", "again"),
    /Duplicate route GET \/posts\/\[slug\]/,
  );
  trie.add("*", "/posts/[id]", "any");
  assert.throws(() => trie.add("*", "/posts/[x]", "any"), /Duplicate route \*/);
  assert.throws(() => trie.add("", "/x", "no method"), /Invalid method/);
  assert.throws(
    () =>
      trie.add("GET", [
        { kind: "catchAll", name: "a" },
        { kind: "static", value: "b" },
      ], "bad"),
    /catch-all must be the last segment/,
  );
  assert.throws(
    () =>
      trie.add("GET", [
        { kind: "param", name: "a" },
        { kind: "param", name: "a" },
      ], "bad"),
    /param name is used twice/,
  );
  assert.throws(
    () => trie.add("GET", "/files/[...a]/b", "bad"),
    /Invalid route pattern/,
  );
});

Deno.test("routes added after a match are found", () => {
  const trie = trieOf("GET /a");
  assert.equal(trie.match("GET", "/b"), null);
  assert.deepEqual(trie.match("POST", "/a"), {
    allowed: ["GET", "HEAD", "OPTIONS"],
  });
  trie.add("GET", "/b", "GET /b");
  trie.add("*", "/a", "* /a");
  assert.equal(winner(trie, "GET", "/b"), "GET /b");
  assert.equal(winner(trie, "POST", "/a"), "* /a");
  assert.equal(winner(trie, "GET", "/a"), "GET /a");
});

Deno.test("all-static paths follow the same method rules", () => {
  const trie = trieOf(
    "GET /s/a",
    "HEAD /s/h",
    "GET /s/h",
    "POST /s/p",
    "* /s/p",
    "OPTIONS /s/o",
  );
  assert.equal(winner(trie, "HEAD", "/s/a"), "GET /s/a");
  assert.equal(winner(trie, "HEAD", "/s/h"), "HEAD /s/h");
  assert.equal(winner(trie, "HEAD", "/s/p"), "* /s/p");
  assert.equal(winner(trie, "PURGE", "/s/p"), "* /s/p");
  assert.equal(winner(trie, "POST", "/s/p"), "POST /s/p");
  assert.equal(winner(trie, "OPTIONS", "/s/o"), "OPTIONS /s/o");
  assert.deepEqual(trie.match("PURGE", "/s/o"), { allowed: ["OPTIONS"] });
  assert.deepEqual(trie.match("OPTIONS", "/s/a"), {
    allowed: ["GET", "HEAD", "OPTIONS"],
  });
});

Deno.test("static children are found among few and among many", () => {
  const few = trieOf("GET /a/x", "GET /a/xy", "GET /a/[p]");
  assert.equal(winner(few, "GET", "/a/xy/"), "GET /a/xy");
  assert.equal(winner(few, "GET", "/a/x"), "GET /a/x");
  assert.equal(winner(few, "GET", "/a/xyz"), "GET /a/[p]");
  const ids: string[] = [];
  for (let i = 0; i < 50; i++) ids.push(`GET /m/s${i}/[id]`);
  const many = trieOf(...ids);
  for (let i = 0; i < 50; i++) {
    assert.deepEqual(matched(many.match("GET", `/m/s${i}/${i}`)), {
      value: `GET /m/s${i}/[id]`,
      params: { id: String(i) },
    });
  }
  assert.equal(many.match("GET", "/m/s50/1"), null);
});

Deno.test("static children added after a match are indexed before the next one", () => {
  // Matching indexes a node's static children lazily: the index built for the first match
  // must be rebuilt once more children arrive, among few and past the hashed threshold.
  const trie = trieOf("GET /n/c0/[id]");
  assert.equal(winner(trie, "GET", "/n/c0/1"), "GET /n/c0/[id]");
  for (let i = 1; i < 40; i++) {
    trie.add("GET", `/n/c${i}/[id]`, `GET /n/c${i}/[id]`);
    for (const j of [0, i - 1, i]) {
      assert.equal(winner(trie, "GET", `/n/c${j}/7`), `GET /n/c${j}/[id]`);
    }
  }
  assert.equal(trie.match("GET", "/n/c40/7"), null);
  // An add that fails half-way leaves the table answering as before.
  assert.throws(
    () =>
      trie.add("GET", [
        { kind: "static", value: "n" },
        { kind: "static", value: "fresh" },
        { kind: "mixed", parts: [{ param: "a" }, { param: "b" }] },
      ], "x"),
    /Invalid mixed segment/,
  );
  assert.equal(trie.match("GET", "/n/fresh/ab"), null);
  trie.add("GET", "/n/fresh", "GET /n/fresh");
  assert.equal(winner(trie, "GET", "/n/fresh"), "GET /n/fresh");
  assert.equal(winner(trie, "GET", "/n/c39/7"), "GET /n/c39/[id]");
});

Deno.test("freeze locks the table", () => {
  const trie = trieOf("GET /a");
  trie.freeze();
  assert.throws(() => trie.add("GET", "/b", "b"), /frozen/);
  assert.equal(winner(trie, "GET", "/a"), "GET /a");
});

Deno.test("a larger table answers like a reference scan", () => {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    ids.push(`GET /s/r${i}`, `GET /u${i}/[id]`, `* /f${i}/[...path]`);
    ids.push(`POST /u${i}/[id]/edit`, `GET /u${i}/[id].json`);
  }
  const trie = trieOf(...ids);
  for (let i = 0; i < 20; i++) {
    assert.equal(winner(trie, "GET", `/s/r${i}`), `GET /s/r${i}`);
    assert.deepEqual(matched(trie.match("GET", `/u${i}/7.json`)), {
      value: `GET /u${i}/[id].json`,
      params: { id: "7" },
    });
    assert.deepEqual(matched(trie.match("GET", `/u${i}/7`)).params, {
      id: "7",
    });
    assert.deepEqual(trie.match("GET", `/u${i}/7/edit`), {
      allowed: ["OPTIONS", "POST"],
    });
    assert.deepEqual(matched(trie.match("PUT", `/f${i}/x/y`)).params, {
      path: "x/y",
    });
  }
  assert.equal(trie.match("GET", "/s/r20"), null);
});
