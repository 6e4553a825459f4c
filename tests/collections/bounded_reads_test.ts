// On SQLite under a query deadline, a count or a window that cannot run long goes without
// the sampled per-row deadline check (collections/_bounded_reads.ts); every statement that
// could run long keeps it, so the deadline still stops it and still moves it off the event
// loop. The statements a read runs are captured and looked at, with their plans.
import assert from "node:assert/strict";
import {
  sqliteReadsDuring,
  type SqliteRun,
} from "../_helpers/sqlite_statements.ts";
import { CompiledQuery, sql } from "kysely";
import {
  BOUNDED_ROWS,
  MAX_WINDOW,
  MIN_TIMEOUT_MS,
  walksOneCoveringIndex,
  walksOneIndexInOrder,
} from "../../collections/_bounded_reads.ts";
import { withQueryTimeout } from "../../collections/db/deadline.ts";
import { kyselyOf } from "../../collections/database.ts";
import {
  type DataLayer,
  defineCollection,
  field,
  openDataLayer,
  type Page,
} from "./_imports.ts";

const collections = {
  Posts: defineCollection({
    fields: {
      views: field("integer", { index: true }),
      rating: field("integer", { nullable: true }),
      title: field("text", { nullable: true, translatable: true }),
    },
  }),
};

async function withPosts(
  rows: number,
  fn: (data: DataLayer) => Promise<void>,
): Promise<void> {
  const data = await openDataLayer({
    url: ":memory:",
    collections,
    locales: ["en", "de"],
  });
  try {
    await data.transaction(async () => {
      for (let i = 0; i < rows; i++) {
        const made = await data.query("Posts").create({
          views: i,
          rating: i % 5,
          title: `post ${i}`,
        });
        assert.ok(made.ok);
      }
    });
    await fn(data);
  } finally {
    await data.close();
  }
}

type Run = SqliteRun;

/** The reads of Posts that `fn` runs (not the judges' own `explain` and span reads). */
async function reads(fn: () => Promise<unknown>): Promise<Run[]> {
  return (await sqliteReadsDuring(fn)).filter((run) =>
    /^select\b/.test(run.sql) && run.sql.includes(`from "Posts" as "m"`)
  );
}

const checked = (run: Run) => run.sql.includes("strata_deadline");

/**
 * The runs of the first of up to 20 tries of `fn` in which `done` holds for the statement:
 * a judge that finds the connection held by another transaction judges another time (the
 * data layer's own background work may hold it for a moment).
 */
async function judged(
  fn: () => Promise<Run[]>,
  done = (sql: string) => !sql.includes("strata_deadline"),
): Promise<Run[]> {
  let runs: Run[] = [];
  for (let i = 0; i < 20; i++) {
    runs = await fn();
    if (runs.length === 1 && done(runs[0].sql)) return runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return runs;
}

/** The plan of a captured statement, one node per line. */
async function plan(data: DataLayer, run: Run): Promise<string[]> {
  const { rows } = await kyselyOf(data.executor()).executeQuery<
    { detail: string }
  >(
    CompiledQuery.raw(`explain query plan ${run.sql}`, run.parameters),
  );
  return rows.map((row) => row.detail);
}

Deno.test("plan judges: one covering index walk; one index walk in order, every term a bound", () => {
  const covering =
    "SEARCH m USING COVERING INDEX Posts__views_UUID__idx (views>?)";
  assert.equal(walksOneCoveringIndex([covering]), true);
  assert.equal(
    walksOneCoveringIndex([
      "SCAN m USING COVERING INDEX Posts__views_UUID__idx",
    ]),
    true,
  );
  // A table row read per entry, a second node, a table scan: not a covering walk.
  assert.equal(
    walksOneCoveringIndex([
      "SEARCH m USING INDEX Posts__views_UUID__idx (views>?)",
    ]),
    false,
  );
  assert.equal(walksOneCoveringIndex([covering, "SCALAR SUBQUERY 1"]), false);
  assert.equal(walksOneCoveringIndex(["SCAN m"]), false);

  const walk =
    "SEARCH m USING INDEX Posts__views_UUID__idx (views>? AND views<?)";
  assert.equal(walksOneIndexInOrder([walk], 2), true);
  assert.equal(
    walksOneIndexInOrder([
      walk,
      "SEARCH t USING INDEX sqlite_autoindex_Posts__translations_1 (record=? AND locale=?) LEFT-JOIN",
    ], 2),
    true,
  );
  // A condition term the walk is not bounded by filters rows: a limit no longer bounds it.
  assert.equal(walksOneIndexInOrder([walk], 3), false);
  assert.equal(walksOneIndexInOrder(["SCAN m"], 0), true);
  assert.equal(walksOneIndexInOrder(["SCAN m"], 1), false);
  assert.equal(
    walksOneIndexInOrder(["SCAN m", "USE TEMP B-TREE FOR ORDER BY"], 0),
    false,
  );
  assert.equal(
    walksOneIndexInOrder([walk, "CORRELATED SCALAR SUBQUERY 1"], 2),
    false,
  );
  assert.equal(walksOneIndexInOrder([], 0), false);
});

Deno.test("a page over an indexed range runs without the check, and its plan is the bounded one", async () => {
  await withPosts(60, async (data) => {
    let page: Page | undefined;
    const runs = await judged(() =>
      reads(async () => {
        page = await withQueryTimeout(
          10_000,
          () =>
            data.query("Posts").where({ views: { atLeast: 20 } })
              .order("-views").paginate(2, 5),
        );
      })
    );
    assert.equal(page!.total, 40);
    assert.deepEqual(page!.records.map((r) => r.views), [54, 53, 52, 51, 50]);
    assert.equal(runs.length, 1, JSON.stringify(runs));
    assert.equal(checked(runs[0]), false, runs[0].sql);
    // What was judged is what runs: the page walks the views index in order (a limit
    // stops it), its total walks the covering index of a table far below the bound.
    const nodes = await plan(data, runs[0]);
    assert.equal(nodes.length, 4, nodes.join("\n"));
    assert.equal(walksOneIndexInOrder(nodes.slice(0, 2), 1), true, nodes[0]);
    assert.match(nodes[2], /^SCALAR SUBQUERY/);
    assert.equal(walksOneCoveringIndex(nodes.slice(3)), true, nodes[3]);
    assert.ok(60 <= BOUNDED_ROWS);
  });
});

Deno.test("reads that could run long keep the sampled check", async () => {
  await withPosts(30, async (data) => {
    const posts = () => data.query("Posts");
    const under = (ms: number, fn: () => Promise<unknown>) =>
      reads(() => withQueryTimeout(ms, fn));
    // Not indexed: the count and the page scan the table.
    for (
      const run of await under(
        10_000,
        () =>
          posts().where({ rating: { atLeast: 2 } }).order("-views").paginate(
            1,
            5,
          ),
      )
    ) assert.equal(checked(run), true, run.sql);
    // A term the index does not bound: the walk filters rows, a limit does not bound it.
    for (
      const run of await under(
        10_000,
        () =>
          posts().where({ views: { atLeast: 2 }, rating: 3 }).order("-views")
            .limit(3).findMany(),
      )
    ) assert.equal(checked(run), true, run.sql);
    // A pattern function, and a sort of every match.
    for (
      const run of await under(
        10_000,
        () =>
          posts().locale("en").where({ title: { contains: "post" } }).count(),
      )
    ) assert.equal(checked(run), true, run.sql);
    for (
      const run of await under(
        10_000,
        () => posts().order("rating").limit(3).findMany(),
      )
    ) assert.equal(checked(run), true, run.sql);
    // A window past the bound, and no limit at all.
    for (
      const run of await under(
        10_000,
        () => posts().order("-views").limit(5).offset(MAX_WINDOW).findMany(),
      )
    ) assert.equal(checked(run), true, run.sql);
    for (
      const run of await under(
        10_000,
        () => posts().where({ views: { atLeast: 2 } }).findMany(),
      )
    ) assert.equal(checked(run), true, run.sql);
    // A deadline too short to spend on a walk, however bounded.
    for (
      const run of await under(
        MIN_TIMEOUT_MS - 1,
        () =>
          posts().where({ views: { atLeast: 2 } }).order("-views").paginate(
            1,
            5,
          ),
      )
    ) assert.equal(checked(run), true, run.sql);
    // Without a deadline nothing is checked, as before.
    for (
      const run of await reads(() =>
        posts().where({ rating: { atLeast: 2 } }).count()
      )
    ) assert.equal(checked(run), false, run.sql);
  });
});

Deno.test("a count over a table that may hold more rows than the bound keeps the check", async () => {
  await withPosts(10, async (data) => {
    // Rowids far apart: the table may hold up to the span's rows, as far as a read can tell.
    const [first] = await data.query("Posts").order("views").limit(1)
      .findMany();
    await sql`update "Posts" set rowid = ${
      BOUNDED_ROWS + 10
    } where "UUID" = ${first.UUID}`
      .execute(kyselyOf(data.executor()));
    const runs = await judged(
      () =>
        reads(() =>
          withQueryTimeout(
            10_000,
            () =>
              data.query("Posts").where({ views: { atLeast: 3 } })
                .order("-views").paginate(1, 5),
          )
        ),
      (sql) => !sql.split(`as "__strata_total"`)[1].includes("strata_deadline"),
    );
    assert.equal(runs.length, 1);
    const [total, read] = runs[0].sql.split(`as "__strata_total"`);
    // The total is checked; the page itself is still a bounded walk.
    assert.equal(total.includes("strata_deadline"), true, runs[0].sql);
    assert.equal(read.includes("strata_deadline"), false, runs[0].sql);
  });
});
