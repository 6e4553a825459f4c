/**
 * Test helpers: every data-layer test runs on SQLite and, when `STRATA_TEST_POSTGRES` is set,
 * on PostgreSQL too, each run in a freshly created schema that is dropped afterwards.
 *
 * @module
 */

import pg from "pg";
import type { DataLayer, DataLayerOptions } from "../../collections/mod.ts";
import { openDataLayer } from "../../collections/mod.ts";

/** The PostgreSQL URL of the test server, if any. */
export const PG_URL: string | undefined =
  Deno.env.get("STRATA_TEST_POSTGRES") ||
  undefined;

/** Options of {@link TestDatabase.open}. */
export type OpenOptions = Omit<DataLayerOptions, "url" | "pgSchema">;

/** One database of one test run. */
export interface TestDatabase {
  /** Which database. */
  readonly dialect: "sqlite" | "postgres";
  /** Its URL (`:memory:`, a temp file, or the PostgreSQL URL). */
  readonly url: string;
  /** The PostgreSQL schema of this run. */
  readonly pgSchema?: string;
  /** Opens a data layer on this database; closed when the test ends. */
  open(options: OpenOptions): Promise<DataLayer>;
}

/** Options of {@link dbTest}. */
export interface DbTestOptions {
  /** Use a SQLite file (so the database can be reopened) instead of `:memory:`. */
  file?: boolean;
}

let schemas = 0;

async function withPg<T>(fn: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
  }
}

/**
 * Registers `name [sqlite]` and `name [postgres]` (ignored without `STRATA_TEST_POSTGRES`).
 */
export function dbTest(
  name: string,
  fn: (db: TestDatabase) => Promise<void>,
  options: DbTestOptions = {},
): void {
  Deno.test(`${name} [sqlite]`, async () => {
    const dir = options.file ? await Deno.makeTempDir() : undefined;
    const url = dir ? `${dir}/nested/app.db` : ":memory:";
    const opened: DataLayer[] = [];
    try {
      await fn({
        dialect: "sqlite",
        url,
        async open(openOptions) {
          const data = await openDataLayer({ ...openOptions, url });
          opened.push(data);
          return data;
        },
      });
    } finally {
      for (const data of opened) await data.close();
      if (dir) await Deno.remove(dir, { recursive: true });
    }
  });
  Deno.test({
    name: `${name} [postgres]`,
    ignore: !PG_URL,
    async fn() {
      const schema = `strata_test_${Date.now().toString(36)}_${
        crypto.randomUUID().slice(0, 8)
      }_${++schemas}`;
      const opened: DataLayer[] = [];
      try {
        await fn({
          dialect: "postgres",
          url: PG_URL!,
          pgSchema: schema,
          async open(openOptions) {
            const data = await openDataLayer({
              ...openOptions,
              url: PG_URL!,
              pgSchema: schema,
            });
            opened.push(data);
            return data;
          },
        });
      } finally {
        for (const data of opened) await data.close();
        await withPg((pool) =>
          pool.query(`drop schema if exists "${schema}" cascade`)
        );
      }
    },
  });
}

/** Shorthand: a test that opens one data layer with `options` and hands it over. */
export function dataTest(
  name: string,
  options: OpenOptions,
  fn: (data: DataLayer, db: TestDatabase) => Promise<void>,
): void {
  dbTest(name, async (db) => {
    const data = await db.open(options);
    await fn(data, db);
  });
}

/** Asserts a create succeeded and returns the record. */
export function created<T extends { ok: boolean }>(
  result: T,
): T extends { ok: true; record: infer R } ? R : never {
  if (!result.ok) {
    throw new Error(`Expected success, got ${JSON.stringify(result)}`);
  }
  return (result as unknown as { record: never }).record;
}

/** Asserts a write was refused and returns its errors. */
export function refused(result: { ok: boolean }): Record<string, string> {
  if (result.ok) {
    throw new Error(`Expected a refusal, got ${JSON.stringify(result)}`);
  }
  return (result as unknown as { errors: Record<string, string> }).errors;
}

/**
 * The arguments of every query the `pg` clients are given while `fn` runs (a text and its
 * values, or a `Query`).
 *
 * @example
 * ```ts ignore
 * const calls = await pgCalls(() => data.query("Notes").create({ title: "x" }));
 * ```
 */
export async function pgCalls(
  fn: () => Promise<unknown>,
): Promise<unknown[][]> {
  const calls: unknown[][] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    calls.push(args);
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
  return calls;
}
