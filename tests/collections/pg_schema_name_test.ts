// The PostgreSQL schema an app is given (createApp's `databaseSchema`, openDatabase's
// `pgSchema`): a name with capitals is the schema of that exact name, and processes
// opening one that does not exist yet, all at once, each get it.
import assert from "node:assert/strict";
import pg from "pg";
import { sql } from "kysely";
import { openDatabase } from "./_imports.ts";
import { createApp } from "../../mod.ts";
import { PG_URL } from "./_helpers.ts";

async function dropSchema(schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await admin.end();
  }
}

Deno.test({
  name: "postgres schema: a name with capitals is used as written",
  ignore: !PG_URL,
  async fn() {
    const schema = `Strata_Mixed_${crypto.randomUUID().slice(0, 8)}`;
    const { db } = await openDatabase({ url: PG_URL!, pgSchema: schema });
    try {
      await sql`create table "T" ("id" int)`.execute(db);
      const { rows } = await sql<{ schema: string; tables: number }>`select
          current_schema() as schema,
          (select count(*)::int from information_schema.tables
            where table_schema = ${schema} and table_name = 'T') as tables`
        .execute(db);
      assert.deepEqual(rows[0], { schema, tables: 1 });
    } finally {
      await db.destroy();
      await dropSchema(schema);
    }
  },
});

Deno.test({
  name:
    "postgres schema: opened by many at once while missing, it opens for each",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_race_${crypto.randomUUID().slice(0, 8)}`;
    try {
      // CREATE SCHEMA IF NOT EXISTS is not safe against itself: two sessions can both
      // find it missing, and the second insert fails on pg_namespace's unique index.
      for (let round = 0; round < 5; round++) {
        await dropSchema(schema);
        const opened = await Promise.all(
          Array.from(
            { length: 8 },
            () => openDatabase({ url: PG_URL!, pgSchema: schema }),
          ),
        );
        for (const { db } of opened) {
          const { rows } = await sql<{ schema: string }>`select
              current_schema() as schema`.execute(db);
          assert.equal(rows[0].schema, schema);
          await db.destroy();
        }
      }
    } finally {
      await dropSchema(schema);
    }
  },
});

Deno.test({
  name:
    "postgres schema: an app booted in a schema named with capitals serves its collection",
  ignore: !PG_URL,
  async fn() {
    const schema = `Strata_App_${crypto.randomUUID().slice(0, 8)}`;
    const root = await Deno.makeTempDir();
    const strata = new URL("../../mod.ts", import.meta.url).href;
    await Deno.mkdir(`${root}/collections`);
    await Deno.writeTextFile(
      `${root}/collections/Notes.ts`,
      `import { defineCollection, field } from "${strata}";
export default defineCollection({
  fields: { text: field("text", { max: 100 }) },
  api: { read: "public", create: "public" },
});
`,
    );
    const app = await createApp({
      root,
      database: PG_URL,
      databaseSchema: schema,
    });
    try {
      const created = await app.fetch(
        new Request("http://localhost/collections/notes", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: "kept" }),
        }),
      );
      assert.equal(created.status, 201, await created.clone().text());
      const listed = await app.fetch(
        new Request("http://localhost/collections/notes"),
      );
      const body: { text: string }[] = await listed.json();
      assert.deepEqual(body.map((r) => r.text), [
        "kept",
      ]);
    } finally {
      await app.close();
      await dropSchema(schema);
      await Deno.remove(root, { recursive: true });
    }
  },
});
