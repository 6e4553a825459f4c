/**
 * `record:afterCommit`: functions run once per committed change, on exactly one instance,
 * retried with backoff while they throw (at-least-once; `event.seq` is the idempotency key).
 *
 * Every instance reads the change log; for each change a function admits, instances race to
 * insert its run row `(hook, seq)` and only the one whose insert lands runs it. A failed run
 * stays `pending` with its next attempt time; any instance takes a due run (or one whose
 * claim expired: its instance died) by a conditional update. Each function keeps a cursor in
 * the database, so changes committed while no instance ran are still handled.
 *
 * @module
 */

import { type Kysely, sql } from "kysely";
import type { ChangeEvent } from "./log.ts";
import { changeBounds, CHANGES_TABLE, readChanges } from "./log.ts";
import type { ChangeFeed } from "./feed.ts";
import { createIfMissing } from "../db/create_if_missing.ts";
import { retryDelay, SerialWork } from "./retry.ts";
import { backgroundInterval } from "../../utils/_background_interval.ts";

/** The run rows: one per (function, change) taken by an instance. */
export const RUNS_TABLE = "_strata_hook_runs";
/** Per function, the newest seq its runs were taken up to. */
export const CURSORS_TABLE = "_strata_hook_cursors";

/** A `record:afterCommit` function with its stable id and filter. */
export interface AfterCommitHook {
  /** Stable name (its runs are kept under it). */
  readonly id: string;
  /** The function. */
  readonly fn: (event: ChangeEvent) => unknown;
  /** Whether it runs for a change of `collection` by `op`. */
  readonly matches: (collection: string, op: string) => boolean;
}

/** Options of {@link AfterCommitRunner}. */
export interface AfterCommitOptions {
  /** The database. */
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  /** The process's change feed (its wake-ups start a read). */
  readonly feed: ChangeFeed;
  /** The functions. */
  readonly hooks: readonly AfterCommitHook[];
  /** The clock (epoch ms). */
  readonly now: () => number;
  /** First retry delay in ms (then doubling, capped at an hour). */
  readonly retryBase: number;
  /** How long after the change a failing run is retried, in ms; then `failed`. */
  readonly retryFor: number;
}

const CLAIM_TTL = 60_000;
const BATCH = 500;

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * Creates the run tables when missing; safe when several instances boot at once.
 *
 * @example
 * ```ts ignore
 * await ensureRunTables(db);
 * ```
 */
export async function ensureRunTables(db: AnyKysely): Promise<void> {
  await createIfMissing(() =>
    db.schema.createTable(RUNS_TABLE).ifNotExists()
      .addColumn("hook", "text", (c) => c.notNull())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull())
      .addColumn("nextAt", "bigint", (c) => c.notNull())
      .addColumn("claimUntil", "bigint", (c) => c.notNull())
      .addColumn("lastError", "text")
      .addPrimaryKeyConstraint(`${RUNS_TABLE}__pk`, ["hook", "seq"])
      .execute()
  );
  await createIfMissing(() =>
    db.schema.createIndex(`${RUNS_TABLE}__status_nextAt__idx`).ifNotExists()
      .on(RUNS_TABLE).columns(["status", "nextAt"]).execute()
  );
  await createIfMissing(() =>
    db.schema.createTable(CURSORS_TABLE).ifNotExists()
      .addColumn("hook", "text", (c) => c.primaryKey())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .execute()
  );
}

/**
 * Runs the `record:afterCommit` functions of one instance (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const runner = new AfterCommitRunner({ db, feed, hooks, now: Date.now, retryBase: 30_000, retryFor: 86_400_000 });
 * await runner.start();
 * await runner.close();
 * ```
 */
export class AfterCommitRunner {
  readonly #options: AfterCommitOptions;
  readonly #cursors = new Map<string, number>();
  readonly #work: SerialWork;
  #position = 0;
  #stop: (() => void) | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #prunedAt = 0;

  /** Creates the runner (nothing runs until {@link AfterCommitRunner.start}). */
  constructor(options: AfterCommitOptions) {
    this.#options = options;
    // The database is away: the next wake-up tries again.
    this.#work = new SerialWork(
      () => this.#pass(),
      (error) => console.error("record:afterCommit:", error),
    );
  }

  /** Creates its tables, reads the cursors and starts following the feed. */
  async start(): Promise<void> {
    const { db, hooks, feed } = this.#options;
    await ensureRunTables(db);
    // A function seen for the first time starts with the changes committed from now on.
    const newest = (await changeBounds(db)).newest ?? 0;
    for (const { id } of hooks) {
      await db.insertInto(CURSORS_TABLE).values({ hook: id, seq: newest })
        .onConflict((oc) => oc.column("hook").doNothing()).execute();
    }
    const rows = await db.selectFrom(CURSORS_TABLE).select(["hook", "seq"])
      .where("hook", "in", hooks.map((h) => h.id)).execute() as {
        hook: string;
        seq: number | string;
      }[];
    for (const row of rows) this.#cursors.set(row.hook, Number(row.seq));
    this.#position = Math.min(...this.#cursors.values());
    this.#stop = await feed.subscribe(() => this.wake());
    const tick = Math.max(50, Math.min(this.#options.retryBase / 2, 5000));
    this.#timer = backgroundInterval(() => this.wake(), tick);
    this.wake();
  }

  /** Reads new changes and takes due retries now. */
  wake(): void {
    this.#work.wake();
  }

  /** Waits until the changes committed so far and the due retries were handled (tests). */
  settle(): Promise<void> {
    return this.#work.settle();
  }

  /** Stops; a run in progress finishes first. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#stop?.();
    await this.#work.close();
  }

  get #closed(): boolean {
    return this.#work.closed;
  }

  async #pass(): Promise<void> {
    await this.#readNew();
    await this.#retryDue();
    if (Date.now() - this.#prunedAt > 60_000) {
      this.#prunedAt = Date.now();
      await pruneRuns(this.#options.db);
    }
  }

  async #readNew(): Promise<void> {
    const { db, hooks, feed } = this.#options;
    while (!this.#closed) {
      // Up to the feed's position only: on PostgreSQL seqs past it may still be filled in.
      const events = await readChanges(
        db,
        this.#position,
        BATCH,
        feed.position,
      );
      if (events.length === 0) return;
      for (const event of events) {
        for (const hook of hooks) {
          if (event.seq <= (this.#cursors.get(hook.id) ?? 0)) continue;
          if (!hook.matches(event.collection, event.op)) continue;
          if (await this.#claimNew(hook, event)) {
            await this.#run(hook, event, 1);
          }
        }
      }
      const last = events[events.length - 1].seq;
      this.#position = last;
      for (const hook of hooks) {
        if ((this.#cursors.get(hook.id) ?? 0) >= last) continue;
        this.#cursors.set(hook.id, last);
        await db.updateTable(CURSORS_TABLE).set({ seq: last })
          .where("hook", "=", hook.id).where("seq", "<", last).execute();
      }
      if (events.length < BATCH) return;
    }
  }

  /** Inserts the run row; whether this instance won it. */
  async #claimNew(hook: AfterCommitHook, event: ChangeEvent): Promise<boolean> {
    const now = this.#options.now();
    const row = await this.#options.db.insertInto(RUNS_TABLE).values({
      hook: hook.id,
      seq: event.seq,
      status: "running",
      attempts: 1,
      nextAt: 0,
      claimUntil: now + CLAIM_TTL,
    }).onConflict((oc) => oc.columns(["hook", "seq"]).doNothing())
      .returning("seq").executeTakeFirst();
    return row !== undefined;
  }

  async #retryDue(): Promise<void> {
    const { db, hooks } = this.#options;
    const byId = new Map(hooks.map((h) => [h.id, h]));
    const now = this.#options.now();
    const due = await db.selectFrom(RUNS_TABLE)
      .select(["hook", "seq", "attempts"])
      .where("hook", "in", [...byId.keys()])
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "pending"), eb("nextAt", "<=", now)]),
          eb.and([
            eb("status", "=", "running"),
            eb("claimUntil", "<=", now),
          ]),
        ])
      ).orderBy("seq").limit(BATCH).execute() as {
        hook: string;
        seq: number | string;
        attempts: number;
      }[];
    for (const run of due) {
      if (this.#closed) return;
      const hook = byId.get(run.hook)!;
      const seq = Number(run.seq);
      // Taken only if still due and untouched: one instance wins.
      const taken = await db.updateTable(RUNS_TABLE).set({
        status: "running",
        attempts: run.attempts + 1,
        claimUntil: now + CLAIM_TTL,
      }).where("hook", "=", run.hook).where("seq", "=", seq)
        .where("attempts", "=", run.attempts)
        .where("status", "in", ["pending", "running"])
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      const event = await changeAt(db, seq);
      if (!event) {
        await this.#finish(hook.id, seq, "failed", "The change was pruned");
        continue;
      }
      await this.#run(hook, event, run.attempts + 1);
    }
  }

  async #run(
    hook: AfterCommitHook,
    event: ChangeEvent,
    attempts: number,
  ): Promise<void> {
    try {
      await hook.fn(Object.freeze({ ...event }));
    } catch (error) {
      const now = this.#options.now();
      const message = error instanceof Error ? error.message : String(error);
      if (now - event.at >= this.#options.retryFor) {
        await this.#finish(hook.id, event.seq, "failed", message);
        return;
      }
      const delay = retryDelay(this.#options.retryBase, attempts);
      await this.#options.db.updateTable(RUNS_TABLE).set({
        status: "pending",
        nextAt: now + delay,
        lastError: message.slice(0, 2000),
      }).where("hook", "=", hook.id).where("seq", "=", event.seq).execute();
      return;
    }
    await this.#finish(hook.id, event.seq, "done", null);
  }

  async #finish(
    hook: string,
    seq: number,
    status: "done" | "failed",
    error: string | null,
  ): Promise<void> {
    await this.#options.db.updateTable(RUNS_TABLE)
      .set({ status, lastError: error?.slice(0, 2000) ?? null })
      .where("hook", "=", hook).where("seq", "=", seq).execute();
  }
}

async function changeAt(
  db: AnyKysely,
  seq: number,
): Promise<ChangeEvent | undefined> {
  const [event] = await readChanges(db, seq - 1, 1);
  return event?.seq === seq ? event : undefined;
}

/**
 * Deletes finished runs whose change the log no longer keeps.
 *
 * @example
 * ```ts ignore
 * await pruneRuns(db);
 * ```
 */
export async function pruneRuns(db: AnyKysely): Promise<void> {
  await db.deleteFrom(RUNS_TABLE)
    .where("status", "in", ["done", "failed"])
    .where(
      "seq",
      "<",
      sql`coalesce((select min(seq) from ${sql.table(CHANGES_TABLE)}), 0)`,
    ).execute();
}
