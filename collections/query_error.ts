/**
 * The error a query builder throws for a malformed query from trusted code: an unknown field,
 * an operator the field's kind does not take, a value of the wrong type. `code` and `path`
 * follow the wire grammar's codes so the HTTP layer can answer 400 with them.
 *
 * @module
 */

/**
 * A malformed query. `code`: `invalidField`, `unknownOperator`, `invalidValue`,
 * `invalidShape`, `nullEquality`, `tooDeep`, `invalidLocale`, `invalidNumber`;
 * `path`: where it sits (`where.views.atLeast`, `order[0]`).
 *
 * @example
 * ```ts
 * import { QueryError } from "@strata/strata";
 * const error = new QueryError("invalidField", "where.nope", 'Unknown field "nope" in Posts');
 * error.code; // "invalidField"
 * ```
 */
export class QueryError extends Error {
  /** Stable camelCase code. */
  readonly code: string;
  /** Where in the query the problem sits. */
  readonly path: string;

  /** Creates the error. */
  constructor(code: string, path: string, message: string) {
    super(message);
    this.name = "QueryError";
    this.code = code;
    this.path = path;
  }
}

/**
 * The field `name` of `collection`, or the `invalidField` {@link QueryError} at `path`.
 *
 * @example
 * ```ts ignore
 * const field = fieldOrThrow(posts, "views", "order[0]");
 * ```
 */
export function fieldOrThrow<F>(
  collection: {
    readonly name: string;
    readonly fields: ReadonlyMap<string, F>;
  },
  name: string,
  path: string,
): F {
  const field = collection.fields.get(name);
  if (field === undefined) {
    throw new QueryError(
      "invalidField",
      path,
      `Unknown field "${name}" in ${collection.name} at ${path}`,
    );
  }
  return field;
}
