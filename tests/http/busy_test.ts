// A busy database answers 503 with Retry-After: 1 over HTTP, never a 500 (issue 3, point 1).
import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { sql } from "kysely";
import { createApp } from "../../mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { PG_URL } from "../_helpers/db_apps.ts";

const createAuthor = () =>
  new Request("http://localhost/collections/authors", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ada" }),
  });

const config = {
  collections: { locales: ["en", "de", "fr"] },
  database: { busyTimeout: "100ms" },
};

Deno.test("a write while another connection holds the write lock is 503 [sqlite]", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata-busy-" });
  const file = `${dir}/app.db`;
  const app = await createApp({
    root: fixturePath("api_app"),
    database: file,
    config,
  });
  const other = new DatabaseSync(file);
  try {
    other.exec("begin immediate");
    const response = await app.fetch(
      createAuthor(),
    );
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "1");
    assert.equal((await response.json()).statusCode, 503);
    other.exec("rollback");
    const retried = await app.fetch(
      createAuthor(),
    );
    assert.equal(retried.status, 201);
    await retried.body?.cancel();
  } finally {
    other.close();
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a write waits for a write lock without blocking the process, then succeeds [sqlite]", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata-busy-" });
  const file = `${dir}/app.db`;
  const app = await createApp({
    root: fixturePath("api_app"),
    database: file,
    // Far above the 100 ms the lock is held: a loaded machine must not turn this into a 503.
    config: { ...config, database: { busyTimeout: "20s" } },
  });
  const other = new DatabaseSync(file);
  try {
    other.exec("begin immediate");
    // The holder lives in this process: it can only release the lock if the waiting
    // write leaves the event loop free (a synchronous busy wait would hold it for good).
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    setTimeout(() => other.exec("commit"), 100);
    const started = performance.now();
    const response = await app.fetch(createAuthor());
    const waited = performance.now() - started;
    clearInterval(ticking);
    assert.equal(response.status, 201);
    await response.body?.cancel();
    assert.ok(waited >= 90, `waited ${waited} ms`);
    assert.ok(ticks >= 5, `the event loop ticked ${ticks} times`);
  } finally {
    other.close();
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "a write blocked by a held lock is 503 [postgres]",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_busy_${crypto.randomUUID().slice(0, 8)}`;
    const app = await createApp({
      root: fixturePath("api_app"),
      database: PG_URL!,
      databaseSchema: schema,
      config,
    });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`set search_path to "${schema}"`);
      await client.query("begin");
      await client.query('lock table "Authors" in access exclusive mode');
      const response = await app.fetch(
        new Request("http://localhost/collections/authors", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "Ada" }),
        }),
      );
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), "1");
      await response.body?.cancel();
      await client.query("rollback");
    } finally {
      await client.end();
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(
        kyselyOf(app.db),
      );
      await app.close();
    }
  },
});

/** A loopback TCP proxy to PostgreSQL that can be cut and restored. */
function cuttableProxy(target: URL) {
  let listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const open = new Set<Deno.Conn>();
  const serve = async (on: Deno.Listener) => {
    for await (const client of on) {
      try {
        const upstream = await Deno.connect({
          hostname: target.hostname,
          port: Number(target.port || 5432),
        });
        open.add(client).add(upstream);
        client.readable.pipeTo(upstream.writable).catch(() => {});
        upstream.readable.pipeTo(client.writable).catch(() => {});
      } catch {
        client.close();
      }
    }
  };
  let serving = serve(listener);
  const url = new URL(target.href);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.href,
    async cut() {
      listener.close();
      await serving.catch(() => {});
      for (const conn of open) {
        try {
          conn.close();
        } catch { /* already closed */ }
      }
      open.clear();
    },
    restore() {
      listener = Deno.listen({ hostname: "127.0.0.1", port });
      serving = serve(listener);
    },
    async close() {
      await this.cut();
    },
  };
}

Deno.test({
  name:
    "an unreachable database is 503 with Retry-After, and recovers [postgres]",
  ignore: !PG_URL,
  async fn() {
    const proxy = cuttableProxy(new URL(PG_URL!));
    const schema = `strata_down_${crypto.randomUUID().slice(0, 8)}`;
    const app = await createApp({
      root: fixturePath("api_app"),
      database: proxy.url,
      databaseSchema: schema,
      config,
    });
    try {
      const first = await app.fetch(createAuthor());
      assert.equal(first.status, 201);
      await first.body?.cancel();
      await proxy.cut();
      // Pooled connections die with the proxy, and new ones are refused.
      for (let i = 0; i < 3; i++) {
        const response = await app.fetch(createAuthor());
        assert.equal(response.status, 503, `attempt ${i}`);
        assert.equal(response.headers.get("retry-after"), "1");
        assert.equal((await response.json()).statusCode, 503);
      }
      proxy.restore();
      const again = await app.fetch(createAuthor());
      assert.equal(again.status, 201);
      await again.body?.cancel();
      // A connection lost while a transaction holds it: the transaction fails with the 503,
      // and the process lives on (an unhandled client 'error' event would end it).
      await assert.rejects(
        app.data.transaction(async () => {
          await app.query("Authors").count();
          await proxy.cut();
          await new Promise((resolve) => setTimeout(resolve, 50));
          await app.query("Authors").count();
        }),
        (error: unknown) => (error as { status?: number }).status === 503,
      );
      proxy.restore();
      assert.equal(await app.query("Authors").count(), 2);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(
        kyselyOf(app.db),
      ).catch(() => {});
      await app.close();
      await proxy.close();
    }
  },
});

Deno.test({
  name: "a boot against an unreachable database names the connection error",
  ignore: !PG_URL,
  async fn() {
    const proxy = cuttableProxy(new URL(PG_URL!));
    await proxy.cut();
    await assert.rejects(
      createApp({
        root: fixturePath("api_app"),
        database: proxy.url,
        databaseSchema: "strata_never",
        config,
      }),
      /Cannot connect to PostgreSQL at 127\.0\.0\.1:\d+ \(createApp\(\{ database \}\)\): the connection was refused/,
    );
  },
});
