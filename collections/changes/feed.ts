/**
 * The change feed of one process: reads the change log by `seq` and hands each new batch to
 * its listeners (record hooks, realtime streams, `changes()`).
 *
 * Wake-ups: a write committed by this process wakes it at once; on PostgreSQL one `LISTEN`
 * connection per process hears every instance's commits (announced after each commit, see
 * {@link ChangeFeed.announce}) (plus a slow safety poll, should a
 * notification be lost while reconnecting); on SQLite the log is polled every
 * `pollInterval` for what other processes on the same file wrote.
 *
 * Order on PostgreSQL: writers take seqs concurrently and may commit out of order, so the
 * feed never hands out a seq above a missing one while a transaction that could still commit
 * the missing one runs. Seeing a gap, it notes the transactions then writing to the log
 * ({@link changeLogWriters}); once a later read's snapshot shows none of them in progress,
 * every seq up to the highest seen at that moment is final (committed, or rolled back for
 * good) and the gap is stepped over. No lock orders the writers, so they commit in parallel;
 * a gap costs the readers one extra statement and the wait for a commit already under way.
 *
 * @module
 */

import { type Kysely, sql } from "kysely";
import type { SqlDialect } from "../db/open_database.ts";
import {
  changeBounds,
  type ChangeEntry,
  type ChangeEvent,
  changeLogWriters,
  CHANGES_CHANNEL,
  readChanges,
  readChangesAwaiting,
} from "./log.ts";
import {
  backgroundInterval,
  backgroundTimeout,
} from "../../utils/_background_interval.ts";

/** Receives each new batch of committed changes, oldest first. */
export type ChangeListener = (events: readonly ChangeEvent[]) => void;

/** Options of {@link ChangeFeed}. */
export interface ChangeFeedOptions {
  /** The database. */
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  /** Which database. */
  readonly dialect: SqlDialect;
  /** The database URL (PostgreSQL: the `LISTEN` connection opens it). */
  readonly url: string;
  /** How often the log is polled for other processes' writes (SQLite), in ms. */
  readonly pollInterval: number;
}

const BATCH = 1000;
// PostgreSQL: a poll in case a notification was missed (the LISTEN connection was down).
const PG_SAFETY_POLL = 2000;
// PostgreSQL: how soon a read waiting for a gap's writers to end tries again (their commit
// normally wakes it first).
const GAP_RETRY = 10;
// How soon a feed nobody listens to reads after a commit (one read for all commits meanwhile).
const IDLE_READ = 50;
// PostgreSQL: the least time between two reads of the log while commits keep coming. The
// first after a quiet moment goes at once; under load one read then covers every commit of
// the pause instead of one each.
const PG_COALESCE = 10;
// PostgreSQL: the same for notifications, longer: a NOTIFY costs every instance's LISTEN
// connection a wake-up, and only other instances wait for it (the writer's own feed wakes
// at once), by at most this much while commits keep coming.
const PG_ANNOUNCE_EVERY = 50;

// The notification is a transaction of its own; nothing is lost if a crash loses it (the
// safety poll), so its commit need not wait for the WAL to reach the disk.
const NOTIFY =
  `select set_config('synchronous_commit', 'off', true), pg_notify('${CHANGES_CHANNEL}', '')`;

const pause = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));
// PostgreSQL: how long a starting feed waits for the change log's writers of that moment.
const START_WAIT = 5000;

interface ListenClient {
  readonly processID?: number | null;
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  /** Lets the process exit while the connection is open (pg's `Client.unref`). */
  unref(): void;
  /** Undoes {@link ListenClient.unref}. */
  ref(): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
}

const listenWork = new WeakMap<ListenClient, number>();

/**
 * Runs `work` on the unref'd `LISTEN` connection while it keeps the process alive: a script
 * awaiting it (a NOTIFY, the connection's end) must not see its event loop end first.
 */
async function awaitOnListen<T>(
  client: ListenClient,
  work: () => Promise<T>,
): Promise<T> {
  listenWork.set(client, (listenWork.get(client) ?? 0) + 1);
  client.ref();
  try {
    return await work();
  } finally {
    const left = (listenWork.get(client) ?? 1) - 1;
    listenWork.set(client, left);
    if (left === 0) client.unref();
  }
}

/**
 * One process's view of the change log (see the module documentation). It starts reading
 * when the first listener subscribes, from the log's newest seq at that moment.
 *
 * @example
 * ```ts ignore
 * const feed = new ChangeFeed({ db, dialect: "sqlite", url: ":memory:", pollInterval: 100 });
 * const stop = await feed.subscribe((events) => console.log(events));
 * stop();
 * await feed.close();
 * ```
 */
export class ChangeFeed {
  readonly #options: ChangeFeedOptions;
  readonly #listeners = new Set<ChangeListener>();
  #position = 0;
  #started: Promise<void> | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #listen: ListenClient | null = null;
  #reconnect: ReturnType<typeof setTimeout> | undefined;
  #gapRetry: ReturnType<typeof setTimeout> | undefined;
  #idleRead: ReturnType<typeof setTimeout> | undefined;
  /** PostgreSQL: every seq up to this one is final (gaps below it stay empty). */
  #final = 0;
  /** PostgreSQL: the writers that could still fill a gap seen below `#pendingUpTo`. */
  #writers: number[] | null = null;
  #pendingUpTo = 0;
  #announcing: Promise<void> | null = null;
  #announceAgain = false;
  /** When the last notification (PostgreSQL) was sent, and the last read started. */
  #announced = -Infinity;
  #readAt = -Infinity;
  #pumping: Promise<void> | null = null;
  #again = false;
  #running = false;
  #closed = false;

  /** Creates the feed (nothing runs until {@link ChangeFeed.subscribe}). */
  constructor(options: ChangeFeedOptions) {
    this.#options = options;
  }

  /**
   * PostgreSQL: the server process of the `LISTEN` connection, or null while it is down or
   * before the feed starts (for tests that cut it).
   */
  get listenerPid(): number | null {
    return this.#listen?.processID ?? null;
  }

  /** The seq of the newest change handed to listeners (0 before the feed starts). */
  get position(): number {
    return this.#position;
  }

  /**
   * Whether the feed runs: its position is known, so a listener added now sees every change
   * committed from now on.
   */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Starts reading from the log's newest seq (the data layer does this at boot when a
   * collection has events, so {@link ChangeFeed.position} is known whenever app code asks).
   * Resolves once the feed runs; at once when it already does. On SQLite a caller that has
   * just read the newest seq itself (`null` for an empty log) passes it as `newest`.
   */
  start(newest?: number | null): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new Error("The change feed is closed"));
    }
    return this.#start(newest);
  }

  /**
   * Adds `listener`; resolves, once the feed runs, to a function that removes it. The
   * listener sees every change committed after the feed's position at that moment.
   */
  async subscribe(listener: ChangeListener): Promise<() => void> {
    if (this.#closed) throw new Error("The change feed is closed");
    this.#listeners.add(listener);
    // Commits the idle feed has not read yet are read now.
    if (this.#idleRead !== undefined) this.#readNow();
    try {
      await this.#start();
    } catch (error) {
      this.#listeners.delete(listener);
      throw error;
    }
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Reads the log (a write of this process committed, or a notification came): at once
   * while someone listens; otherwise within {@link IDLE_READ} ms, one read for all the
   * commits meanwhile, so writes nobody follows do not each cost a statement. The position
   * only has to stay recent for the next subscriber: it receives what commits after the
   * position, so a stale one can only add changes of the last moments, never lose one.
   */
  wake(): void {
    // Before the start position is known a read would begin at seq 0.
    if (this.#closed || !this.#running) return;
    if (this.#listeners.size === 0) {
      this.#idleRead ??= setTimeout(() => {
        this.#idleRead = undefined;
        this.#readNow();
      }, IDLE_READ);
      return;
    }
    this.#readNow();
  }

  #readNow(): void {
    if (this.#closed || !this.#running) return;
    clearTimeout(this.#idleRead);
    this.#idleRead = undefined;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
    });
  }

  /**
   * SQLite: a write of this process committed `entries`, which took the seqs from `first`
   * on. When they follow the feed's position (no other process wrote since, no read is
   * under way), they are handed out as they are, without reading them back: one writer at
   * a time, so nothing can commit below them any more. Otherwise the log is read
   * ({@link ChangeFeed.wake}).
   */
  committed(first: number, entries: readonly ChangeEntry[]): void {
    if (this.#closed || !this.#running || entries.length === 0) return;
    if (this.#pumping || first !== this.#position + 1) {
      this.wake();
      return;
    }
    this.#position = first + entries.length - 1;
    if (this.#listeners.size === 0) return;
    this.#deliver(entries.map((entry, i) => ({ ...entry, seq: first + i })));
  }

  /**
   * PostgreSQL: wakes every instance's feed (`NOTIFY`) after a write of this process
   * committed. Sent after the commit rather than inside the write's transaction: a
   * transaction that notifies holds a database-wide lock through its commit, which would
   * make all writers commit one at a time. At most one is in flight, and one per
   * {@link PG_ANNOUNCE_EVERY} ms while commits keep coming; commits meanwhile share the
   * next. Should one be lost (the process dies first), the others' safety poll reads
   * the change within seconds.
   */
  announce(): void {
    if (this.#options.dialect !== "postgres" || this.#closed) return;
    if (this.#announcing) {
      this.#announceAgain = true;
      return;
    }
    const wait = this.#announced + PG_ANNOUNCE_EVERY - performance.now();
    // Sent on the LISTEN connection when it is up: it takes no connection a request could
    // use, and the notification is for the instances' LISTEN connections anyway.
    this.#announcing = (wait > 0 ? pause(wait) : Promise.resolve())
      .then(() => {
        this.#announced = performance.now();
        const pool = () => sql.raw(NOTIFY).execute(this.#options.db);
        const listen = this.#listen;
        return listen
          ? awaitOnListen(listen, () => listen.query(NOTIFY)).catch(pool)
          : pool();
      }).then(() => {}, () => {})
      .finally(() => {
        this.#announcing = null;
        if (this.#announceAgain) {
          this.#announceAgain = false;
          this.announce();
        }
      });
  }

  /** Waits until what has been committed so far was read and handed out (for tests). */
  async settle(): Promise<void> {
    this.#readNow();
    while (!this.#closed && (this.#pumping || this.#writers !== null)) {
      if (this.#pumping) await this.#pumping;
      else {
        // A gap's writers are still running: read again once they may have ended.
        await new Promise((resolve) => setTimeout(resolve, GAP_RETRY));
        this.#readNow();
      }
    }
  }

  /** Stops reading and closes the `LISTEN` connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    clearTimeout(this.#reconnect);
    clearTimeout(this.#gapRetry);
    clearTimeout(this.#idleRead);
    this.#listeners.clear();
    await this.#started?.catch(() => {});
    await this.#pumping;
    while (this.#announcing) await this.#announcing;
    const client = this.#listen;
    this.#listen = null;
    if (client) await awaitOnListen(client, () => client.end()).catch(() => {});
  }

  #start(newest?: number | null): Promise<void> {
    this.#started ??= this.#begin(newest).catch((error) => {
      this.#started = null;
      throw error;
    });
    return this.#started;
  }

  async #begin(newest?: number | null): Promise<void> {
    const { dialect, pollInterval } = this.#options;
    // PostgreSQL's start also waits for the log's writers of that moment.
    this.#position = newest !== undefined && dialect === "sqlite"
      ? newest ?? 0
      : await this.#startPosition();
    this.#running = !this.#closed;
    if (dialect === "postgres") await this.#connectListener();
    if (this.#closed) return;
    this.#timer = backgroundInterval(
      () => this.wake(),
      dialect === "postgres" ? PG_SAFETY_POLL : pollInterval,
    );
  }

  /**
   * The log's newest seq, once no change below it can still commit. On PostgreSQL a writer
   * may hold a lower seq and commit after the newest is read; the feed would never read
   * below its position, so it waits (at most {@link START_WAIT} ms) for the writers of that
   * moment to end. Every seq up to the newest was taken before the read, by a transaction
   * that holds the log's lock until it ends, so such a writer is among them.
   */
  async #startPosition(): Promise<number> {
    const { db, dialect } = this.#options;
    const newest = (await changeBounds(db)).newest ?? 0;
    if (dialect !== "postgres") return newest;
    const writers = await changeLogWriters(db);
    const until = Date.now() + START_WAIT;
    while (writers.length > 0 && !this.#closed) {
      const { waiting } = await readChangesAwaiting(db, newest, 1, writers);
      if (!waiting) break;
      if (Date.now() > until) {
        console.warn(
          `The change feed starts after seq ${newest} although a transaction that wrote to the change log is still running after ${START_WAIT} ms: its changes will not be announced by this instance`,
        );
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, GAP_RETRY));
    }
    return newest;
  }

  async #connectListener(): Promise<void> {
    // Loaded here, as the PostgreSQL dialect is: importing the driver costs every app,
    // SQLite ones included, some 10–15 ms of startup.
    const { default: pg } = await import("pg");
    const client = new pg.Client({
      connectionString: this.#options.url,
    }) as unknown as ListenClient;
    // Its own notifications need no read: the commits they announce woke this feed already.
    client.on("notification", (message) => {
      const sender = (message as { processId?: number }).processId;
      if (sender === undefined || sender !== client.processID) this.wake();
    });
    client.on("error", () => this.#dropListener(client));
    client.on("end", () => this.#dropListener(client));
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    // Waiting for notifications must not keep a stopped app's process alive (SIGTERM under
    // `deno serve` ends the server, then the process exits once nothing else holds it);
    // its own statements hold it again while they run (see awaitOnListen).
    client.unref();
    this.#listen = client;
  }

  /** The LISTEN connection broke: reconnect after a pause, then catch up. */
  #dropListener(client: ListenClient): void {
    if (this.#listen !== client || this.#closed) return;
    this.#listen = null;
    client.end().catch(() => {});
    const retry = () => {
      this.#reconnect = undefined;
      if (this.#closed) return;
      this.#connectListener().then(() => this.wake(), () => {
        this.#reconnect = backgroundTimeout(retry, 1000);
      });
    };
    this.#reconnect = backgroundTimeout(retry, 1000);
  }

  async #pump(): Promise<void> {
    do {
      if (this.#options.dialect === "postgres") {
        const wait = this.#readAt + PG_COALESCE - performance.now();
        if (wait > 0) await pause(wait);
        if (this.#closed) return;
        this.#readAt = performance.now();
      }
      this.#again = false;
      // Nobody to hand changes to: only the position moves, so only seqs are read.
      const full = this.#listeners.size > 0;
      let read: { events: readonly ChangeEvent[]; upTo: number };
      try {
        read = await this.#read(full);
      } catch {
        return; // the database is away: the next wake-up or poll tries again
      }
      if (read.upTo <= this.#position || this.#closed) continue;
      if (!full && this.#listeners.size > 0) {
        // A listener came during a read of seqs alone: it needs these changes whole.
        this.#again = true;
        continue;
      }
      this.#position = read.upTo;
      if (full) this.#deliver(read.events);
    } while (this.#again && !this.#closed);
  }

  #deliver(events: readonly ChangeEvent[]): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(events);
      } catch (error) {
        console.error("A change listener failed:", error);
      }
    }
  }

  /**
   * The next changes to hand out, in seq order with no seq still to come below them, and
   * the seq of the last one (the position once they are handed out). Without `full`, only
   * that seq: `events` is empty.
   */
  async #read(
    full: boolean,
  ): Promise<{ events: readonly ChangeEvent[]; upTo: number }> {
    const { db, dialect } = this.#options;
    if (dialect !== "postgres") {
      // One writer at a time commits seqs in order: whatever is visible is final.
      if (!full) {
        return { events: [], upTo: (await changeBounds(db)).newest ?? 0 };
      }
      const events = await readChanges(db, this.#position, BATCH);
      if (events.length === BATCH) this.#again = true;
      return { events, upTo: events.at(-1)?.seq ?? this.#position };
    }
    const writers = this.#writers ?? [];
    const { events, waiting } = full
      ? await readChangesAwaiting(db, this.#position, BATCH, writers)
      : await readChangesAwaiting(db, this.#position, BATCH, writers, true);
    if (this.#writers !== null && !waiting) {
      this.#final = Math.max(this.#final, this.#pendingUpTo);
      this.#writers = null;
    }
    let last = this.#position;
    let ready = 0;
    for (const event of events) {
      if (event.seq !== last + 1 && event.seq > this.#final) break;
      last = event.seq;
      ready++;
    }
    if (ready < events.length) {
      if (this.#writers === null) {
        // A gap: whoever could still fill it is writing now. Read again once they ended
        // (at once when nobody is writing any more).
        this.#writers = await changeLogWriters(db);
        this.#pendingUpTo = events[events.length - 1].seq;
        this.#again = true;
      } else {
        clearTimeout(this.#gapRetry);
        this.#gapRetry = setTimeout(() => this.wake(), GAP_RETRY);
      }
    } else if (events.length === BATCH) {
      this.#again = true;
    }
    return {
      events: full ? (events as ChangeEvent[]).slice(0, ready) : [],
      upTo: last,
    };
  }
}
