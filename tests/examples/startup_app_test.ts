// The startup benchmark's generated app boots and serves: the bench measures a real app.
import assert from "node:assert/strict";
import { createApp } from "../../mod.ts";
import { generateApp } from "../../bench/startup/_generate.ts";

Deno.test("the startup bench's generated app boots and answers", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_startup_test_" });
  try {
    const generated = await generateApp(root, 20, 3);
    assert.equal(generated.routes, 20);
    const app = await createApp({ root, database: ":memory:" });
    try {
      const own = app.routes.filter((route) => route.layer === "app");
      assert.equal(own.length, 20);
      assert.ok(app.data.collections.has("C2"));
      const plain = await app.fetch(new Request("http://localhost/g0/r0"));
      assert.deepEqual(await plain.json(), { route: 0, params: {} });
      assert.equal(plain.headers.get("x-tag"), "1");
      const catchAll = await app.fetch(
        new Request("http://localhost/g3/r3/files/a/b.txt"),
      );
      assert.deepEqual(await catchAll.json(), {
        route: 3,
        params: { path: "a/b.txt" },
      });
      const list = await app.fetch(
        new Request("http://localhost/collections/c1"),
      );
      assert.deepEqual(await list.json(), []);
    } finally {
      await app.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
