/**
 * Creating a table or index "if not exists" when several instances boot at once.
 *
 * @module
 */

/**
 * Runs `create` (a `CREATE … IF NOT EXISTS`), tolerating the race PostgreSQL loses when
 * another instance booting at the same moment creates the object between the check and the
 * insert into its catalog (`duplicate_table` / `unique_violation`).
 *
 * @example
 * ```ts ignore
 * await createIfMissing(() => db.schema.createTable("t").ifNotExists().addColumn("a", "text").execute());
 * ```
 */
export async function createIfMissing(
  create: () => Promise<unknown>,
): Promise<void> {
  try {
    await create();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "42P07" && code !== "23505") throw error;
  }
}
