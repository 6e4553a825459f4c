import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  DeadlineExceeded,
  matchLike,
  registerSqliteFunctions,
  runWithDeadline,
  SAMPLE_ROWS,
  SAMPLED_DEADLINE_SQL,
} from "../../collections/db/sqlite_functions.ts";

Deno.test("matchLike agrees with SQLite's LIKE on exact-case input", () => {
  const db = new DatabaseSync(":memory:");
  // SQLite's own LIKE, made case-sensitive so that it compares exactly as matchLike does.
  db.exec("pragma case_sensitive_like = on");
  const like = db.prepare("select ? like ? as hit");
  const texts = [
    "",
    "a",
    "ab",
    "abc",
    "aXc",
    "abcabc",
    "a%b",
    "ä😀b",
    "😀",
    "aaab",
  ];
  const patterns = [
    "",
    "%",
    "_",
    "a%",
    "%c",
    "%b%",
    "a_c",
    "a%c",
    "%bc%bc",
    "a%a%b",
    "__",
    "_😀_",
    "%😀%",
    "ä_b",
    "%%",
    "abc",
    "a_%_",
  ];
  for (const text of texts) {
    for (const pattern of patterns) {
      const expected = (like.get(text, pattern) as { hit: number }).hit === 1;
      assert.equal(
        matchLike(text, pattern),
        expected,
        `${text} like ${pattern}`,
      );
    }
  }
});

Deno.test("pattern functions fold case like lower() and answer null for null", () => {
  const db = new DatabaseSync(":memory:");
  registerSqliteFunctions(db);
  const row = db.prepare(
    `select abs(strata_contains('Crème BRÛLÉE', 'brûlée')) as c,
    abs(strata_starts('Crème', 'cr')) as s, abs(strata_ends('Crème', 'ÈME')) as e,
    abs(strata_like('Crème', 'c_è%')) as l, strata_contains(null, 'x') as n`,
  ).get();
  assert.deepEqual({ ...row }, { c: 1, s: 1, e: 0, l: 1, n: null });
});

Deno.test("a statement past its deadline stops with DeadlineExceeded", () => {
  const db = new DatabaseSync(":memory:");
  registerSqliteFunctions(db);
  const endless = db.prepare(
    `with recursive c(x) as (select 1 union all select x + 1 from c)
     select count(*) from c where abs(strata_deadline())`,
  );
  assert.throws(
    () => runWithDeadline(50, () => endless.get()),
    DeadlineExceeded,
  );
  // The connection works afterwards, and without a deadline nothing stops.
  assert.deepEqual(
    { ...db.prepare("select abs(strata_deadline()) as ok").get() },
    { ok: 1 },
  );
  const long = "ab".repeat(200_000);
  const slow = db.prepare("select abs(strata_like(?, ?)) as hit");
  assert.throws(
    () =>
      runWithDeadline(0, () => slow.get(long, "%" + "_a".repeat(200) + "z%")),
    DeadlineExceeded,
  );
});

Deno.test("the sampled deadline check stops an endless scan of cheap rows", () => {
  const db = new DatabaseSync(":memory:");
  registerSqliteFunctions(db);
  const endless = db.prepare(
    `with recursive c(x) as (select 1 union all select x + 1 from c)
     select count(*) from c where ${SAMPLED_DEADLINE_SQL}`,
  );
  assert.throws(
    () => runWithDeadline(50, () => endless.get()),
    DeadlineExceeded,
  );
  // Without a deadline it only filters nothing.
  const some = db.prepare(
    `with recursive c(x) as (select 1 union all select x + 1 from c where x < 5000)
     select count(*) as n from c where ${SAMPLED_DEADLINE_SQL}`,
  );
  assert.deepEqual({ ...some.get() }, { n: 5000 });
});

Deno.test("strata_deadline(n) counts a call as n rows of work", () => {
  const db = new DatabaseSync(":memory:");
  registerSqliteFunctions(db);
  const rows = db.prepare(
    `with recursive c(x) as (select 1 union all select x + 1 from c where x < ?)
     select count(*) as n from c where abs(strata_deadline(${SAMPLE_ROWS}))`,
  );
  const work = 100 * SAMPLE_ROWS;
  // Already past the deadline (-1 ms), 99 calls stand for less than the minimum work: the
  // read goes on; the 100th call stops it.
  assert.deepEqual(
    { ...runWithDeadline(-1, () => rows.get(99), work) },
    { n: 99 },
  );
  assert.throws(
    () => runWithDeadline(-1, () => rows.get(100), work),
    DeadlineExceeded,
  );
});
