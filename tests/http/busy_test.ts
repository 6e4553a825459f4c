// A busy database answers 503 with Retry-After: 1 over HTTP, never a 500 (issue 3, point 1).
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
        app.db,
      );
      await app.close();
    }
  },
});
