// Full-text search in the data layer: the syntax parser, the builder's search(), and schema
// sync building, filling (in batches, with progress lines), rebuilding and dropping indexes.
import assert from "node:assert/strict";
import { kyselyOf } from "../../collections/database.ts";
import { sql } from "kysely";
import { type DataLayer, defineCollection, field } from "./_imports.ts";
import { dbTest } from "./_helpers.ts";
import { parseSearch } from "../../collections/search/syntax.ts";
import { foldedWords, foldText } from "../../collections/search/fold.ts";
import { QueryError } from "../../collections/query_error.ts";

Deno.test("the search syntax: words, phrases, exclusions, prefixes, nothing else", () => {
  assert.deepEqual(parseSearch('Deno "File Routes" -draft rout* -"old news"'), {
    include: [
      { words: ["deno"], prefix: false },
      { words: ["file", "routes"], prefix: false },
      { words: ["rout"], prefix: true },
    ],
    exclude: [
      { words: ["draft"], prefix: false },
      { words: ["old", "news"], prefix: false },
    ],
  });
  // Everything else is text: operators of FTS5 and tsquery are plain words or separators.
  assert.deepEqual(
    parseSearch("NEAR(a b) AND x:y {c}").include.map((t) => t.words),
    [
      ["near", "a"],
      ["b"],
      ["and"],
      ["x", "y"],
      ["c"],
    ],
  );
  assert.deepEqual(parseSearch('"unclosed phrase').include, [
    { words: ["unclosed", "phrase"], prefix: false },
  ]);
  assert.deepEqual(parseSearch("foo-bar*").include, [
    { words: ["foo", "bar"], prefix: true },
  ]);
  for (const text of ["", "   ", "!!!", "-a -b", '""', "*", "- -"]) {
    assert.throws(
      () => parseSearch(text),
      (error: unknown) =>
        error instanceof QueryError && error.code === "invalidValue",
      JSON.stringify(text),
    );
  }
  assert.equal(foldText("Ÿ Ǆ ﬁ Ⅸ Ωmega"), "y dz fi ix ωmega");
  assert.deepEqual(foldedWords("l'été—déjà vu"), ["l", "ete", "deja", "vu"]);
});

function tableNames(data: DataLayer): Promise<string[]> {
  const db = kyselyOf(data.db);
  return (data.dialect === "postgres"
    ? sql<
      { name: string }
    >`select table_name as name from information_schema.tables
        where table_schema = current_schema()`.execute(db)
    : sql<{ name: string }>`select name from sqlite_master where type = 'table'`
      .execute(db)).then((r) => r.rows.map((row) => row.name).sort());
}

async function columns(data: DataLayer, table: string): Promise<string[]> {
  const db = kyselyOf(data.db);
  const rows = data.dialect === "postgres"
    ? await sql<
      { name: string }
    >`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table}`
      .execute(db)
    : await sql<{ name: string }>`select name from pragma_table_info(${table})`
      .execute(db);
  return rows.rows.map((r) => r.name).sort();
}

/** Runs `fn` with console.log captured; returns its result and the lines. */
async function logged<T>(fn: () => Promise<T>): Promise<[T, string[]]> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(" "));
  try {
    return [await fn(), lines];
  } finally {
    console.log = log;
  }
}

const plainPosts = (search: boolean) => ({
  Posts: defineCollection({
    fields: {
      title: field("text", { search }),
      views: field("integer", { default: 0 }),
    },
  }),
});

dbTest(
  "schema sync fills a new index in batches, rebuilds and drops it",
  async (db) => {
    const first = await db.open({ collections: plainPosts(false) });
    const rows = Array.from({ length: 4500 }, (_, i) => ({
      UUID: crypto.randomUUID(),
      _updatedAt: 0,
      title: i % 100 === 0 ? `needle ${i}` : `hay ${i}`,
      views: 0,
    }));
    for (let at = 0; at < rows.length; at += 500) {
      await kyselyOf(first.db).insertInto("Posts").values(
        rows.slice(at, at + 500),
      )
        .execute();
    }
    await first.close();
    const [second, lines] = await logged(() =>
      db.open({ collections: plainPosts(true) })
    );
    assert.deepEqual(lines, [
      "Posts: indexed 2000/4500",
      "Posts: indexed 4000/4500",
      "Posts: indexed 4500/4500",
    ]);
    assert.equal(await second.query("Posts").search("needle").count(), 45);
    assert.equal(await second.query("Posts").search("hay").count(), 4455);
    await second.query("Posts").where({ title: "hay 1" }).update({
      title: "needle again",
    });
    assert.equal(await second.query("Posts").search("needle").count(), 46);
    // A rolled-back write leaves nothing in the index.
    await assert.rejects(
      second.transaction(async () => {
        await second.query("Posts").create({ title: "needle rolled back" });
        assert.equal(await second.query("Posts").search("rolled").count(), 1);
        throw new Error("undo");
      }),
      /undo/,
    );
    assert.equal(await second.query("Posts").search("rolled").count(), 0);
    await second.close();
    // Unchanged: nothing is rebuilt.
    const [third, quiet] = await logged(() =>
      db.open({ collections: plainPosts(true) })
    );
    assert.deepEqual(quiet, []);
    assert.equal(await third.query("Posts").search("needle").count(), 46);
    await third.close();
    // Removing `search` drops the index and its column.
    const fourth = await db.open({ collections: plainPosts(false) });
    if (db.dialect === "postgres") {
      assert.deepEqual(await columns(fourth, "Posts"), [
        "UUID",
        "_updatedAt",
        "title",
        "views",
      ]);
    } else {
      assert.deepEqual(
        (await tableNames(fourth)).filter((t) => t.includes("search")),
        [],
      );
    }
    await assert.rejects(
      async () => await fourth.query("Posts").search("needle").count(),
      (error: unknown) =>
        error instanceof QueryError && error.code === "searchNotAvailable",
    );
    await fourth.query("Posts").create({ title: "needle while off" });
    await fourth.close();
    // Turning it on again indexes what was written meanwhile.
    const [fifth] = await logged(() =>
      db.open({ collections: plainPosts(true) })
    );
    assert.equal(await fifth.query("Posts").search("needle").count(), 47);
  },
  { file: true },
);

dbTest(
  "a field moving into the translations or out of search rebuilds the index",
  async (db) => {
    const definition = (translatable: boolean, bodySearch: boolean) => ({
      Notes: defineCollection({
        fields: {
          title: field("text", { search: true, translatable }),
          body: field("text", { search: bodySearch, nullable: true }),
        },
      }),
    });
    const first = await db.open({ collections: definition(false, true) });
    await first.query("Notes").create({ title: "alpha", body: "beta" });
    await first.close();
    const [second, built] = await logged(() =>
      db.open({
        collections: definition(true, true),
        locales: ["en", "de"],
        sync: { force: true },
      })
    );
    assert.deepEqual(built, [
      "Notes: indexed 1/1",
      "Notes (translations): indexed 1/1",
    ]);
    assert.equal(await second.query("Notes").search("alpha").count(), 1);
    assert.equal(await second.query("Notes").search("alpha beta").count(), 1);
    assert.equal(
      await second.query("Notes").locale("de").search("alpha").count(),
      0,
    );
    assert.equal(
      await second.query("Notes").locale("de").search("beta").count(),
      1,
    );
    await second.close();
    const [third] = await logged(() =>
      db.open({ collections: definition(true, false), locales: ["en", "de"] })
    );
    assert.equal(await third.query("Notes").search("beta").count(), 0);
    await assert.rejects(
      async () =>
        await third.query("Notes").search("x", { fields: ["body"] }).count(),
      (error: unknown) =>
        error instanceof QueryError && error.code === "invalidField",
    );
    if (db.dialect === "postgres") {
      assert.deepEqual(await columns(third, "Notes"), [
        "UUID",
        "_updatedAt",
        "body",
      ]);
    }
  },
  { file: true },
);

dbTest(
  "search on a field that is not text fails the boot naming it",
  async (db) => {
    await assert.rejects(
      () =>
        db.open({
          collections: {
            Posts: defineCollection({
              fields: { views: field("integer", { search: true }) },
            }),
          },
        }),
      /Posts\.views/,
    );
  },
);

dbTest(
  "the builder: search with where, order, paging, fields; refuses updates",
  async (db) => {
    const data = await db.open({
      collections: {
        Posts: defineCollection({
          fields: {
            title: field("text", { search: true }),
            body: field("text", { search: true, nullable: true }),
            views: field("integer", { default: 0 }),
          },
        }),
      },
    });
    const posts = data.query("Posts");
    await posts.create({ title: "deno routes", body: "file based", views: 1 });
    await posts.create({ title: "node", body: "deno deno deno", views: 2 });
    await posts.create({ title: "bun", body: "other", views: 3 });
    const titles = (records: readonly object[]) =>
      records.map((r) => (r as Record<string, unknown>).title);
    assert.deepEqual(titles(await posts.search("deno").findMany()), [
      "node",
      "deno routes",
    ]);
    assert.deepEqual(
      titles(await posts.search("deno").order("views").findMany()),
      ["deno routes", "node"],
    );
    assert.deepEqual(
      titles(await posts.search("deno").where("views", ">", 1).findMany()),
      ["node"],
    );
    assert.deepEqual(
      titles(await posts.search("deno", { fields: ["title"] }).findMany()),
      ["deno routes"],
    );
    const page = await posts.search("deno").paginate(2, 1);
    assert.deepEqual([page.total, titles(page.records)], [2, ["deno routes"]]);
    assert.equal((await posts.search("deno").findFirst())?.title, "node");
    await assert.rejects(
      async () => await posts.order("-_relevance").findMany(),
      (error: unknown) =>
        error instanceof QueryError && error.code === "invalidField",
    );
    await assert.rejects(
      async () => await posts.search("deno").update({ views: 0 }),
      (error: unknown) => error instanceof QueryError,
    );
    assert.throws(
      () => posts.search("   "),
      (error: unknown) =>
        error instanceof QueryError && error.code === "invalidValue",
    );
    const removed = await posts.search("bun").delete();
    assert.deepEqual(titles(removed.records), ["bun"]);
    assert.equal(await posts.count(), 2);
  },
);
