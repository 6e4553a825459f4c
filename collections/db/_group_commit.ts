/**
 * Group commit for SQLite's writes of their own (a lone create's row and its change-log
 * row): the writes asked for during one turn of the event loop (the requests whose bodies
 * arrived together) run at the turn's end as one transaction, and each caller learns its
 * outcome once that transaction committed. A commit costs SQLite more than an insert (its
 * pages appended to the WAL, its `begin` and `commit`), so under concurrent load the
 * transaction is shared and a create costs less; alone, a write waits one turn
 * (`setImmediate`, about a microsecond) and runs as it did before.
 *
 * Every write keeps its own outcome: when one of a group fails, the group's transaction is
 * rolled back whole and each write runs again alone, in its own transaction, so a failure
 * is its own write's and never another's.
 *
 * @module
 */

/** One statement of a write (`?` parameters). */
export interface GroupStatement {
  /** Its text. */
  readonly sql: string;
  /** Its parameters. */
  readonly parameters: readonly unknown[];
}

/** What runs the groups: the SQLite connection. */
export interface GroupWriter {
  /**
   * Runs `writes` (each a list of statements) as one transaction, synchronously, and answers
   * the rowid each write's last statement inserted; `undefined` when it cannot run now (the
   * connection is held, or another process holds the write lock). A statement's failure
   * rolls everything back and is thrown.
   */
  writeGroups(
    writes: readonly (readonly GroupStatement[])[],
  ): number[] | undefined;
}

/** Writes in one transaction at most: bounds how long a commit holds the write lock. */
export const MAX_GROUP = 64;

interface Pending {
  readonly statements: readonly GroupStatement[];
  resolve(rowid: number | undefined): void;
  reject(error: unknown): void;
}

/**
 * Collects writes of one event-loop turn and commits them together (see the module
 * comment).
 *
 * @example
 * ```ts ignore
 * const group = new GroupCommit(connection);
 * const rowid = await group.write([{ sql: "insert into t (x) values (?)", parameters: [1] }]);
 * ```
 */
export class GroupCommit {
  readonly #writer: GroupWriter;
  #pending: Pending[] = [];

  /** Commits through `writer`. */
  constructor(writer: GroupWriter) {
    this.#writer = writer;
  }

  /**
   * Runs `statements` as a write of its own at the end of this turn, with the other writes
   * of the turn. Resolves with the rowid its last statement inserted once it committed, or
   * `undefined` when it could not run (nothing of it was written: the caller waits its turn
   * for the connection instead); rejects with its own statement's error.
   */
  write(statements: readonly GroupStatement[]): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      if (this.#pending.push({ statements, resolve, reject }) === 1) {
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits what is pending now (the turn's end, or a connection about to close). */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (let at = 0; at < pending.length; at += MAX_GROUP) {
      this.#commit(pending.slice(at, at + MAX_GROUP));
    }
  }

  #commit(writes: readonly Pending[]): void {
    if (writes.length > 1) {
      let rowids: number[] | undefined;
      try {
        rowids = this.#writer.writeGroups(writes.map((w) => w.statements));
      } catch {
        // Rolled back whole: each runs alone, for an outcome of its own.
        for (const write of writes) this.#alone(write);
        return;
      }
      for (let i = 0; i < writes.length; i++) writes[i].resolve(rowids?.[i]);
      return;
    }
    this.#alone(writes[0]);
  }

  #alone(write: Pending): void {
    try {
      write.resolve(this.#writer.writeGroups([write.statements])?.[0]);
    } catch (error) {
      write.reject(error);
    }
  }
}
