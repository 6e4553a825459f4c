// The change log's bounds are read at every poll of the feed: off the key's b-tree, never by
// a scan of the whole log (which grows to maxRows, a million rows by default).
import assert from "node:assert/strict";
import { defineCollection, field } from "./_imports.ts";
import { created, dataTest } from "./_helpers.ts";
import { sqliteReadsDuring } from "../_helpers/sqlite_statements.ts";
import { changeBounds } from "../../collections/changes/log.ts";
import { kyselyOf } from "../../collections/database.ts";

const collections = {
  Notes: defineCollection({ fields: { title: field("text") } }),
};

dataTest(
  "changeBounds answers the oldest and newest seq, on SQLite without scanning the log",
  { collections },
  async (data) => {
    const db = kyselyOf(data.db);
    assert.deepEqual(await changeBounds(db), { oldest: null, newest: null });
    for (const title of ["a", "b", "c"]) {
      created(await data.query("Notes").create({ title }));
    }
    let bounds;
    const reads = await sqliteReadsDuring(async () => {
      bounds = await changeBounds(db);
    });
    assert.equal(bounds!.newest! - bounds!.oldest!, 2);
    if (data.dialect !== "sqlite") return;
    assert.equal(reads.length, 1);
    const plan = data.reader!.readArrays(
      `explain query plan ${reads[0].sql}`,
      reads[0].parameters,
    )!.map((row) => String(row[3]));
    assert.ok(plan.length > 0);
    assert.deepEqual(
      plan.filter((detail) => detail.startsWith("SCAN _strata_changes")),
      [],
      plan.join("\n"),
    );
  },
);
