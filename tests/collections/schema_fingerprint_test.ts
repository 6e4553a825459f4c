// Schema sync skips its work when the definitions and the database's schema are those of the
// last sync (`_strata_schema_state`). These tests fail if the skip left needed work undone: a
// changed definition, a table or index altered by hand, a field becoming non-nullable.
import { kyselyOf } from "../../collections/database.ts";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { sql } from "kysely";
import { type DataLayer, defineCollection, field } from "./_imports.ts";
import { created, dbTest, type TestDatabase } from "./_helpers.ts";
import { columns, indexes } from "./_schema_reads.ts";

/** Runs `statements` on their own connection, as another program would. */
async function byHand(db: TestDatabase, statements: string): Promise<void> {
  if (db.dialect === "sqlite") {
    const handle = new DatabaseSync(db.url);
    try {
      handle.exec(statements);
    } finally {
      handle.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(`set search_path to "${db.pgSchema}"; ${statements}`);
  } finally {
    await client.end();
  }
}

/** When `_strata_schema` says Posts was last synced. */
async function syncedAt(data: DataLayer): Promise<number> {
  const { rows } = await sql<{ at: number | string }>`
    select "syncedAt" as at from "_strata_schema" where "collection" = 'Posts'`
    .execute(kyselyOf(data.db));
  return Number(rows[0].at);
}

/** Lets the clock move on, so that a sync after it writes a later `syncedAt`. */
function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 20));
}

const posts = defineCollection({
  fields: {
    title: field("text", { index: true }),
    views: field("integer", { default: 0 }),
  },
});

dbTest(
  "an unchanged boot skips the sync; a changed definition after it still syncs",
  async (db) => {
    const first = await db.open({ collections: { Posts: posts } });
    const synced = await syncedAt(first);
    await first.close();
    await tick();
    const second = await db.open({ collections: { Posts: posts } });
    assert.equal(
      await syncedAt(second),
      synced,
      "nothing changed: no sync ran",
    );
    await second.close();
    await tick();
    const third = await db.open({
      collections: {
        Posts: defineCollection({
          fields: { ...posts.fields, subtitle: field("text", { index: true }) },
        }),
      },
    });
    assert.ok(await syncedAt(third) > synced, "a new field: the sync ran");
    assert.ok((await columns(third, "Posts")).includes("subtitle"));
    assert.ok((await indexes(third)).includes("Posts__subtitle_UUID__idx"));
    created(await third.query("Posts").create({ title: "a", subtitle: "b" }));
  },
  { file: true },
);

dbTest(
  "a definition changing only its snapshot (a new index) after a fingerprinted boot still syncs",
  async (db) => {
    // Names, nullability and defaults stay: only the stored snapshot tells the change.
    const first = await db.open({ collections: { Posts: posts } });
    await first.close();
    const second = await db.open({ collections: { Posts: posts } });
    await second.close();
    const third = await db.open({
      collections: {
        Posts: defineCollection({
          fields: {
            ...posts.fields,
            views: field("integer", { default: 0, index: true }),
          },
        }),
      },
    });
    assert.ok((await indexes(third)).includes("Posts__views_UUID__idx"));
    await third.close();
  },
  { file: true },
);

dbTest(
  "a collection's table made by another program before the first sync gains what it lacks",
  async (db) => {
    // The database holds a table but no trace of Strata: the sync reads what is there
    // rather than making every table anew (which would fail on this one).
    const table =
      `create table "Posts" ("UUID" text not null primary key, "_updatedAt" bigint not null, "title" text)`;
    if (db.dialect === "sqlite") {
      await Deno.mkdir(db.url.slice(0, db.url.lastIndexOf("/")), {
        recursive: true,
      });
      await byHand(db, table);
    } else {
      await byHand(
        db,
        `create schema "${db.pgSchema}"; set search_path to "${db.pgSchema}"; ${table}`,
      );
    }
    const data = await db.open({ collections: { Posts: posts } });
    assert.ok((await columns(data, "Posts")).includes("views"));
    assert.ok((await indexes(data)).includes("Posts__title_UUID__idx"));
    const post = created(await data.query("Posts").create({ title: "a" }));
    assert.equal(post.views, 0);
  },
  { file: true },
);

dbTest(
  "a junction table made by another program before the first sync is brought to code-point order",
  async (db) => {
    // Only the junction table is there: the collection is planned against it, so on
    // PostgreSQL its text columns are switched to the "C" collation as an older table's.
    const junction =
      `create table "Posts__tags" ("owner" text not null, "target" text not null, "position" integer not null, primary key ("owner", "position"))`;
    if (db.dialect === "sqlite") {
      await Deno.mkdir(db.url.slice(0, db.url.lastIndexOf("/")), {
        recursive: true,
      });
      await byHand(db, junction);
    } else {
      await byHand(
        db,
        `create schema "${db.pgSchema}"; set search_path to "${db.pgSchema}"; ${junction}`,
      );
    }
    const data = await db.open({
      collections: {
        Tags: defineCollection({ fields: { label: field("text") } }),
        Posts: defineCollection({
          fields: {
            title: field("text"),
            tags: field("records", { collection: "Tags" }),
          },
        }),
      },
    });
    const tag = created(await data.query("Tags").create({ label: "t" }));
    const post = created(
      await data.query("Posts").create({ title: "a", tags: [tag.UUID] }),
    );
    assert.deepEqual(
      (await data.query("Posts").findByUUID(post.UUID))!.tags,
      [tag.UUID],
    );
    if (db.dialect === "postgres") {
      const { rows } = await sql<{ col: string; collation: string | null }>`
        select column_name as col, collation_name as collation
        from information_schema.columns
        where table_schema = current_schema() and table_name = 'Posts__tags'
          and data_type = 'text' order by column_name`.execute(
        kyselyOf(data.db),
      );
      assert.deepEqual(rows, [
        { col: "owner", collation: "C" },
        { col: "target", collation: "C" },
      ]);
    }
  },
  { file: true },
);

dbTest(
  "boots at once on one fresh database all open on the same schema, made once",
  async (db) => {
    // Each sync holds the database's write lock (SQLite) or an advisory lock (PostgreSQL)
    // from its first look at the schema to its commit: one makes the tables, the others
    // find them made. (The PostgreSQL schema is made first: creating one is another race.)
    if (db.dialect === "postgres") {
      await byHand(db, `create schema "${db.pgSchema}"`);
    }
    const opened = await Promise.all(
      [1, 2, 3].map(() => db.open({ collections: { Posts: posts } })),
    );
    for (const [i, data] of opened.entries()) {
      created(await data.query("Posts").create({ title: `from ${i}` }));
    }
    for (const data of opened) {
      assert.equal((await data.query("Posts").findMany()).length, 3);
      assert.ok((await indexes(data)).includes("Posts__title_UUID__idx"));
    }
  },
  { file: true },
);

dbTest(
  "a table or index altered by hand after a fingerprinted boot is synced again",
  async (db) => {
    const first = await db.open({ collections: { Posts: posts } });
    await first.close();
    // Two boots: the second is a skipped one, so the state is the fingerprinted one.
    const second = await db.open({ collections: { Posts: posts } });
    const synced = await syncedAt(second);
    await second.close();
    await byHand(
      db,
      `drop index "Posts__title_UUID__idx"; alter table "Posts" drop column "views"`,
    );
    await tick();
    const third = await db.open({ collections: { Posts: posts } });
    assert.ok(
      await syncedAt(third) > synced,
      "the schema changed: the sync ran",
    );
    assert.ok((await indexes(third)).includes("Posts__title_UUID__idx"));
    assert.ok((await columns(third, "Posts")).includes("views"));
    const post = created(await third.query("Posts").create({ title: "a" }));
    assert.equal(post.views, 0);
  },
  { file: true },
);

dbTest(
  "a field turning non-nullable with a default fills its nulls after a fingerprinted boot",
  async (db) => {
    // Nullability is not in the remembered snapshot: the fingerprint must still see it.
    const v1 = defineCollection({
      fields: { title: field("text"), note: field("text", { nullable: true }) },
    });
    const first = await db.open({ collections: { Posts: v1 } });
    const post = created(await first.query("Posts").create({ title: "a" }));
    await first.close();
    const second = await db.open({ collections: { Posts: v1 } });
    await second.close();
    const third = await db.open({
      collections: {
        Posts: defineCollection({
          fields: {
            title: field("text"),
            note: field("text", { default: "none" }),
          },
        }),
      },
    });
    const reread = await third.query("Posts").findByUUID(post.UUID);
    assert.equal(reread!.note, "none");
  },
  { file: true },
);

dbTest(
  "the framework's own tables are made in the sync and made again when dropped by hand",
  async (db) => {
    const first = await db.open({ collections: { Posts: posts } });
    assert.ok((await columns(first, "_strata_changes")).includes("seq"));
    await first.close();
    const second = await db.open({ collections: { Posts: posts } });
    await second.close();
    await byHand(db, `drop table "_strata_changes"`);
    const third = await db.open({ collections: { Posts: posts } });
    created(await third.query("Posts").create({ title: "logged" }));
    assert.ok((await columns(third, "_strata_changes")).includes("seq"));
  },
  { file: true },
);

dbTest(
  "snapshots rewritten by another program after a fingerprinted boot are written anew",
  async (db) => {
    // An earlier Strata rewrites every snapshot at each boot, without touching the schema.
    const first = await db.open({ collections: { Posts: posts } });
    const { rows: [stored] } = await sql<{ snapshot: string }>`
      select "snapshot" from "_strata_schema" where "collection" = 'Posts'`
      .execute(kyselyOf(first.db));
    await first.close();
    await byHand(
      db,
      `update "_strata_schema" set "snapshot" = '{"version":1,"fields":{},"indexes":[]}', "syncedAt" = 1`,
    );
    const second = await db.open({ collections: { Posts: posts } });
    const { rows: [again] } = await sql<{ snapshot: string }>`
      select "snapshot" from "_strata_schema" where "collection" = 'Posts'`
      .execute(kyselyOf(second.db));
    assert.equal(again.snapshot, stored.snapshot);
  },
  { file: true },
);

/**
 * Holds what a sync with work waits for, as another instance would: SQLite's write lock, or
 * PostgreSQL's advisory lock of the schema's sync. Returns the function releasing it.
 */
async function holdSyncLock(db: TestDatabase): Promise<() => Promise<void>> {
  if (db.dialect === "sqlite") {
    const handle = new DatabaseSync(db.url);
    handle.exec("begin immediate");
    return () => {
      handle.exec("rollback");
      handle.close();
      return Promise.resolve();
    };
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(
    `select pg_advisory_lock(hashtext('strata_schema_sync:' || $1))`,
    [db.pgSchema],
  );
  return () => client.end();
}

dbTest(
  "a restart with nothing to sync boots while another instance holds the sync's lock; a changed definition waits for it",
  async (db) => {
    // The restart's check is one read, in one snapshot of the database: a writing instance
    // (or a sync of other definitions) does not hold it up. A sync with work to do still
    // takes the lock, so it fails after busyTimeout while the lock stays held.
    const first = await db.open({ collections: { Posts: posts } });
    await first.close();
    const release = await holdSyncLock(db);
    try {
      const again = await db.open({
        busyTimeout: 50,
        collections: { Posts: posts },
      });
      assert.deepEqual(await again.query("Posts").findMany(), []);
      await again.close();
      await assert.rejects(
        db.open({
          busyTimeout: 50,
          collections: {
            Posts: defineCollection({
              fields: { ...posts.fields, subtitle: field("text") },
            }),
          },
        }),
        // The busy database's 503.
        (error: { status?: number }) => error.status === 503,
      );
    } finally {
      await release();
    }
  },
  { file: true },
);
