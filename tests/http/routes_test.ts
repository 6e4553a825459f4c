// Route conventions over HTTP (SPEC.md "Route conventions"), against tests/fixtures/http_app.
import assert from "node:assert/strict";
import { bootFixture, call, json } from "../_helpers/fixture_app.ts";

const app = await bootFixture("http_app");
// Close after the last test of this file.
globalThis.addEventListener("unload", () => app.close());

async function route(path: string, init?: RequestInit) {
  const response = await call(app, path, init);
  return {
    status: response.status,
    headers: response.headers,
    body: await json(response),
  };
}

Deno.test("a suffixless index file answers every method at /", async () => {
  assert.deepEqual((await route("/")).body, { route: "index", method: "GET" });
  assert.deepEqual((await route("/", { method: "PUT" })).body, {
    route: "index",
    method: "PUT",
  });
});

Deno.test("the URL comes from the path, extension stripped, index collapsed", async () => {
  assert.deepEqual((await route("/hello?name=ada")).body, { hello: "ada" });
  assert.deepEqual((await route("/posts")).body, { route: "posts.list" });
});

Deno.test("the method suffix is case-insensitive", async () => {
  const created = await route("/posts", { method: "POST" });
  assert.equal(created.status, 201);
  assert.deepEqual(created.body, { route: "posts.create" });
  assert.deepEqual((await route("/things", { method: "PATCH" })).body, {
    route: "things.patch",
  });
});

Deno.test("a method-suffixed file wins its method; a suffixless file answers the rest", async () => {
  assert.deepEqual((await route("/posts/7")).body, {
    route: "posts.one",
    params: { id: "7" },
  });
  assert.deepEqual((await route("/posts/7", { method: "DELETE" })).body, {
    route: "posts.any",
    method: "DELETE",
    params: { id: "7" },
  });
});

Deno.test("a static segment beats a param", async () => {
  assert.deepEqual((await route("/posts/latest")).body, {
    route: "posts.latest",
  });
});

Deno.test("text with a param in one segment: feed.[format] and [id].json", async () => {
  assert.deepEqual((await route("/feed.rss")).body, {
    route: "feed",
    params: { format: "rss" },
  });
  assert.deepEqual((await route("/users/42.json")).body, {
    route: "user.json",
    params: { id: "42" },
  });
  assert.deepEqual((await route("/users/42")).body, {
    route: "user",
    params: { id: "42" },
  });
});

Deno.test("a catch-all takes one or more segments and never zero", async () => {
  assert.deepEqual((await route("/files/a/b/c.txt")).body, {
    route: "files",
    params: { path: "a/b/c.txt" },
  });
  assert.deepEqual((await route("/files/one")).body, {
    route: "files",
    params: { path: "one" },
  });
  assert.equal((await route("/files")).status, 404);
  assert.equal((await route("/files/")).status, 404);
});

Deno.test("params are URI-decoded strings; a malformed escape stays raw", async () => {
  assert.deepEqual((await route("/posts/hello%20world")).body, {
    route: "posts.one",
    params: { id: "hello world" },
  });
  assert.deepEqual((await route("/posts/%E0%A4%A")).body, {
    route: "posts.one",
    params: { id: "%E0%A4%A" },
  });
  assert.deepEqual((await route("/files/a%20b/c")).body, {
    route: "files",
    params: { path: "a b/c" },
  });
});

Deno.test("escaped plain characters are decoded before matching and middleware", async () => {
  const response = await route("/%70ublic");
  assert.equal(response.status, 200);
  assert.deepEqual(response.body, { route: "public", path: "/public" });
  assert.deepEqual((await route("/%70osts/latest")).body, {
    route: "posts.latest",
  });
});

Deno.test("an encoded slash is an ordinary 404 and runs no middleware", async () => {
  const response = await call(app, "/files/a%2Fb");
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("set-cookie"), null); // the global middleware sets a cookie
  assert.deepEqual(await json(response), {
    statusCode: 404,
    message: "Not found",
  });
});

Deno.test("one trailing slash is tolerated, two are not", async () => {
  assert.deepEqual((await route("/posts/")).body, { route: "posts.list" });
  assert.deepEqual((await route("/posts/7/")).body, {
    route: "posts.one",
    params: { id: "7" },
  });
  assert.equal((await route("/posts//")).status, 404);
  assert.equal((await route("/posts//7")).status, 404);
});

Deno.test("a route with the right method beats a more specific one with another method", async () => {
  assert.deepEqual((await route("/items/special")).body, {
    route: "items.special",
  });
  assert.deepEqual((await route("/items/special", { method: "DELETE" })).body, {
    route: "items.delete",
    params: { id: "special" },
  });
});

Deno.test("no match is a 404 without middleware", async () => {
  const response = await call(app, "/nope/nothing");
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("set-cookie"), null);
  assert.equal(response.headers.get("content-type"), "application/json");
});

Deno.test("a path that matches with another method is 405 with a sorted Allow", async () => {
  const response = await call(app, "/only-post");
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "OPTIONS, POST");
  assert.equal(response.headers.get("set-cookie"), null);
  assert.deepEqual(await json(response), {
    statusCode: 405,
    message: "Method not allowed",
  });
  const special = await call(app, "/items/special", { method: "PUT" });
  assert.equal(special.status, 405);
  assert.equal(special.headers.get("allow"), "DELETE, GET, HEAD, OPTIONS");
});

Deno.test("HEAD is served by GET with the headers and no body", async () => {
  const response = await call(app, "/results/head", { method: "HEAD" });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-head"), "yes");
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(await response.text(), "");
});

Deno.test("OPTIONS answers 204 with a sorted Allow after the global middleware ran", async () => {
  const response = await call(app, "/posts", { method: "OPTIONS" });
  assert.equal(response.status, 204);
  assert.equal(response.headers.get("allow"), "GET, HEAD, OPTIONS, POST");
  assert.deepEqual(response.headers.getSetCookie(), ["global=1"]);
  assert.equal(await response.text(), "");
});

Deno.test("an OPTIONS route answers OPTIONS itself", async () => {
  const response = await route("/explicit-options", { method: "OPTIONS" });
  assert.deepEqual(response.body, { route: "explicit-options" });
});

Deno.test("a CORS global middleware answers the preflight", async () => {
  const response = await call(app, "/posts", {
    method: "OPTIONS",
    headers: {
      origin: "https://app.example",
      "access-control-request-method": "POST",
    },
  });
  assert.equal(response.status, 204);
  assert.equal(
    response.headers.get("access-control-allow-origin"),
    "https://app.example",
  );
  assert.equal(
    response.headers.get("access-control-allow-credentials"),
    "true",
  );
  assert.match(
    response.headers.get("access-control-allow-methods") ?? "",
    /POST/,
  );
});

Deno.test("a foreign origin gets no CORS headers", async () => {
  const response = await call(app, "/hello", {
    headers: { origin: "https://evil.example" },
  });
  assert.equal(response.headers.get("access-control-allow-origin"), null);
  await response.body?.cancel();
});

Deno.test("framework errors speak the language of Accept-Language", async () => {
  const response = await call(app, "/nope", {
    headers: { "accept-language": "de-AT, en;q=0.5" },
  });
  assert.deepEqual(await json(response), {
    statusCode: 404,
    message: "Nicht gefunden",
  });
  const english = await call(app, "/nope", {
    headers: { "accept-language": "fr" },
  });
  assert.deepEqual(await json(english), {
    statusCode: 404,
    message: "Not found",
  });
});
