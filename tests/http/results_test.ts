// Handler result mapping, errors on the wire and merged headers (SPEC.md "Handler result mapping").
import assert from "node:assert/strict";
import { bootFixture, call, json } from "../_helpers/fixture_app.ts";

const logged: unknown[] = [];
const originalError = console.error;
const app = await bootFixture("http_app");
globalThis.addEventListener("unload", () => app.close());

Deno.test("an object, array or other plain value is JSON", async () => {
  for (
    const [path, body] of [["/results/number", 42], ["/results/array", [
      1,
      "two",
    ]]] as const
  ) {
    const response = await call(app, path);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.deepEqual(await json(response), body);
  }
});

Deno.test("a plain function default export is a handler", async () => {
  assert.deepEqual(await json(await call(app, "/results/plain-function")), {
    plain: true,
  });
});

Deno.test("async handlers are awaited", async () => {
  assert.deepEqual(await json(await call(app, "/results/async")), {
    async: true,
  });
});

Deno.test("null and undefined answer 204 with an empty body", async () => {
  for (const path of ["/results/null", "/results/undefined"]) {
    const response = await call(app, path);
    assert.equal(response.status, 204);
    assert.equal(await response.text(), "");
  }
});

Deno.test("null keeps a status set explicitly", async () => {
  const response = await call(app, "/results/null-status");
  assert.equal(response.status, 202);
  assert.equal(await response.text(), "");
});

Deno.test("a string is text/html unless the handler set a content type", async () => {
  const html = await call(app, "/results/string");
  assert.equal(html.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(await html.text(), "<p>hi</p>");
  const text = await call(app, "/results/text");
  assert.equal(text.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(await text.text(), "plain");
});

Deno.test("bytes, buffers, blobs and streams are application/octet-stream", async () => {
  const cases: [string, number[]][] = [
    ["/results/bytes", [1, 2, 3]],
    ["/results/buffer", [4, 5]],
    ["/results/blob", [...new TextEncoder().encode("blob")]],
    ["/results/stream", [...new TextEncoder().encode("streamed")]],
  ];
  for (const [path, bytes] of cases) {
    const response = await call(app, path);
    assert.equal(
      response.headers.get("content-type"),
      "application/octet-stream",
      path,
    );
    assert.deepEqual(
      [...new Uint8Array(await response.arrayBuffer())],
      bytes,
      path,
    );
  }
});

Deno.test("a Response passes through; headers set during the request merge beneath", async () => {
  const response = await call(app, "/results/response");
  assert.equal(response.status, 203);
  assert.equal(await response.text(), "raw");
  assert.equal(response.headers.get("x-both"), "response");
  assert.equal(response.headers.get("x-from-event"), "event");
  assert.deepEqual(response.headers.getSetCookie().sort(), [
    "a=1",
    "b=2",
    "global=1",
  ]);
});

Deno.test("a returned HTTPError answers with its status and the wire shape", async () => {
  const response = await call(app, "/results/returned-error");
  assert.equal(response.status, 418);
  assert.deepEqual(await json(response), {
    statusCode: 418,
    message: "Teapot",
    data: { tea: true },
  });
});

Deno.test("a thrown HTTPError keeps the headers set during the request", async () => {
  const response = await call(app, "/results/thrown-error", {
    headers: { origin: "https://app.example" },
  });
  assert.equal(response.status, 409);
  assert.equal(response.headers.get("x-kept"), "yes");
  assert.equal(
    response.headers.get("access-control-allow-origin"),
    "https://app.example",
  );
  assert.deepEqual(await json(response), {
    statusCode: 409,
    message: "Taken",
    data: { field: "name" },
  });
});

Deno.test("an unhandled throw is a 500 without detail, logged with its method, path and error", async () => {
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const response = await call(app, "/results/crash", {
      headers: { origin: "https://app.example" },
    });
    assert.equal(response.status, 500);
    assert.deepEqual(await json(response), {
      statusCode: 500,
      message: "Internal Server Error",
    });
    assert.equal(
      response.headers.get("access-control-allow-origin"),
      "https://app.example",
    );
    // The log names the method, the path and the error (the answer carries none of them).
    assert.equal(logged.length, 1);
    const [line, error] = logged[0] as [string, Error];
    assert.match(
      line,
      /^Unhandled error in GET \/results\/crash \(answered 500\):$/,
    );
    assert.equal(error.message, "secret detail");
  } finally {
    console.error = originalError;
  }
});

Deno.test("Set-Cookie values from middleware and handler accumulate", async () => {
  const response = await call(app, "/cookies");
  assert.deepEqual(response.headers.getSetCookie(), ["global=1", "handler=1"]);
  await response.body?.cancel();
});
