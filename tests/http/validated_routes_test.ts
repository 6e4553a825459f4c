// Validated routes (design "Validated routes"): defineHandler({ params, query, body, headers,
// response }, fn) with zod and valibot, over HTTP, against tests/fixtures/validated_app.
import assert from "node:assert/strict";
import { z } from "npm:zod@^4.3.0";
import { defineHandler } from "../../mod.ts";
import { dbAppTest } from "../_helpers/db_apps.ts";
import { bootFixture, call } from "../_helpers/fixture_app.ts";
import { calls } from "../fixtures/validated_app/calls.ts";

const ORDER = {
  title: "Lunch",
  items: [{ qty: 2 }, { qty: 3 }],
};
const VERSION = { "x-api-version": "2" };

dbAppTest(
  "a valid request reaches the handler with typed outputs",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const answer = await client.req("POST", "/zod/orders/7?page=3", {
      json: ORDER,
      headers: VERSION,
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { id: 7, page: 3, total: 5, raw: "7" });
    assert.equal(calls.count, before + 1);
    const defaulted = await client.req("POST", "/zod/orders/7", {
      json: ORDER,
      headers: VERSION,
    });
    assert.deepEqual(defaulted.body, { id: 7, page: 1, total: 5, raw: "7" });
  },
  { validateResponses: true },
);

dbAppTest(
  "params, query and headers are refused with 400 and prefixed paths; the handler does not run",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const answer = await client.req("POST", "/zod/orders/x?page=0", {
      json: ORDER,
      headers: { "x-api-version": "9" },
    });
    assert.equal(answer.status, 400);
    const body = answer.body as {
      statusCode: number;
      message: string;
      data: { errors: Record<string, string> };
    };
    assert.equal(body.statusCode, 400);
    assert.equal(typeof body.message, "string");
    assert.deepEqual(Object.keys(body.data.errors).sort(), [
      "headers.x-api-version",
      "params.id",
      "query.page",
    ]);
    for (const message of Object.values(body.data.errors)) {
      assert.equal(typeof message, "string");
      assert.ok(message.length > 0);
    }
    assert.equal(calls.count, before);
  },
);

dbAppTest(
  "a refused body is a 422 with bare dotted paths, one message each",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const answer = await client.req("POST", "/zod/orders/7", {
      json: { title: "", items: [{ qty: 1 }, { qty: -1 }] },
      headers: VERSION,
    });
    assert.equal(answer.status, 422);
    const errors = (answer.body as { data: { errors: Record<string, string> } })
      .data.errors;
    assert.deepEqual(Object.keys(errors).sort(), ["items.1.qty", "title"]);
    assert.equal(calls.count, before);
  },
);

dbAppTest(
  "bad params win over a bad body: 400, and the body is not reported",
  "validated_app",
  async (client) => {
    const answer = await client.req("POST", "/zod/orders/x", {
      json: { title: "" },
      headers: VERSION,
    });
    assert.equal(answer.status, 400);
    const errors = (answer.body as { data: { errors: Record<string, string> } })
      .data.errors;
    assert.deepEqual(Object.keys(errors), ["params.id"]);
  },
);

dbAppTest(
  "malformed JSON stays a plain 400; a non-JSON body is 415; a large one 413",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const malformed = await client.req("POST", "/zod/orders/7", {
      body: "{nope",
      headers: { ...VERSION, "content-type": "application/json" },
    });
    assert.equal(malformed.status, 400);
    assert.equal(
      (malformed.body as { data?: unknown }).data,
      undefined,
    );
    const text = await client.req("POST", "/zod/orders/7", {
      body: "title=x",
      headers: { ...VERSION, "content-type": "text/plain" },
    });
    assert.equal(text.status, 415);
    const large = await client.req("POST", "/zod/orders/7", {
      json: { title: "x".repeat(2000), items: [{ qty: 1 }] },
      headers: VERSION,
    });
    assert.equal(large.status, 413);
    assert.equal(calls.count, before);
  },
);

dbAppTest(
  "route middleware runs before validation: a refused caller gets 401, not 422",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const refused = await client.req("POST", "/zod/guarded", {
      json: { title: 1 },
    });
    assert.equal(refused.status, 401);
    const invalid = await client.req("POST", "/zod/guarded", {
      json: { title: 1 },
      headers: { "x-key": "k" },
    });
    assert.equal(invalid.status, 422);
    assert.equal(calls.count, before);
    const ok = await client.req("POST", "/zod/guarded", {
      json: { title: "t" },
      headers: { "x-key": "k" },
    });
    assert.deepEqual(ok.body, { title: "t" });
  },
);

dbAppTest(
  "valibot: params, query and body validated alike",
  "validated_app",
  async (client) => {
    const before = calls.count;
    const ok = await client.req("PUT", "/valibot/hello-world?draft=yes", {
      json: { title: "T", items: [{ qty: 1 }, { qty: 2 }] },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, {
      slug: "hello-world",
      draft: "yes",
      qty: [1, 2],
    });
    const badQuery = await client.req("PUT", "/valibot/Hello?draft=maybe", {
      json: { title: "T", items: [] },
    });
    assert.equal(badQuery.status, 400);
    assert.deepEqual(
      Object.keys(
        (badQuery.body as { data: { errors: Record<string, string> } }).data
          .errors,
      ).sort(),
      ["params.slug", "query.draft"],
    );
    const badBody = await client.req("PUT", "/valibot/hello", {
      json: { title: "", items: [{ qty: "a" }] },
    });
    assert.equal(badBody.status, 422);
    assert.deepEqual(
      (badBody.body as { data: { errors: Record<string, string> } }).data
        .errors,
      {
        title: "Title is required",
        "items.0.qty":
          (badBody.body as { data: { errors: Record<string, string> } })
            .data.errors["items.0.qty"],
      },
    );
    assert.match(
      (badBody.body as { data: { errors: Record<string, string> } }).data
        .errors["items.0.qty"],
      /number/i,
    );
    assert.equal(calls.count, before + 1);
  },
);

dbAppTest(
  "a response that misses its schema is a 500 whose log names the route and the issue",
  "validated_app",
  async (client) => {
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const answer = await client.req("GET", "/zod/wrong-answer");
      assert.equal(answer.status, 500);
      assert.deepEqual(answer.body, {
        statusCode: 500,
        message: "Internal Server Error",
      });
    } finally {
      console.error = original;
    }
    const line = String((logged[0] as unknown[])[1]);
    assert.match(line, /GET \/zod\/wrong-answer/);
    assert.match(line, /count/);
    const ok = await client.req("GET", "/zod/wrong-answer?ok=1");
    assert.deepEqual(ok.body, { count: 1 });
  },
  { validateResponses: true },
);

Deno.test("responses are not checked unless api.validateResponses is on", async () => {
  const app = await bootFixture("validated_app");
  try {
    assert.equal(app.config.api.validateResponses, false);
    const response = await call(app, "/zod/wrong-answer");
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { count: "many" });
  } finally {
    await app.close();
  }
});

Deno.test("api.validateResponses in the config wins over the default", async () => {
  const app = await bootFixture("validated_app", {
    validateResponses: true,
    config: { api: { validateResponses: false } },
  });
  try {
    const response = await call(app, "/zod/wrong-answer");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("a validated route over a real socket", async () => {
  const app = await bootFixture("validated_app");
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    app.fetch,
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const bad = await fetch(`${base}/zod/orders/0`, {
      method: "POST",
      headers: { ...VERSION, "content-type": "application/json" },
      body: JSON.stringify(ORDER),
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await bad.json()).data.errors), [
      "params.id",
    ]);
    const good = await fetch(`${base}/zod/orders/4`, {
      method: "POST",
      headers: { ...VERSION, "content-type": "application/json" },
      body: JSON.stringify(ORDER),
    });
    assert.equal(good.status, 200);
    assert.deepEqual(await good.json(), { id: 4, page: 1, total: 5, raw: "4" });
  } finally {
    await server.shutdown();
    await app.close();
  }
});

Deno.test("defineHandler refuses a schema that is not a Standard Schema, and a missing function", () => {
  assert.throws(
    () => defineHandler({ body: { parse() {} } as never }, () => null),
    /"body" must be a Standard Schema/,
  );
  assert.throws(
    () => defineHandler({ body: z.string() }, undefined as never),
    /expects the handler function/,
  );
});

Deno.test("a repeated query key reaches the schema as an array", async () => {
  const route = defineHandler({
    query: z.object({ tag: z.array(z.string()) }),
  }, ({ valid }) => valid.query.tag);
  const app = await bootFixture("validated_app");
  try {
    const { RequestEvent } = await import("../../router/request_event.ts");
    const event = new RequestEvent(
      new Request("http://localhost/?tag=a&tag=b"),
      "/",
      "tag=a&tag=b",
      {},
      undefined,
      app,
      () => {},
    );
    assert.deepEqual(await route.fn(event), ["a", "b"]);
  } finally {
    await app.close();
  }
});
