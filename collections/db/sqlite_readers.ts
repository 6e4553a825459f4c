/**
 * Reader threads for a SQLite file: each a worker with its own read-only connection over
 * WAL. A read that would hold the event loop too long (it ran past its budget on the main
 * connection) or that would wait behind another request's transaction runs here instead,
 * so the process keeps serving meanwhile. SQLite's WAL lets these readers run beside the
 * writer and beside other processes' writes.
 *
 * @module
 */

import type { ReaderReply, ReaderRequest } from "./_sqlite_reader_protocol.ts";
import { DeadlineExceeded } from "./sqlite_functions.ts";

/** Options of {@link SqliteReaders}. */
export interface SqliteReadersOptions {
  /** The database file. */
  path: string;
  /** Reader threads at most; default 2. */
  size?: number;
  /** Reads waiting for a thread at most; a read beyond answers busy. Default 256. */
  maxQueue?: number;
}

/** Grace after a read's deadline before its thread is given up as stuck. */
const STUCK_AFTER_MS = 1000;

interface Pending {
  resolve(rows: Record<string, unknown>[]): void;
  reject(error: unknown): void;
  timer?: ReturnType<typeof setTimeout>;
}

class Reader {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly ready: Promise<void>;
  #next = 1;
  #dead = false;
  busy = false;

  constructor(path: string, onDeath: (reader: Reader) => void) {
    this.#onDeath = onDeath;
    this.#worker = new Worker(
      new URL("./_sqlite_reader_worker.ts", import.meta.url).href,
      { type: "module" },
    );
    this.#worker.onmessage = (event: MessageEvent<ReaderReply>) => {
      const reply = event.data;
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      clearTimeout(pending.timer);
      if ("rows" in reply) pending.resolve(reply.rows);
      else pending.reject(readerError(reply.error));
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.kill(new Error(`SQLite reader failed: ${event.message}`));
      onDeath(this);
    };
    this.ready = this.#send({ kind: "open", id: 0, path }, 0).then(() => {});
  }

  readonly #onDeath: (reader: Reader) => void;

  read(
    sql: string,
    parameters: unknown[],
    timeout: number,
  ): Promise<Record<string, unknown>[]> {
    return this.#send(
      { kind: "read", id: 0, sql, parameters, timeout },
      timeout,
    );
  }

  #send(
    request: ReaderRequest,
    timeout: number,
  ): Promise<Record<string, unknown>[]> {
    if (this.#dead) return Promise.reject(new Error("SQLite reader closed"));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      // A statement that never looks at the clock (a long sort) cannot stop itself: past
      // its deadline the thread is given up and replaced.
      if (timeout > 0) {
        pending.timer = setTimeout(() => {
          this.kill(new DeadlineExceeded());
          this.#onDeath(this);
        }, timeout + STUCK_AFTER_MS);
      }
      this.#pending.set(id, pending);
      this.#worker.postMessage({ ...request, id });
    });
  }

  kill(error: unknown): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#worker.terminate();
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }
}

function readerError(
  detail: { message: string; code?: string; deadline?: boolean },
): Error {
  if (detail.deadline) return new DeadlineExceeded();
  return Object.assign(new Error(detail.message), { code: detail.code });
}

/**
 * A small pool of SQLite reader threads over one database file.
 *
 * @example
 * ```ts ignore
 * const readers = new SqliteReaders({ path: ".data/app.db" });
 * const rows = await readers.read("select count(*) as n from Posts", [], 10_000);
 * readers.close();
 * ```
 */
export class SqliteReaders {
  readonly #path: string;
  readonly #size: number;
  readonly #maxQueue: number;
  readonly #readers: Reader[] = [];
  readonly #queue: (() => void)[] = [];
  #closed = false;

  /** Creates the pool; threads start on first use. */
  constructor(options: SqliteReadersOptions) {
    this.#path = options.path;
    this.#size = Math.max(1, options.size ?? 2);
    this.#maxQueue = options.maxQueue ?? 256;
  }

  /**
   * The rows of `sql` read on a reader thread, the statement limited to `timeout` ms (0 for
   * none). Rejects with {@link DeadlineExceeded} past the deadline, with a busy error when
   * too many reads wait, and with the statement's own error otherwise.
   */
  async read(
    sql: string,
    parameters: unknown[],
    timeout: number,
  ): Promise<Record<string, unknown>[]> {
    const started = performance.now();
    const reader = await this.#acquire();
    try {
      await reader.ready;
      const left = timeout > 0
        ? Math.max(1, timeout - (performance.now() - started))
        : 0;
      return await reader.read(sql, parameters, left);
    } finally {
      this.#release(reader);
    }
  }

  /** Whether reads can go to threads (false once closed, or when none could start). */
  get available(): boolean {
    return !this.#closed;
  }

  /** Stops every thread; reads under way reject. */
  close(): void {
    this.#closed = true;
    for (const reader of this.#readers.splice(0)) {
      reader.kill(new Error("SQLite readers closed"));
    }
  }

  #acquire(): Promise<Reader> {
    if (this.#closed) return Promise.reject(new Error("SQLite readers closed"));
    const idle = this.#readers.find((r) => !r.busy);
    if (idle) {
      idle.busy = true;
      return Promise.resolve(idle);
    }
    if (this.#readers.length < this.#size) {
      let reader: Reader;
      try {
        reader = new Reader(this.#path, (dead) => this.#remove(dead));
      } catch (error) {
        // No worker can start here (a runtime without workers, or denied permissions):
        // the dialect answers on its own connection from now on.
        this.#closed = true;
        return Promise.reject(error);
      }
      reader.busy = true;
      this.#readers.push(reader);
      return Promise.resolve(reader);
    }
    if (this.#queue.length >= this.#maxQueue) {
      return Promise.reject(
        Object.assign(new Error("database is busy"), {
          code: "ERR_SQLITE_ERROR",
        }),
      );
    }
    return new Promise((resolve) => {
      this.#queue.push(() => resolve(this.#acquire()));
    });
  }

  #release(reader: Reader): void {
    reader.busy = false;
    this.#queue.shift()?.();
  }

  #remove(reader: Reader): void {
    const at = this.#readers.indexOf(reader);
    if (at >= 0) this.#readers.splice(at, 1);
    // A waiting read gets the place (a new thread) of the one that died.
    this.#queue.shift()?.();
  }
}
