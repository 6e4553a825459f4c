import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { sql } from "kysely";
import {
  defineCollection,
  field,
  openDatabase,
  openDataLayer,
} from "./_imports.ts";
import { created, dbTest, PG_URL } from "./_helpers.ts";

Deno.test({
  name:
    "postgres: int8 and numeric parse safely; the schema is created and used",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_pg_${crypto.randomUUID().slice(0, 8)}`;
    const { db, dialect } = await openDatabase({
      url: PG_URL!,
      pgSchema: schema,
    });
    try {
      assert.equal(dialect, "postgres");
      const { rows } = await sql<Record<string, unknown>>`select
          ${sql.lit(42)}::int8 as small,
          ${sql.lit("9007199254740993")}::int8 as big,
          ${sql.lit("1.25")}::numeric as decimal,
          ${sql.lit("123456789012345678901234567890")}::numeric as huge,
          count(*) as n,
          current_schema() as schema`.execute(db);
      assert.deepEqual(rows[0], {
        small: 42,
        big: 9007199254740993n,
        decimal: 1.25,
        huge: "123456789012345678901234567890",
        n: 1,
        schema,
      });
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
    }
  },
});

dbTest(
  "integers beyond 2^53 stored by raw SQL are refused on read",
  async (db) => {
    const data = await db.open({
      collections: {
        Counters: defineCollection({ fields: { n: field("integer") } }),
      },
    });
    const counter = created(await data.query("Counters").create({ n: 1 }));
    await sql`update ${sql.table("Counters")} set ${
      sql.id("n")
    } = 9007199254740993`
      .execute(kyselyOf(data.db));
    await assert.rejects(
      () => data.query("Counters").findByUUID(counter.UUID),
      (error: Error) => {
        assert.ok(error instanceof RangeError);
        assert.match(error.message, /MAX_SAFE_INTEGER/);
        return true;
      },
    );
  },
);

// Most PostgreSQL installations collate text by a language's rules ("a-b" < "ab" < "Banana"),
// where SQLite compares code points ("Banana" < "a-b"). An ICU "en" database stands in for
// them: the answers must be SQLite's, also for a column an older version created.
Deno.test({
  name:
    "postgres: text sorts and compares by code point whatever the database collates",
  ignore: !PG_URL,
  async fn() {
    const name = `strata_icu_${crypto.randomUUID().slice(0, 8)}`;
    const admin = await openDatabase({ url: PG_URL! });
    await sql`create database ${sql.id(name)} template template0
      locale_provider icu icu_locale 'en' locale 'C.UTF-8'`.execute(admin.db);
    const url = new URL(PG_URL!);
    url.pathname = `/${name}`;
    const collections = {
      Items: defineCollection({
        fields: {
          name: field("text", { index: true }),
          label: field("text", { translatable: true, nullable: true }),
        },
      }),
    };
    const names = ["apple", "Banana", "a-b", "ab", "Zed", "Über"];
    const answers = async (url: string) => {
      const data = await openDataLayer({
        url,
        collections,
        locales: ["en", "de"],
      });
      try {
        if (await data.query("Items").count() === 0) {
          for (const n of names) {
            await data.query("Items").create({ name: n, label: n });
          }
        }
        const items = data.query("Items");
        return {
          ordered: (await items.order("name").findMany()).map((r) => r.name),
          byLabel: (await items.order("-label").findMany()).map((r) => r.label),
          folded: (await items.where({ name: { startsWith: "üB" } })
            .findMany()).map((r) => r.name),
          after: (await items.where({ name: { greaterThan: "a" } }).order(
            "name",
          ).findMany()).map((r) => r.name),
        };
      } finally {
        await data.close();
      }
    };
    try {
      const expected = await answers(":memory:");
      assert.deepEqual(expected.ordered, [
        "Banana",
        "Zed",
        "a-b",
        "ab",
        "apple",
        "Über",
      ]);
      assert.deepEqual(expected.folded, ["Über"]);
      assert.deepEqual(await answers(url.href), expected);
      // A column left in the database's collation (as an older version made it) is
      // switched on the next boot.
      const pg = await openDatabase({ url: url.href });
      await sql`alter table "Items" alter column "name" type text collate "default"`
        .execute(pg.db);
      await pg.db.destroy();
      assert.deepEqual(await answers(url.href), expected);
      const check = await openDatabase({ url: url.href });
      const { rows } = await sql<{ col: string; collation: string | null }>`
        select column_name as col, collation_name as collation
        from information_schema.columns
        where table_schema = current_schema() and data_type = 'text'
          and table_name like 'Items%' order by table_name, column_name`
        .execute(check.db);
      await check.db.destroy();
      assert.ok(rows.length >= 4, JSON.stringify(rows));
      for (const row of rows) assert.equal(row.collation, "C", row.col);
      // A view over a column blocks changing its collation: the boot goes on without it.
      const viewed = await openDatabase({ url: url.href });
      await sql`alter table "Items" alter column "name" type text collate "default"`
        .execute(viewed.db);
      await sql`create view "ItemNames" as select "name" from "Items"`.execute(
        viewed.db,
      );
      await viewed.db.destroy();
      const warn = console.warn;
      const warnings: string[] = [];
      console.warn = (message: string) => void warnings.push(message);
      try {
        const reopened = await openDataLayer({
          url: url.href,
          collections,
          locales: ["en", "de"],
        });
        assert.equal(await reopened.query("Items").count(), names.length);
        await reopened.close();
      } finally {
        console.warn = warn;
      }
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      assert.match(warnings[0], /Items\.name keeps the database's collation/);
    } finally {
      await sql`drop database ${sql.id(name)} with (force)`.execute(admin.db);
      await admin.db.destroy();
    }
  },
});
