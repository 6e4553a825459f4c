// One row into a table through an INSERT compiled once per table and column list: a create
// then binds its values instead of building and compiling a Kysely query each time.
import { CompiledQuery } from "kysely";
import type { LayerContext } from "./_context.ts";

/** Distinct (dialect, table, columns) shapes kept; a create writes one of few per table. */
const MAX_SHAPES = 512;
const compiled = new Map<string, string>();

/**
 * Inserts `row` (column → database value; `undefined` columns are left out) into `table`.
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
): Promise<void> {
  const columns = Object.keys(row).filter((c) => row[c] !== undefined);
  const values = columns.map((c) => row[c]);
  const key = `${ctx.dialect}\u0000${table}\u0000${columns.join("\u0000")}`;
  let text = compiled.get(key);
  if (text === undefined) {
    const query = ctx.db.insertInto(table).values(row).compile();
    // Only a statement whose parameters are exactly the values, in order, can be reused.
    if (
      query.parameters.length !== values.length ||
      query.parameters.some((p, i) => p !== values[i])
    ) {
      await ctx.executor().executeQuery(query);
      return;
    }
    text = query.sql;
    if (compiled.size >= MAX_SHAPES) compiled.clear();
    compiled.set(key, text);
  }
  await ctx.executor().executeQuery(CompiledQuery.raw(text, values));
}
