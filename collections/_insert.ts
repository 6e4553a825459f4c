// One row into a table through an INSERT compiled once per table and column list: a create
// then binds its values instead of building and compiling a Kysely query each time.
import { CompiledQuery } from "kysely";
import type { LayerContext } from "./_context.ts";
import { withCommit } from "./db/with_commit.ts";

/** Distinct (dialect, table, columns) shapes kept; a create writes one of few per table. */
const MAX_SHAPES = 512;

interface Shape {
  readonly text: string;
  /** Whether withCommit can rewrite the text: no `$` but its parameters. */
  readonly literal: boolean;
}

const compiled = new Map<string, Shape>();

/** Whether withCommit writes `value` as a literal of the type its parameter would have. */
function literalValue(value: unknown): boolean {
  return value === null || typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value));
}

/**
 * Inserts `row` (column → database value; `undefined` columns are left out) into `table`.
 * `atCommit` (PostgreSQL): the caller sends nothing else before its commit and reads
 * nothing of the row, so the INSERT may wait for the commit and go with it (with_commit.ts);
 * it then fails at the commit, not here. Answers whether it waits.
 *
 * @example
 * ```ts ignore
 * await insertRow(ctx, "Posts", { UUID: id, _updatedAt: now, title: "x" });
 * ```
 */
export async function insertRow(
  ctx: LayerContext,
  table: string,
  row: Readonly<Record<string, unknown>>,
  atCommit = false,
): Promise<boolean> {
  const columns = Object.keys(row).filter((c) => row[c] !== undefined);
  const values = columns.map((c) => row[c]);
  const key = `${ctx.dialect}\u0000${table}\u0000${columns.join("\u0000")}`;
  let shape = compiled.get(key);
  if (shape === undefined) {
    const query = ctx.db.insertInto(table).values(row).compile();
    // Only a statement whose parameters are exactly the values, in order, can be reused.
    if (
      query.parameters.length !== values.length ||
      query.parameters.some((p, i) => p !== values[i])
    ) {
      await ctx.executor().executeQuery(query);
      return false;
    }
    shape = {
      text: query.sql,
      literal: !query.sql.replace(/\$\d+/g, "").includes("$"),
    };
    if (compiled.size >= MAX_SHAPES) compiled.clear();
    compiled.set(key, shape);
  }
  const query = CompiledQuery.raw(shape.text, values);
  if (
    atCommit && ctx.dialect === "postgres" && ctx.inTransaction() &&
    shape.literal &&
    values.every(literalValue)
  ) {
    await ctx.executor().executeQuery(withCommit(query));
    return true;
  }
  await ctx.executor().executeQuery(query);
  return false;
}
