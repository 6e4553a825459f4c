// Request bodies and route limits (issue 2, points 8 and 10).
import assert from "node:assert/strict";
import { bootFixture, call, json } from "../_helpers/fixture_app.ts";

const app = await bootFixture("http_app");
globalThis.addEventListener("unload", () => app.close());

function post(path: string, body: BodyInit | null, type = "application/json") {
  return call(app, path, {
    method: "POST",
    body,
    headers: { "content-type": type },
  });
}

function chunked(text: string, pieces: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const size = Math.ceil(bytes.length / pieces);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset += size));
    },
  });
}

Deno.test("event.body() parses application/json and *+json", async () => {
  assert.deepEqual(await json(await post("/body/echo", '{"a":[1,2]}')), {
    received: { a: [1, 2] },
  });
  assert.deepEqual(
    await json(
      await post(
        "/body/echo",
        '{"b":true}',
        "application/merge-patch+json; charset=utf-8",
      ),
    ),
    { received: { b: true } },
  );
});

Deno.test("another content type is 415", async () => {
  const response = await post(
    "/body/echo",
    "a=1",
    "application/x-www-form-urlencoded",
  );
  assert.equal(response.status, 415);
  assert.equal(
    (await json(response) as { statusCode: number }).statusCode,
    415,
  );
});

Deno.test("an empty or malformed body is a plain 400", async () => {
  for (const body of ["", "{nope", '{"a":1'] as const) {
    const response = await post("/body/echo", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    const error = await json(response) as {
      statusCode: number;
      data?: unknown;
    };
    assert.equal(error.statusCode, 400);
    assert.equal(error.data, undefined);
  }
});

Deno.test("a body that is not UTF-8 is a plain 400, and the next body decodes as it should", async () => {
  for (const bytes of [[0x7b, 0xff, 0x7d], [0x22, 0xe2, 0x82]]) {
    const response = await post("/body/echo", new Uint8Array(bytes));
    assert.equal(response.status, 400);
    // Answered under the malformedJson message, as any body that is not JSON.
    assert.deepEqual(await json(response), {
      statusCode: 400,
      message: "The request body is not valid JSON",
    });
    // A decoder left mid-character would turn these bytes into something else.
    assert.deepEqual(await json(await post("/body/echo", '{"é":"€"}')), {
      received: { "é": "€" },
    });
  }
});

Deno.test("nesting deeper than 64 is 400; 64 is fine", async () => {
  assert.equal(
    (await post("/body/echo", "[".repeat(65) + "]".repeat(65))).status,
    400,
  );
  const ok = await post("/body/echo", "[".repeat(64) + "]".repeat(64));
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const inString = await post(
    "/body/echo",
    JSON.stringify({ s: "[".repeat(100) }),
  );
  assert.equal(inString.status, 200);
  await inString.body?.cancel();
});

Deno.test("a body over maxBodySize is 413 before the handler runs", async () => {
  const response = await post(
    "/body/never-read",
    JSON.stringify({ x: "y".repeat(2000) }),
  );
  assert.equal(response.status, 413);
  assert.deepEqual(await json(response), {
    statusCode: 413,
    message: "The request body is too large",
  });
  const small = await post("/body/small", '{"a":"0123456789abcdef"}');
  assert.equal(small.status, 413);
  await small.body?.cancel();
});

Deno.test("a chunked body without Content-Length is limited too", async () => {
  const response = await call(app, "/body/never-read", {
    method: "POST",
    body: chunked(JSON.stringify({ x: "y".repeat(5000) }), 10),
    headers: { "content-type": "application/json" },
  });
  assert.equal(response.status, 413);
  await response.body?.cancel();
  const fits = await call(app, "/body/echo", {
    method: "POST",
    body: chunked('{"fits":true}', 3),
    headers: { "content-type": "application/json" },
  });
  assert.deepEqual(await json(fits), { received: { fits: true } });
});

Deno.test("a body with Content-Length is read whole and limited by its length, declared and actual", async () => {
  // In process a request may declare less than it carries: the bytes that came decide.
  const lying = await call(app, "/body/never-read", {
    method: "POST",
    body: JSON.stringify({ x: "y".repeat(5000) }),
    headers: { "content-type": "application/json", "content-length": "20" },
  });
  assert.equal(lying.status, 413);
  await lying.body?.cancel();
  // Over a real socket (fetch sends Content-Length): within the limit the body arrives whole.
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) => app.fetch(request, info),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}`;
    const echoed = await fetch(`${url}/body/echo`, {
      method: "POST",
      body: '{"whole":"é ✓"}',
      headers: { "content-type": "application/json" },
    });
    assert.deepEqual(await echoed.json(), { received: { whole: "é ✓" } });
    const large = await fetch(`${url}/body/never-read`, {
      method: "POST",
      body: JSON.stringify({ x: "y".repeat(5000) }),
      headers: { "content-type": "application/json" },
    });
    assert.equal(large.status, 413);
    await large.body?.cancel();
  } finally {
    await server.shutdown();
  }
});

Deno.test("maxBodySize: false lifts the limit", async () => {
  const response = await post(
    "/body/unlimited",
    "x".repeat(2 * 1024 * 1024),
    "application/octet-stream",
  );
  assert.deepEqual(await json(response), { length: 2 * 1024 * 1024 });
});

Deno.test("the server-wide limit applies by default (1mb)", async () => {
  const response = await post(
    "/body/echo",
    JSON.stringify({ x: "y".repeat(1024 * 1024) }),
  );
  assert.equal(response.status, 413);
  await response.body?.cancel();
});

Deno.test("handlerTimeout answers 503 without Retry-After; false lifts it", async () => {
  const response = await call(app, "/slow");
  assert.equal(response.status, 503);
  assert.equal(response.headers.get("retry-after"), null);
  await response.body?.cancel();
  assert.deepEqual(await json(await call(app, "/slow-unlimited")), {
    slow: true,
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the abandoned handler finish
});

Deno.test("waitUntil work finishes after the response; close() waits for it", async () => {
  const { done } = await import("../fixtures/http_app/api/wait-until.get.ts");
  const before = done.length;
  assert.deepEqual(await json(await call(app, "/wait-until")), {
    queued: true,
  });
  assert.equal(done.length, before);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(done.length, before + 1);
});

Deno.test("a 413 still carries the CORS headers a global middleware set", async () => {
  const response = await call(app, "/body/never-read", {
    method: "POST",
    body: JSON.stringify({ x: "y".repeat(2000) }),
    headers: {
      "content-type": "application/json",
      origin: "https://app.example",
    },
  });
  assert.equal(response.status, 413);
  assert.equal(
    response.headers.get("access-control-allow-origin"),
    "https://app.example",
  );
  await response.body?.cancel();
});

Deno.test("waitUntilTimeout abandons work that runs too long", async () => {
  const { bootFixture } = await import("../_helpers/fixture_app.ts");
  const own = await bootFixture("http_app");
  const logged: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    assert.deepEqual(await json(await call(own, "/wait-forever")), {
      queued: true,
    });
    await own.close(); // returns once the 30 ms bound has passed
    assert.equal(logged.length, 1);
  } finally {
    console.error = original;
  }
});
