/**
 * Which PostgreSQL statements are sent as named prepared statements. `pg` parses a named
 * statement once per connection and then sends only its values: the server skips parsing
 * and planning it again (a session lookup's join took 10 µs of the server's CPU instead of
 * 56–78 µs). A text is named the second time it is seen, so a statement whose text varies
 * per request (an `in` list of another length) stays unnamed, and at most `limit` texts are
 * named per pool: each named text costs every connection its parse tree and cached plan.
 *
 * @module
 */

/** Texts seen once that are remembered, waiting for a second sighting. */
const SEEN_LIMIT = 1000;

/** The prefix of every statement name Strata gives (`strata_0`, `strata_1`, …). */
export const STATEMENT_NAME_PREFIX = "strata_";

/**
 * Gives statement texts their names, the same name for the same text on every connection
 * of a pool.
 *
 * @example
 * ```ts
 * import { StatementNames } from "./_statement_names.ts";
 * const names = new StatementNames(100);
 * names.nameOf("select $1::int"); // undefined: seen once
 * names.nameOf("select $1::int"); // "strata_0"
 * ```
 */
export class StatementNames {
  readonly #limit: number;
  readonly #names = new Map<string, string>();
  /** Names given so far (a refused text's name stays prepared: never given again). */
  #given = 0;
  #seen = new Set<string>();
  /** Texts never to name again (their named form failed). */
  readonly #refused = new Set<string>();

  /** At most `limit` texts are named; 0 names none. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The name to send `text` under, or `undefined` to send it unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#given >= this.#limit) return name;
    if (!this.#seen.has(text)) {
      if (this.#refused.has(text)) return undefined;
      // A fresh set rather than deletes: see router/dispatch.ts on churned sets.
      if (this.#seen.size >= SEEN_LIMIT) this.#seen = new Set();
      this.#seen.add(text);
      return undefined;
    }
    const named = STATEMENT_NAME_PREFIX + this.#given++;
    this.#names.set(text, named);
    return named;
  }

  /**
   * Sends `text` unnamed from now on: its prepared form on the connections no longer fits
   * the tables (another process changed a column it returns).
   */
  refuse(text: string): void {
    if (!this.#names.delete(text)) return;
    this.#refused.add(text);
  }
}
