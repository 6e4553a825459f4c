// Reads of one shape run again and again with new values (the SQLite read compiles its
// selection, join and window once per shape): every run must answer for its own values.
import assert from "node:assert/strict";
import {
  type DataRecord,
  defineCollection,
  field,
  QueryError,
} from "./_imports.ts";
import { created, dataTest } from "./_helpers.ts";

const options = {
  locales: ["en", "de"],
  collections: {
    Posts: defineCollection({
      fields: {
        title: field("text", { translatable: true, nullable: true }),
        views: field("integer"),
        published: field("boolean"),
      },
    }),
  },
};

dataTest(
  "one read shape answers for each run's own values, window and locale",
  options,
  async (data) => {
    const posts = data.query("Posts");
    for (let i = 0; i < 10; i++) {
      const post = created(
        await posts.create({
          title: `en ${i}`,
          views: i,
          published: i % 2 === 0,
        }),
      );
      await posts.where({ UUID: post.UUID }).locale("de").update({
        title: `de ${i}`,
      });
    }
    const views = (records: DataRecord[]) => records.map((r) => r.views);
    for (const min of [2, 5, 8]) {
      assert.deepEqual(
        views(
          await posts.where({ views: { atLeast: min } }).order("-views")
            .limit(2).findMany(),
        ),
        [9, 8],
      );
      assert.deepEqual(
        views(
          await posts.where({ views: { atMost: min } }).order("-views")
            .limit(2).offset(1).findMany(),
        ),
        [min - 1, min - 2],
      );
      // An offset without a limit, and the same filter with another window.
      assert.deepEqual(
        views(
          await posts.where({ views: { atMost: min } }).order("views")
            .offset(min - 1).findMany(),
        ),
        [min - 1, min],
      );
    }
    for (const published of [true, false]) {
      const found = await posts.where({ published }).order("views").findMany();
      assert.deepEqual(
        views(found),
        published ? [0, 2, 4, 6, 8] : [1, 3, 5, 7, 9],
      );
    }
    // No filter at all, then the locale of the join changing between runs.
    assert.equal((await posts.order("views").findMany()).length, 10);
    for (const [locale, prefix] of [["de", "de"], ["en", "en"], ["de", "de"]]) {
      const [first] = await posts.locale(locale).where({
        title: { startsWith: prefix },
      }).order("-views").limit(1).findMany();
      assert.equal(first.title, `${prefix} 9`);
    }
  },
);

dataTest(
  "an unknown order field is refused every time, not remembered",
  options,
  async (data) => {
    const posts = data.query("Posts");
    for (let i = 0; i < 2; i++) {
      await assert.rejects(
        posts.where({ views: { atLeast: i } }).order("-nope").findMany(),
        (error: unknown) =>
          error instanceof QueryError && error.code === "invalidField",
      );
    }
  },
);
