// Global and named middleware (issue 2, point 9).
import assert from "node:assert/strict";
import { bootFixture, call, json } from "../_helpers/fixture_app.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { createApp } from "../../mod.ts";

const app = await bootFixture("http_app");
globalThis.addEventListener("unload", () => app.close());

Deno.test("global middleware run sorted by name, then the route's in its order", async () => {
  assert.deepEqual(await json(await call(app, "/guarded")), {
    route: "guarded",
    trail: ["a_trail", "c_trail", "stop-when-asked", "tag"],
  });
});

Deno.test("a middleware returning a value answers and the handler does not run", async () => {
  assert.deepEqual(await json(await call(app, "/guarded?stop=value")), {
    stopped: true,
  });
  const refused = await call(app, "/guarded?stop=error");
  assert.equal(refused.status, 403);
  assert.deepEqual(await json(refused), {
    statusCode: 403,
    message: "Stopped",
  });
  assert.deepEqual(
    await json(
      await call(app, "/hello", { headers: { "x-global-answer": "1" } }),
    ),
    {
      answeredBy: "global",
    },
  );
});

Deno.test("useEvent reaches the event from nested code", async () => {
  assert.deepEqual(await json(await call(app, "/context")), {
    trail: ["a_trail", "c_trail"],
    path: "/context",
  });
});

Deno.test("a middleware name no layer defines is a boot error naming the route", async () => {
  await assert.rejects(
    () =>
      createApp({
        root: fixturePath("missing_middleware_app"),
        database: ":memory:",
      }),
    (error: Error) =>
      error.message.includes("requir-auth") &&
      error.message.includes("secret.get.ts"),
  );
});
