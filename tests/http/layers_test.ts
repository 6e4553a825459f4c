// Layers, disable.routes, basePath and boot errors (issue 2, points 4 and 6).
import assert from "node:assert/strict";
import {
  bootFixture,
  call,
  fixturePath,
  json,
} from "../_helpers/fixture_app.ts";
import { createApp, defineHandler, defineLayer } from "../../mod.ts";

Deno.test("routes merge by id across folder and manifest layers; the closer layer wins", async () => {
  const app = await bootFixture("layered_app");
  try {
    assert.deepEqual(await json(await call(app, "/shared")), { from: "app" });
    assert.deepEqual(await json(await call(app, "/base/only")), {
      from: "base",
    });
    assert.deepEqual(await json(await call(app, "/shop")), { from: "shop" });
    const item = await call(app, "/shop/hat");
    assert.equal(item.headers.get("x-shop"), "1");
    assert.deepEqual(await json(item), { from: "shop", item: "hat" });
    const own = await call(app, "/own");
    assert.equal(own.headers.get("x-base-tag"), "1"); // middleware from a farther layer
    await own.body?.cancel();
    const ids = app.routes.map((r) => r.id);
    assert.ok(ids.includes("GET /shared"));
    assert.equal(
      app.routes.find((r) => r.id === "GET /shared")?.layer,
      "app",
    );
  } finally {
    await app.close();
  }
});

Deno.test("disable.routes drops by glob, with and without a method prefix", async () => {
  const app = await bootFixture("layered_app");
  try {
    const hidden = await call(app, "/base/hidden");
    assert.equal(hidden.status, 405);
    assert.equal(hidden.headers.get("allow"), "OPTIONS, POST");
    await hidden.body?.cancel();
    assert.deepEqual(
      await json(await call(app, "/base/hidden", { method: "POST" })),
      {
        from: "base",
        method: "POST",
      },
    );
    assert.equal((await call(app, "/base/gone/deep/x")).status, 404);
  } finally {
    await app.close();
  }
});

Deno.test("a duplicate route in one layer is a boot error naming both files", async () => {
  await assert.rejects(
    () => bootFixture("duplicate_app"),
    (error: Error) =>
      error.message.includes("authors.get.ts") &&
      error.message.includes("authors/index.get.ts"),
  );
});

Deno.test("a route file without a handler export is a boot error naming the file", async () => {
  await assert.rejects(
    () => bootFixture("bad_export_app"),
    (error: Error) => error.message.includes("oops.get.ts"),
  );
});

Deno.test("api.basePath mounts the table; outside the prefix is 404; handlers see the bare path", async () => {
  const app = await bootFixture("http_app", {
    config: { api: { basePath: "/api/" } },
  });
  try {
    assert.deepEqual(await json(await call(app, "/api/public")), {
      route: "public",
      path: "/public",
    });
    assert.deepEqual(await json(await call(app, "/api")), {
      route: "index",
      method: "GET",
    });
    const outside = await call(app, "/public");
    assert.equal(outside.status, 404);
    assert.equal(outside.headers.get("set-cookie"), null);
    await outside.body?.cancel();
    assert.equal((await call(app, "/apiary")).status, 404);
    assert.ok(app.routes.some((r) => r.pattern === "/api/public"));
  } finally {
    await app.close();
  }
});

Deno.test("layers given to createApp stack below the app", async () => {
  const extra = defineLayer({
    name: "extra",
    routes: {
      "hello.get.ts": defineHandler(() => "shadowed"),
      "extra.get.ts": defineHandler(() => ({ extra: true })),
    },
  });
  const app = await bootFixture("http_app", { layers: [extra] });
  try {
    assert.deepEqual(await json(await call(app, "/extra")), { extra: true });
    assert.deepEqual(await json(await call(app, "/hello")), { hello: "world" });
  } finally {
    await app.close();
  }
});

Deno.test("bad config values fail at boot with a message naming the key", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ api: { maxBodySize: "lots" } }, "api.maxBodySize"],
    [{ api: { handlerTimeout: -5 } }, "api.handlerTimeout"],
    [{ api: { waitUntilTimeout: "1 fortnight" } }, "api.waitUntilTimeout"],
    [{ api: { basePath: "api" } }, "api.basePath"],
    [{ apii: {} }, "apii"],
    [
      { collections: { locales: ["en"], defaultLocale: "de" } },
      "collections.defaultLocale",
    ],
    [{ query: { guards: { maxLimit: 0 } } }, "query.guards.maxLimit"],
  ];
  for (const [config, key] of cases) {
    await assert.rejects(
      () =>
        createApp({
          root: fixturePath("http_app"),
          config,
          database: ":memory:",
        }),
      (error: Error) => error.message.includes(key),
      key,
    );
  }
});

Deno.test("a bad route option fails at boot naming the key and the file", async () => {
  const layer = defineLayer({
    name: "bad",
    routes: { "x.get.ts": defineHandler(() => 1, { maxBodySize: "huge" }) },
  });
  await assert.rejects(
    () => bootFixture("http_app", { layers: [layer] }),
    (error: Error) =>
      error.message.includes("maxBodySize") &&
      error.message.includes("x.get.ts"),
  );
});
