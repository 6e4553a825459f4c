/**
 * Helpers of the change events tests: the `events_app` fixture booted through the auth
 * harness (SQLite on a shared file, PostgreSQL in a fresh schema), and reads of the log.
 *
 * @module
 */
import { kyselyOf } from "../../collections/database.ts";
import type { App } from "../../mod.ts";
import type { ChangeEvent } from "../../collections/changes/log.ts";
import { fixture } from "../auth/_helpers.ts";

export {
  ADMIN,
  ask,
  authTest as eventsTest,
  createUser,
  install,
  login,
  send,
} from "../auth/_helpers.ts";

/** The fixture app of these tests. */
export const EVENTS_APP: string = fixture("events_app");

/** Every change in the log, oldest first, without `seq` and `at` (for deepEqual). */
export async function logOf(
  app: App,
): Promise<Omit<ChangeEvent, "seq" | "at">[]> {
  const rows = await kyselyOf(app.db).selectFrom("_strata_changes")
    .selectAll().orderBy("seq").execute() as Record<string, unknown>[];
  return rows.map((row) => ({
    collection: row.collection as string,
    uuid: row.uuid as string,
    op: row.op as ChangeEvent["op"],
    changed: JSON.parse(row.changed as string),
    locale: (row.locale ?? null) as string | null,
    actor: (row.actor ?? null) as string | null,
  }));
}

/** Empties the log (so a test looks at its own writes only). */
export async function clearLog(app: App): Promise<void> {
  await kyselyOf(app.db).deleteFrom("_strata_changes").execute();
}

/** Waits until `check` holds (polling every 10 ms), failing after `ms`. */
export async function eventually(
  check: () => boolean,
  ms = 20_000,
  what: string | (() => string) = "the condition",
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out waiting for ${typeof what === "string" ? what : what()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
