/**
 * The app's database URL: which forms are accepted, where a relative SQLite path lives, how
 * the URL is shown (password redacted), and the boot error of a PostgreSQL server that cannot
 * be reached.
 *
 * @module
 */
import { isAbsolute, resolve } from "./_path.ts";

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const POSTGRES = /^postgres(?:ql)?:\/\//i;

/**
 * Throws for a URL with a scheme Strata does not speak (`mysql://…`, `postgress://…`), which
 * would otherwise become a SQLite file named after the URL. `label` says where it came from
 * (`DATABASE_URL`, or the config file and key).
 *
 * @example
 * ```ts
 * import { checkDatabaseUrl } from "./database_url.ts";
 * checkDatabaseUrl("postgres://db/app", "DATABASE_URL"); // fine
 * checkDatabaseUrl(".data/app.db", "database.url"); // fine
 * ```
 */
export function checkDatabaseUrl(url: string, label: string): void {
  const scheme = SCHEME.exec(url)?.[1];
  if (scheme === undefined || POSTGRES.test(url)) return;
  throw new Error(
    `${label} "${
      redactDatabaseUrl(url)
    }" has an unknown scheme "${scheme}://": use postgres://user:password@host/database, a SQLite file path, or :memory:`,
  );
}

/**
 * A SQLite path relative to the app's root made absolute (the folder of `strata.config.ts`,
 * not the working directory); PostgreSQL URLs and `:memory:` are returned unchanged.
 *
 * @example
 * ```ts
 * import { resolveDatabaseUrl } from "./database_url.ts";
 * resolveDatabaseUrl(".data/app.db", "/srv/app"); // "/srv/app/.data/app.db"
 * ```
 */
export function resolveDatabaseUrl(url: string, root: string): string {
  if (POSTGRES.test(url) || url === ":memory:" || url === "") return url;
  const path = url.startsWith("file:") ? url.slice(5) : url;
  if (path === ":memory:" || path === "") return url;
  return isAbsolute(path) ? path : resolve(root, path);
}

/**
 * The URL with its password replaced by `***`, for logs and errors.
 *
 * @example
 * ```ts
 * import { redactDatabaseUrl } from "./database_url.ts";
 * redactDatabaseUrl("postgres://app:secret@db:5432/app"); // "postgres://app:***@db:5432/app"
 * ```
 */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: "the connection was refused (is the server running?)",
  ENOTFOUND: "the host was not found",
  EAI_AGAIN: "the host could not be resolved",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  "28P01": "the password was refused",
  "28000": "the user is not allowed to connect",
  "3D000": "the database does not exist",
};

/**
 * The one-line boot error of a PostgreSQL server that cannot be reached or refuses the
 * connection, naming where the URL came from and its host; any other error is returned as is.
 *
 * @example
 * ```ts ignore
 * throw databaseBootError(error, "postgres://db/app", "DATABASE_URL");
 * ```
 */
export function databaseBootError(
  error: unknown,
  url: string,
  label: string,
): unknown {
  if (!POSTGRES.test(url)) return error;
  let cause: unknown = error;
  for (let i = 0; i < 4 && cause instanceof Error; i++) {
    const code = (cause as { code?: unknown }).code;
    const errors = (cause as { errors?: unknown }).errors;
    const reason = typeof code === "string"
      ? CONNECTION_CODES[code]
      : undefined;
    if (reason) {
      let host = "";
      try {
        const parsed = new URL(url);
        host = `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
      } catch {
        host = redactDatabaseUrl(url);
      }
      return new Error(
        `Cannot connect to PostgreSQL at ${host} (${label}): ${reason}`,
      );
    }
    cause = Array.isArray(errors) && errors.length > 0
      ? errors[0]
      : (cause as { cause?: unknown }).cause;
  }
  return error;
}
