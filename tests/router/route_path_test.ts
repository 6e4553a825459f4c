import assert from "node:assert/strict";
import { canonicalizePath } from "../../router/canonical_path.ts";
import {
  formatRoutePattern,
  paramNames,
  parseRouteFile,
  parseRoutePattern,
  routeId,
} from "../../router/route_path.ts";

Deno.test("parseRouteFile strips every supported extension", () => {
  for (const ext of [".ts", ".tsx", ".js", ".mjs", ".mts"]) {
    const parsed = parseRouteFile(`posts/[id]${ext}`);
    assert.equal(parsed.method, "*");
    assert.equal(parsed.pattern, "/posts/[id]");
  }
});

Deno.test("parseRouteFile rejects an unsupported extension", () => {
  assert.throws(
    () => parseRouteFile("posts/list.json"),
    /Invalid route file "posts\/list\.json": a route file must end in/,
  );
  assert.throws(() => parseRouteFile("posts/list"), /posts\/list/);
});

Deno.test("parseRouteFile reads the method suffix, any case", () => {
  const cases: Array<[string, string, string]> = [
    ["posts/[id].get.ts", "GET", "/posts/[id]"],
    ["posts.post.ts", "POST", "/posts"],
    ["posts/[id].PUT.ts", "PUT", "/posts/[id]"],
    ["posts/[id].Patch.ts", "PATCH", "/posts/[id]"],
    ["posts/[id].delete.js", "DELETE", "/posts/[id]"],
    ["ping.head.mjs", "HEAD", "/ping"],
    ["ping.options.mts", "OPTIONS", "/ping"],
    ["files/[...path].get.tsx", "GET", "/files/[...path]"],
  ];
  for (const [file, method, pattern] of cases) {
    const parsed = parseRouteFile(file);
    assert.equal(parsed.method, method, file);
    assert.equal(parsed.pattern, pattern, file);
  }
});

Deno.test("parseRouteFile treats an unknown suffix as part of the name", () => {
  const parsed = parseRouteFile("feed.rss.ts");
  assert.equal(parsed.method, "*");
  assert.equal(parsed.pattern, "/feed.rss");
  assert.deepEqual(parsed.segments, [{ kind: "static", value: "feed.rss" }]);
  // Only the part right before the extension is a suffix.
  assert.equal(parseRouteFile("a.get.json.ts").pattern, "/a.get.json");
  // A directory named like a method is a segment.
  assert.equal(parseRouteFile("get/list.ts").pattern, "/get/list");
  assert.equal(parseRouteFile("get.ts").method, "*");
});

Deno.test("parseRouteFile collapses a trailing index into its parent", () => {
  assert.deepEqual(parseRouteFile("index.ts"), {
    method: "*",
    pattern: "/",
    segments: [],
  });
  assert.equal(parseRouteFile("index.get.ts").pattern, "/");
  assert.equal(parseRouteFile("index.get.ts").method, "GET");
  const authors = parseRouteFile("authors/index.GET.ts");
  assert.equal(authors.method, "GET");
  assert.equal(authors.pattern, "/authors");
  // Only a trailing one.
  assert.equal(parseRouteFile("index/list.ts").pattern, "/index/list");
  assert.equal(parseRouteFile("a/index/index.ts").pattern, "/a/index");
  assert.equal(parseRouteFile("index.json.ts").pattern, "/index.json");
  assert.equal(parseRouteFile("[index].ts").pattern, "/[index]");
});

Deno.test("parseRouteFile accepts a leading ./ or /", () => {
  assert.equal(parseRouteFile("./posts.get.ts").pattern, "/posts");
  assert.equal(parseRouteFile("/posts.get.ts").pattern, "/posts");
});

Deno.test("parseRouteFile builds every kind of segment", () => {
  assert.deepEqual(parseRouteFile("posts/[id].get.ts").segments, [
    { kind: "static", value: "posts" },
    { kind: "param", name: "id" },
  ]);
  assert.deepEqual(parseRouteFile("files/[...path].ts").segments, [
    { kind: "static", value: "files" },
    { kind: "catchAll", name: "path" },
  ]);
  assert.deepEqual(parseRouteFile("feed.[format].ts").segments, [
    { kind: "mixed", parts: ["feed.", { param: "format" }] },
  ]);
  assert.deepEqual(parseRouteFile("[id].json.ts").segments, [
    { kind: "mixed", parts: [{ param: "id" }, ".json"] },
  ]);
  assert.deepEqual(parseRouteFile("range/[a]-[b].ts").segments, [
    { kind: "static", value: "range" },
    { kind: "mixed", parts: [{ param: "a" }, "-", { param: "b" }] },
  ]);
  assert.equal(parseRouteFile("[id].json.ts").pattern, "/[id].json");
  assert.equal(parseRouteFile("range/[a]-[b].ts").pattern, "/range/[a]-[b]");
});

Deno.test("parseRouteFile stores static text in canonical form", () => {
  const cafe = parseRouteFile("caf\u00e9.ts");
  assert.equal(cafe.pattern, "/caf%C3%A9");
  assert.deepEqual(cafe.segments, [{ kind: "static", value: "caf%C3%A9" }]);
  assert.equal(
    canonicalizePath(new URL("http://x/caf\u00e9").pathname),
    "/caf%C3%A9",
  );
  assert.equal(parseRouteFile("a b/100%.ts").pattern, "/a%20b/100%25");
  assert.deepEqual(parseRouteFile("caf\u00e9.[fmt].ts").segments, [
    { kind: "mixed", parts: ["caf%C3%A9.", { param: "fmt" }] },
  ]);
});

Deno.test("static file text equals the canonical request path of it", () => {
  // Every printable ASCII character but / and \ (and the brackets, which are
  // syntax), plus non-ASCII text: the file matches the request for its name.
  const texts: string[] = [];
  for (let code = 0x20; code < 0x7f; code++) {
    const char = String.fromCharCode(code);
    if (!"/\\[]".includes(char)) texts.push(`a${char}b`);
  }
  texts.push("\u00e9t\u00e9", "\u{1f600}", "\u65e5\u672c", "a\u007fb");
  for (const text of texts) {
    const parsed = parseRouteFile(`${text}.ts`);
    // A browser sends the name with its % and ? and # percent-encoded.
    const requested = "http://x/" +
      text.replace(/[%?#]/g, (char) => encodeURIComponent(char));
    const canonical = canonicalizePath(new URL(requested).pathname);
    assert.equal(parsed.pattern, canonical, JSON.stringify(text));
  }
});

Deno.test("parseRouteFile rejects invalid names, naming the file", () => {
  const cases: Array<[string, RegExp]> = [
    [
      "files/[...path]/edit.ts",
      /catch-all segment "\[\.\.\.path\]" must be the last/,
    ],
    ["posts/[].ts", /empty param name/],
    ["[...].ts", /empty param name/],
    ["posts/[id]/comments/[id].ts", /param name "id" is used twice/],
    ["posts/[a]-[a].ts", /param name "a" is used twice/],
    ["posts/[id.ts", /unbalanced "\["/],
    ["posts/id].ts", /unbalanced "\]"/],
    ["posts/[[id]].ts", /unbalanced "\["/],
    [
      "files/a-[...path].ts",
      /catch-all "\[\.\.\.path\]" must be a whole segment/,
    ],
    ["files/[...path].zip.ts", /must be a whole segment/],
    ["range/[a][b].ts", /need text between them/],
    ["posts//list.ts", /empty path segment/],
    ["posts/.get.ts", /empty path segment/],
    ["[a.b].ts", /invalid param name "a\.b"/],
    ["[....x].ts", /invalid param name "\.x"/],
    ["a\\b.ts", /backslash/],
  ];
  for (const [file, message] of cases) {
    assert.throws(
      () => parseRouteFile(file),
      (error: Error) => {
        assert.ok(
          error.message.startsWith(`Invalid route file "${file}": `),
          error.message,
        );
        assert.match(error.message, message);
        return true;
      },
      file,
    );
  }
});

Deno.test("parseRoutePattern reads pattern strings", () => {
  assert.deepEqual(parseRoutePattern("/"), []);
  assert.deepEqual(parseRoutePattern("/posts/[id]/"), [
    { kind: "static", value: "posts" },
    { kind: "param", name: "id" },
  ]);
  assert.deepEqual(parseRoutePattern("/files/[...rest]"), [
    { kind: "static", value: "files" },
    { kind: "catchAll", name: "rest" },
  ]);
  // URL text: % starts an escape, which is canonicalised.
  assert.deepEqual(parseRoutePattern("/caf%c3%a9/%70"), [
    { kind: "static", value: "caf%C3%A9" },
    { kind: "static", value: "p" },
  ]);
  assert.deepEqual(parseRoutePattern("/caf\u00e9"), [
    { kind: "static", value: "caf%C3%A9" },
  ]);
  // A parsed file's pattern reads back to the same segments.
  for (const file of ["caf\u00e9/[id].json.ts", "a b/[...p].ts", "100%.ts"]) {
    const parsed = parseRouteFile(file);
    assert.deepEqual(parseRoutePattern(parsed.pattern), parsed.segments);
  }
  assert.throws(() => parseRoutePattern("posts"), /must start with \//);
  assert.throws(() => parseRoutePattern("/a%2Fb"), /encoded slash/);
  assert.throws(() => parseRoutePattern("/a//b"), /empty path segment/);
  assert.throws(
    () => parseRoutePattern("/[...a]/b"),
    /Invalid route pattern "\/\[\.\.\.a\]\/b": catch-all/,
  );
});

Deno.test("formatRoutePattern, routeId and paramNames", () => {
  assert.equal(formatRoutePattern([]), "/");
  assert.equal(
    formatRoutePattern([
      { kind: "mixed", parts: [{ param: "a" }, "-", { param: "b" }] },
      { kind: "catchAll", name: "rest" },
    ]),
    "/[a]-[b]/[...rest]",
  );
  assert.equal(routeId("GET", "/posts/[id]"), "GET /posts/[id]");
  assert.equal(routeId("*", "/posts/[id]"), "* /posts/[id]");
  assert.deepEqual(
    parseRouteFile("[org]/[a]-[b]/[...rest].ts").segments.flatMap(paramNames),
    ["org", "a", "b", "rest"],
  );
});
