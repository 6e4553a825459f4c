/**
 * `changes()`: committed changes as an async iterator, for app code (a route that streams its
 * own SSE, a worker that reacts to writes).
 *
 * @module
 */

import { kyselyOf } from "../database.ts";
import type { DataLayer } from "../data_layer.ts";
import type { WhereFilter } from "../where.ts";
import { type ChangeEvent, readChanges } from "./log.ts";

/** Options of {@link changesOf}. */
export interface ChangesOptions {
  /** Collection names, as defined (`Orders`). */
  readonly collections: readonly string[];
  /**
   * Only creates and updates of records matching this filter now (deletes of the listed
   * collections always pass: a deleted record cannot be matched any more).
   */
  readonly where?: WhereFilter;
  /** Replays the changes after this seq (as far as the log keeps them) before live ones. */
  readonly since?: number;
  /** Ends the iteration. */
  readonly signal?: AbortSignal;
}

/** Changes a consumer may leave unread before the iteration fails (it can resume with `since`). */
const MAX_PENDING = 10_000;

/**
 * Committed changes of `collections` on `data`, oldest first, then live ones as they commit
 * on any instance, until `signal` aborts or the loop breaks. It subscribes at once, so a
 * change committed after the call is never missed, however late the first `next()` comes.
 *
 * @example
 * ```ts ignore
 * for await (const change of changesOf(app.data, { collections: ["Orders"] })) {
 *   console.log(change.op, change.uuid);
 * }
 * ```
 */
export function changesOf(
  data: DataLayer,
  options: ChangesOptions,
): AsyncGenerator<ChangeEvent, void, undefined> {
  const names = new Set(options.collections);
  for (const name of names) {
    if (!data.collections.has(name)) {
      throw new Error(`changes(): unknown collection ${name}`);
    }
  }
  const state: Pending = { queue: [], overflow: false, wake: null };
  // The position now, while this call runs: a change committed after it is above it. (The
  // position when the subscription resolves could already be past such a change.)
  const now = data.feed.running ? data.feed.position : null;
  const subscribed = data.feed.subscribe((events) => {
    if (state.overflow) return; // the consumer fell behind: it ends at its next step
    for (const event of events) {
      if (names.has(event.collection)) state.queue.push(event);
    }
    if (state.queue.length > MAX_PENDING) state.overflow = true;
    poke(state);
  }).then((stop) => ({ stop, position: now ?? data.feed.position }));
  // An iteration never started still unsubscribes once its signal aborts.
  subscribed.catch(() => {});
  options.signal?.addEventListener("abort", () => {
    poke(state);
    subscribed.then(({ stop }) => stop(), () => {});
  }, { once: true });
  return iterate(data, options, names, state, subscribed);
}

interface Pending {
  queue: ChangeEvent[];
  overflow: boolean;
  wake: (() => void) | null;
}

function poke(state: Pending): void {
  const resolve = state.wake;
  state.wake = null;
  resolve?.();
}

async function* iterate(
  data: DataLayer,
  options: ChangesOptions,
  names: ReadonlySet<string>,
  state: Pending,
  subscribed: Promise<{ stop: () => void; position: number }>,
): AsyncGenerator<ChangeEvent, void, undefined> {
  const { where, signal } = options;
  const matches = async (event: ChangeEvent) =>
    event.op === "delete" || where === undefined ||
    await data.query(event.collection).where(where)
        .where({ UUID: event.uuid }).count() > 0;
  const { stop, position } = await subscribed;
  try {
    if (options.since !== undefined) {
      let after = options.since;
      while (after < position && !signal?.aborted) {
        const batch = await readChanges(kyselyOf(data.db), after, 500);
        if (batch.length === 0) break;
        for (const event of batch) {
          if (event.seq > position) break;
          after = event.seq;
          if (names.has(event.collection) && await matches(event)) {
            yield event;
          }
        }
        if (batch.length < 500) break;
      }
    }
    state.queue = state.queue.filter((event) => event.seq > position);
    while (!signal?.aborted) {
      if (state.overflow) {
        throw new Error(
          "changes(): the consumer fell more than 10,000 changes behind (resume with since)",
        );
      }
      const event = state.queue.shift();
      if (!event) {
        await new Promise<void>((resolve) => state.wake = resolve);
        continue;
      }
      if (await matches(event)) yield event;
    }
  } finally {
    stop();
  }
}
