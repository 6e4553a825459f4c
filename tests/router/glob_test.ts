import assert from "node:assert/strict";
import { compileRouteGlob } from "../../router/glob.ts";

Deno.test("a glob with a method matches only that method", () => {
  const glob = compileRouteGlob("GET /admin/**");
  assert.equal(glob("GET /admin"), true);
  assert.equal(glob("GET /admin/users"), true);
  assert.equal(glob("GET /admin/users/[id]/roles"), true);
  assert.equal(glob("POST /admin/users"), false);
  assert.equal(glob("HEAD /admin/users"), false);
  assert.equal(glob("* /admin/users"), false);
  assert.equal(glob("GET /administrators"), false);
  assert.equal(glob("GET /public/admin"), false);
});

Deno.test("the method prefix is case-insensitive", () => {
  assert.equal(compileRouteGlob("get /a")("GET /a"), true);
  assert.equal(compileRouteGlob("Delete /a")("DELETE /a"), true);
  assert.equal(compileRouteGlob("  PATCH    /a  ")("PATCH /a"), true);
});

Deno.test("a glob without method matches every method, * included", () => {
  const glob = compileRouteGlob("/collections/**");
  for (const method of ["GET", "POST", "PATCH", "DELETE", "*"]) {
    assert.equal(glob(`${method} /collections/[name]/[uuid]`), true, method);
  }
  assert.equal(glob("GET /collections"), true);
  assert.equal(glob("GET /collectionsX"), false);
  assert.equal(glob("GET /auth/login"), false);
  assert.equal(compileRouteGlob("* /a/*")("PUT /a/b"), true);
});

Deno.test("* matches inside one segment only", () => {
  const glob = compileRouteGlob("/posts/*");
  assert.equal(glob("GET /posts/[id]"), true);
  assert.equal(glob("GET /posts/new"), true);
  assert.equal(glob("GET /posts"), false);
  assert.equal(glob("GET /posts/[id]/comments"), false);
  const partial = compileRouteGlob("/feed.*");
  assert.equal(partial("GET /feed.[format]"), true);
  assert.equal(partial("GET /feed."), true);
  assert.equal(partial("GET /feed/rss"), false);
  assert.equal(compileRouteGlob("/a*c")("GET /abbc"), true);
  assert.equal(compileRouteGlob("/a*c")("GET /ab/c"), false);
});

Deno.test("** matches any number of segments, zero included", () => {
  const glob = compileRouteGlob("/a/**/z");
  assert.equal(glob("GET /a/z"), true);
  assert.equal(glob("GET /a/b/z"), true);
  assert.equal(glob("GET /a/b/c/z"), true);
  assert.equal(glob("GET /a/b/c"), false);
  const all = compileRouteGlob("/**");
  assert.equal(all("GET /"), true);
  assert.equal(all("* /files/[...path]"), true);
  assert.equal(compileRouteGlob("/")("GET /"), true);
  assert.equal(compileRouteGlob("/")("GET /a"), false);
});

Deno.test("globs match patterns literally, brackets included", () => {
  const glob = compileRouteGlob("DELETE /collections/[name]/[uuid]");
  assert.equal(glob("DELETE /collections/[name]/[uuid]"), true);
  assert.equal(glob("DELETE /collections/posts/1"), false);
  assert.equal(compileRouteGlob("/a.b")("GET /axb"), false);
  assert.equal(compileRouteGlob("/a+(b)")("GET /a+(b)"), true);
  assert.equal(
    compileRouteGlob("/files/[...path]")("GET /files/[...path]"),
    true,
  );
  // A trailing slash in the glob is ignored.
  assert.equal(compileRouteGlob("/admin/")("GET /admin"), true);
});

Deno.test("a route id without a space matches nothing", () => {
  assert.equal(compileRouteGlob("/**")("/a"), false);
});

Deno.test("empty or malformed globs throw", () => {
  const cases: Array<[string, RegExp]> = [
    ["", /the glob is empty/],
    ["   ", /the glob is empty/],
    ["GET", /must start with \//],
    ["admin/**", /must start with \//],
    ["GET admin", /must start with \//],
    ["GET /a /b", /optional method and a path/],
    ["G3T /a", /invalid method "G3T"/],
    ["/a//b", /empty path segment/],
    ["/a/**b", /"\*\*" must be a whole segment/],
    ["/a/***", /"\*\*" must be a whole segment/],
  ];
  for (const [glob, message] of cases) {
    assert.throws(
      () => compileRouteGlob(glob),
      (error: Error) => {
        assert.ok(
          error.message.startsWith(`Invalid route glob "${glob}": `),
          error.message,
        );
        assert.match(error.message, message);
        return true;
      },
      glob,
    );
  }
});
