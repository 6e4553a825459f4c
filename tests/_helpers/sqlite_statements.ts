// Which statements node:sqlite runs, as the tests that check query plans need to see them.
import { StatementSync } from "node:sqlite";

/** A statement run through `StatementSync.prototype.all`, with its parameters. */
export interface SqliteRun {
  sql: string;
  parameters: unknown[];
}

/** The statements every node:sqlite connection of this process reads with `all` while `fn` runs. */
export async function sqliteReadsDuring(
  fn: () => Promise<unknown>,
): Promise<SqliteRun[]> {
  const seen: SqliteRun[] = [];
  const proto = StatementSync.prototype;
  const all = proto.all;
  proto.all = function (this: StatementSync, ...args: unknown[]) {
    seen.push({ sql: this.sourceSQL, parameters: args });
    return (all as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof proto.all;
  try {
    await fn();
  } finally {
    proto.all = all;
  }
  return seen;
}
