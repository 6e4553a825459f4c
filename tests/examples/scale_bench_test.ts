// The scale bench asks the same list of Strata and of the query written by hand on the
// driver, and refuses to measure when they list different rows; a short run over two sizes
// gives a row per size and the flatness row on each database (PostgreSQL when
// STRATA_TEST_POSTGRES is set). No figure is judged here: timings are the bench's, not a test's.
import assert from "node:assert/strict";
import { scaleBench } from "../../bench/scale/run.ts";
import { PG_URL } from "../_helpers/db_apps.ts";

Deno.test("scale bench: Strata and the driver list the same rows at each size", async () => {
  const previous = Deno.env.get("BENCH_DATABASES");
  Deno.env.set("BENCH_DATABASES", PG_URL ? "sqlite,postgres" : "sqlite");
  try {
    const report = await scaleBench({
      sizes: [100, 1_000],
      requests: 5,
      rounds: 1,
    });
    const labels = PG_URL ? ["SQLite", "PostgreSQL"] : ["SQLite"];
    assert.equal(report.rows.length, labels.length * 3);
    for (const label of labels) {
      const rows = report.rows.filter((row) =>
        row.measure.startsWith(`${label}:`)
      );
      assert.equal(rows.length, 3);
      for (const row of rows) {
        assert.ok(row.ours > 0 && row.peerValue > 0, row.measure);
      }
      // Two sizes a decade apart are no 1k-to-1M span: reported, not judged.
      assert.equal(rows[2].max, undefined);
      assert.match(rows[2].measure, /median at 1k rows/);
    }
  } finally {
    if (previous === undefined) Deno.env.delete("BENCH_DATABASES");
    else Deno.env.set("BENCH_DATABASES", previous);
  }
});
