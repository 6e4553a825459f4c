// A query the grammar allows (one `like` of 403 bytes, within the default guards) that is
// slow on every database over long values: each other position of LONG_TEXT starts a long
// near-match of SLOW_PATTERN.
import assert from "node:assert/strict";
import type { App } from "../../mod.ts";

export const LONG_TEXT = "ab".repeat(200_000);
export const SLOW_PATTERN = "%" + "_a".repeat(200) + "z%";

/** The list of Notes (UUIDs only) filtered by {@link SLOW_PATTERN}. */
export const SLOW_LIST_PATH = `/collections/notes?select=[UUID]&where=${
  encodeURIComponent(`{body:{like:\`${SLOW_PATTERN}}}`)
}`;

/** Creates `count` Notes holding {@link LONG_TEXT}; answers the first one's UUID. */
export async function seedLongNotes(app: App, count: number): Promise<string> {
  let first = "";
  await app.data.transaction(async () => {
    for (let i = 0; i < count; i++) {
      const made = await app.query("Notes").create({ body: LONG_TEXT });
      assert.ok(made.ok);
      first ||= made.record.UUID;
    }
  });
  return first;
}
