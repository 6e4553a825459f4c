/**
 * The databases the data benchmarks run on: a SQLite file (WAL) in a temp folder and a
 * fresh PostgreSQL schema (dropped afterwards) in `BENCH_POSTGRES` (default
 * `postgres://postgres@127.0.0.1:5432/test`). `BENCH_DATABASES=sqlite` (or `postgres`)
 * runs one of them.
 *
 * @module
 */
import pg from "pg";

/** The PostgreSQL server the benchmarks use. */
export const PG_URL: string = Deno.env.get("BENCH_POSTGRES") ??
  Deno.env.get("STRATA_TEST_POSTGRES") ??
  "postgres://postgres@127.0.0.1:5432/test";

/** One database a benchmark runs on. */
export interface BenchDatabase {
  readonly kind: "sqlite" | "postgres";
  /** `SQLite` or `PostgreSQL`, for the tables. */
  readonly label: string;
  /** A SQLite path or a `postgres://` URL. */
  readonly url: string;
  /** PostgreSQL: the schema the app and the peer use. */
  readonly schema?: string;
  /** How server processes are told where it is: `[url]` or `[url, schema]`. */
  readonly args: readonly string[];
  /** Removes it (the SQLite folder, the PostgreSQL schema). */
  drop(): Promise<void>;
}

/** The database `args` (as given to a server process) name. */
export function databaseFromArgs(
  args: readonly string[],
): { url: string; schema?: string; kind: "sqlite" | "postgres" } {
  const [url, schema] = args;
  return {
    url,
    schema: schema || undefined,
    kind: url.startsWith("postgres") ? "postgres" : "sqlite",
  };
}

/** The kinds `BENCH_DATABASES` selects (both by default). */
export function selectedKinds(): ("sqlite" | "postgres")[] {
  const wanted = (Deno.env.get("BENCH_DATABASES") ?? "sqlite,postgres")
    .split(",").map((kind) => kind.trim());
  return (["sqlite", "postgres"] as const).filter((kind) =>
    wanted.includes(kind)
  );
}

/** A fresh database of `kind`; `name` tells what it is for (temp folder, schema name). */
export async function freshDatabase(
  kind: "sqlite" | "postgres",
  name: string,
): Promise<BenchDatabase> {
  if (kind === "sqlite") {
    const dir = await Deno.makeTempDir({ prefix: `strata-${name}-bench-` });
    const url = `${dir}/bench.db`;
    return {
      kind,
      label: "SQLite",
      url,
      args: [url],
      drop: () => Deno.remove(dir, { recursive: true }),
    };
  }
  const schema = `strata_bench_${name}_${crypto.randomUUID().slice(0, 8)}`;
  return {
    kind,
    label: "PostgreSQL",
    url: PG_URL,
    schema,
    args: [PG_URL, schema],
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
