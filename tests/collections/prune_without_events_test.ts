// Without a collection that has events the change log is not made: pruning it has nothing
// to do, where it failed on the missing sweep table (each minute, silently, from the timer).
import assert from "node:assert/strict";
import { defineCollection, field } from "./_imports.ts";
import { dbTest } from "./_helpers.ts";

const collections = {
  Quiet: defineCollection({ fields: { title: field("text") }, events: false }),
};

dbTest("pruneChanges without a collection that has events", async (db) => {
  const data = await db.open({ collections });
  await data.query("Quiet").create({ title: "a" });
  assert.equal(await data.pruneChanges(), false);
  assert.equal(data.feed.running, false);
});

dbTest("pruneChanges without any collection", async (db) => {
  const data = await db.open({ collections: {} });
  assert.equal(await data.pruneChanges(), false);
});
