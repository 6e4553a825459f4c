/**
 * PostgreSQL: a transaction's last statement sent together with its `commit`, in one round
 * trip. A parameterised statement needs a round trip of its own (the extended protocol
 * takes one statement per request); with its values written into the text as literals, it
 * and the `commit` go as one simple query. The connection (postgres.ts) holds the marked
 * statement until the transaction's next one: prepended to a `commit`, dropped with a
 * `rollback`, run first before anything else. It fails as it would have alone: the
 * `commit` after it is then not run, and the transaction rolls back.
 *
 * @module
 */

import { CompiledQuery } from "kysely";

/** How a statement held for the commit begins (postgres.ts recognises it). */
export const AT_COMMIT = "/* strata: with commit */ ";

/**
 * A PostgreSQL literal of `value` (a string, a finite number, a boolean or null), correct
 * whatever `standard_conforming_strings` says.
 *
 * @example
 * ```ts
 * import { pgLiteral } from "./with_commit.ts";
 * pgLiteral("it's"); // "'it''s'"
 * pgLiteral("a\\b"); // " E'a\\\\b'"
 * pgLiteral(42); // "42"
 * pgLiteral(true); // "true"
 * ```
 */
export function pgLiteral(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new TypeError(`Cannot write ${value} as a PostgreSQL literal`);
    }
    return String(value);
  }
  if (typeof value !== "string") {
    throw new TypeError(
      `Cannot write a ${typeof value} as a PostgreSQL literal`,
    );
  }
  const quoted = `'${value.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
  // E'…' reads backslashes as escapes, so doubled ones are one each; '…' may not.
  return value.includes("\\") ? ` E${quoted}` : quoted;
}

/**
 * Marks `query` (PostgreSQL text with `$n` parameters, and no `$` anywhere else) to run with
 * the `commit` of the transaction it is sent in: its values become literals and it answers
 * no rows. Use it only for a transaction's last statement, whose result nobody reads.
 *
 * @example
 * ```ts
 * import { CompiledQuery } from "kysely";
 * import { withCommit } from "./with_commit.ts";
 * const query = withCommit(CompiledQuery.raw('insert into "t" ("a") values ($1)', ["x"]));
 * query.sql.endsWith(`values ('x')`); // true
 * query.parameters.length; // 0
 * ```
 */
export function withCommit(query: CompiledQuery): CompiledQuery {
  const text = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= query.parameters.length) {
      throw new RangeError(`The statement has no parameter $${n}`);
    }
    return pgLiteral(query.parameters[index]);
  });
  return CompiledQuery.raw(AT_COMMIT + text, []);
}
