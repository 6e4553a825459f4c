// Every read shape the collections API generates over an indexed field is served by an
// index: the statements a request runs are captured and explained (PostgreSQL `EXPLAIN`,
// SQLite `EXPLAIN QUERY PLAN`). On PostgreSQL sequential scans and sorts are priced out, so
// a plan with a Sort or a Seq Scan means no index can serve the statement at all.
import assert from "node:assert/strict";
import { sqliteReadsDuring } from "../_helpers/sqlite_statements.ts";
import pg from "pg";
import { CompiledQuery, sql } from "kysely";
import type { App } from "../../mod.ts";
import { kyselyOf } from "../../collections/database.ts";
import { type Client, dbAppTest } from "../_helpers/db_apps.ts";

interface Captured {
  sql: string;
  parameters: unknown[];
}

/**
 * Records the SELECTs `app` runs while `fn` runs, but those of the framework's background
 * work (mail outbox, change log, webhook and hook runs: the `_strata_` tables), which may
 * poll at any moment and are not the request's.
 */
async function capture(
  dialect: "sqlite" | "postgres",
  fn: () => Promise<void>,
): Promise<Captured[]> {
  const seen: Captured[] = [];
  if (dialect === "sqlite") {
    seen.push(...await sqliteReadsDuring(fn));
  } else {
    const proto = pg.Client.prototype as unknown as {
      query: (...args: unknown[]) => unknown;
    };
    const query = proto.query;
    proto.query = function (this: unknown, ...args: unknown[]) {
      if (typeof args[0] === "string") {
        seen.push({
          sql: args[0],
          parameters: (args[1] as unknown[] | undefined) ?? [],
        });
      } else if (typeof (args[0] as { text?: unknown })?.text === "string") {
        // A named prepared statement: `{ name, text, values }`.
        const { text, values } = args[0] as {
          text: string;
          values?: unknown[];
        };
        seen.push({ sql: text, parameters: values ?? [] });
      }
      return query.apply(this, args);
    };
    try {
      await fn();
    } finally {
      proto.query = query;
    }
  }
  return seen.filter((s) =>
    /^\s*select\b/i.test(s.sql) && !/"_strata_/.test(s.sql)
  );
}

/** The plan of one statement as text, one node per line. */
async function explain(
  app: App,
  dialect: "sqlite" | "postgres",
  statement: Captured,
): Promise<string> {
  if (dialect === "sqlite") {
    const { rows } = await kyselyOf(app.db).executeQuery<{ detail: string }>(
      CompiledQuery.raw(
        "explain query plan " + statement.sql,
        statement.parameters,
      ),
    );
    return rows.map((r) => r.detail).join("\n");
  }
  return await app.data.transaction(async () => {
    const db = kyselyOf(app.data.executor());
    await sql`set local enable_seqscan = off`.execute(db);
    await sql`set local enable_sort = off`.execute(db);
    await sql`set local enable_incremental_sort = off`.execute(db);
    const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw("explain " + statement.sql, statement.parameters),
    );
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  });
}

/** Fails unless every captured statement's plan is served by indexes without sorting. */
async function assertIndexed(
  app: App,
  dialect: "sqlite" | "postgres",
  statements: Captured[],
  expected: RegExp[],
): Promise<void> {
  assert.ok(statements.length > 0, "no statement captured");
  const plans: string[] = [];
  for (const statement of statements) {
    const plan = await explain(app, dialect, statement);
    plans.push(plan);
    const where = `${statement.sql}\n${plan}`;
    if (dialect === "sqlite") {
      assert.doesNotMatch(plan, /USE TEMP B-TREE/, where);
      assert.doesNotMatch(plan, /^SCAN (m|"?\w+"?)$/m, where);
    } else {
      assert.doesNotMatch(plan, /\bSort\b/, where);
      assert.doesNotMatch(plan, /Seq Scan/, where);
    }
  }
  const all = plans.join("\n");
  for (const pattern of expected) assert.match(all, pattern, all);
}

const ROWS = 300;

/** Seeds authors, tags and posts (some with NULL ratings, a German title on a few). */
async function seed(client: Client): Promise<{ post: string; author: string }> {
  const { app } = client;
  const authors: string[] = [];
  for (let i = 0; i < 10; i++) {
    const made = await app.query("Authors").create({ name: `author ${i}` });
    assert.ok(made.ok);
    authors.push(made.record.UUID);
  }
  const tags: string[] = [];
  for (let i = 0; i < 5; i++) {
    const made = await app.query("Tags").create({ label: `tag ${i}` });
    assert.ok(made.ok);
    tags.push(made.record.UUID);
  }
  let post = "";
  await app.data.transaction(async () => {
    for (let i = 0; i < ROWS; i++) {
      const made = await app.query("Posts").create({
        title: `post ${i}`,
        views: i % 50,
        rating: i % 7 === 0 ? null : i / 10,
        slug: `post-${i}`,
        author: authors[i % authors.length],
        tags: [tags[i % tags.length]],
      });
      assert.ok(made.ok, JSON.stringify(made));
      post ||= made.record.UUID;
    }
  });
  await app.query("Posts").where({ UUID: post }).locale("de").update({
    title: "Beitrag",
  });
  await sql`analyze`.execute(kyselyOf(app.db));
  return { post, author: authors[0] };
}

function get(client: Client, path: string): () => Promise<void> {
  return async () => {
    const answer = await client.req("GET", path);
    assert.equal(answer.status, 200, answer.text);
  };
}

dbAppTest("plans: every list shape is served by an index", "plans_app", async (
  client,
  dialect,
) => {
  const { app } = client;
  const { post, author } = await seed(client);
  const views = /Posts__views_UUID__idx/;
  const cases: [string, RegExp[]][] = [
    ["/collections/posts?order=[-views]&limit=20", [views]],
    ["/collections/posts?order=[views]&limit=20", [views]],
    ["/collections/posts?order=[-rating]&limit=20", [
      /Posts__rating_UUID__idx/,
    ]],
    ["/collections/posts?order=[rating]&limit=20", [/Posts__rating_UUID__idx/]],
    [
      "/collections/posts?where={views:{atLeast:40}}&order=[-views]&limit=20",
      [views],
    ],
    [
      `/collections/posts?where={author:"${author}"}&order=[-views]&limit=20`,
      [/Posts__author_views_UUID__idx/],
    ],
    ["/collections/posts?order=[slug]&limit=20", [/Posts__slug__uniq/]],
    ["/collections/posts?order=[-UUID]&limit=20", [/Posts/]],
    [
      "/collections/posts?where={views:{atLeast:45}}&order=[-views]&page=2&perPage=10",
      [views],
    ],
    [`/collections/posts/${post}`, [/Posts/]],
    [`/collections/posts/${post}?locale=de&populate=[author]`, [/Authors/]],
    [
      "/collections/posts?order=[-views]&limit=5&populate=[author,tags]",
      [views, /Authors/, /Tags/],
    ],
    [
      `/collections/posts?where={author:{has:{name:"author 1"}}}&order=[-views]&limit=5`,
      [views],
    ],
    [
      `/collections/posts?where={tags:{has:{label:"tag 1"}}}&order=[-views]&limit=5`,
      [views],
    ],
    [`/collections/posts?locale=de&order=[-views]&limit=5`, [views]],
  ];
  for (const [path, expected] of cases) {
    const statements = await capture(dialect, get(client, path));
    await assertIndexed(app, dialect, statements, expected).catch((error) => {
      throw new Error(`${path}: ${error.message}`);
    });
  }
});
