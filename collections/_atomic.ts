/**
 * Runs a write atomically: in a new transaction, or inside a savepoint of the caller's
 * transaction (so a refused write rolls back alone and leaves the caller's work intact).
 *
 * @module
 */

import { sql } from "kysely";
import type { LayerContext } from "./_context.ts";
import type { WriteErrors } from "./results.ts";

/** Thrown inside a write to roll it back and answer `{ ok: false, errors }`. */
export class Refusal extends Error {
  /** Field path → message. */
  readonly errors: WriteErrors;

  /** Creates the refusal. */
  constructor(errors: WriteErrors) {
    super("Write refused");
    this.errors = errors;
  }
}

let savepoints = 0;

/**
 * Runs `fn` atomically (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const result = await atomic(ctx, async () => {
 *   // … writes that commit or roll back together
 *   return 1;
 * });
 * ```
 */
export async function atomic<T>(
  ctx: LayerContext,
  fn: () => Promise<T>,
): Promise<T> {
  if (!ctx.inTransaction()) return await ctx.transaction(fn);
  const executor = ctx.executor();
  const name = sql.id(`strata_sp_${++savepoints}`);
  await sql`savepoint ${name}`.execute(executor);
  const mark = ctx.changeMark();
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    ctx.rewindChanges(mark);
    await sql`rollback to savepoint ${name}`.execute(executor);
    await sql`release savepoint ${name}`.execute(executor);
    throw error;
  }
  await sql`release savepoint ${name}`.execute(executor);
  return result;
}
