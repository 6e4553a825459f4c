/**
 * PostgreSQL through `npm:pg` and Kysely's `PostgresDialect`: a pool whose clients map busy
 * errors (lock timeout, serialization failure, deadlock) to 503, safe parsing of `int8` and
 * `numeric`, and an optional schema selected through `search_path`.
 *
 * @module
 */

import pg from "pg";
import {
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
} from "kysely";
import { bootError, mapBusyError } from "./busy.ts";
import { currentQueryTimeout } from "./deadline.ts";
import { AT_COMMIT } from "./with_commit.ts";
import { StatementNames } from "./_statement_names.ts";
import { quoteIdentifier } from "./quote_identifier.ts";

/** Options of {@link createPostgresDialect}. */
export interface PostgresOptions {
  /** A `postgres://` (or `postgresql://`) connection URL. */
  url: string;
  /** A schema to create if missing and to use as `search_path`. */
  schema?: string;
  /** `lock_timeout` in milliseconds (a lock wait beyond it answers 503); default 2000. */
  lockTimeout?: number;
  /** Pool size; default 10. */
  max?: number;
  /**
   * How many distinct statement texts are sent as named prepared statements (parsed and
   * planned once per connection); 0 sends every statement unnamed, as a connection pooler
   * that does not track them needs (PgBouncer in transaction mode before 1.21). Default
   * {@link DEFAULT_PREPARED_STATEMENTS}.
   */
  preparedStatements?: number;
}

/** How many statement texts a pool names when not told otherwise. */
export const DEFAULT_PREPARED_STATEMENTS = 200;

/** What {@link createPostgresDialect} returns. */
export interface PostgresSetup {
  /** The dialect to hand to Kysely. */
  dialect: PostgresDialect;
  /**
   * Runs one parameterised statement in autocommit on a connection of the pool, as Kysely
   * would outside a transaction (the same statement limit, names and busy errors), without
   * Kysely's layers around it: for a write of its own on the request path.
   */
  autocommit(sql: string, parameters: readonly unknown[]): Promise<void>;
}

interface PgClient {
  query(...args: unknown[]): Promise<unknown> & unknown;
  release(error?: unknown): void;
  on(event: "error", listener: (error: unknown) => void): void;
}

interface PgPool {
  connect(): Promise<PgClient>;
  connect(callback: (error: unknown, client: PgClient) => void): void;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  on(event: "error", listener: (error: unknown) => void): void;
}

const INT8 = 20;
const NUMERIC = 1700;
const INT8_ARRAY = 1016;

/**
 * `int8` as a number when it is a safe integer, else as a `bigint` (the data layer refuses
 * to read those as integers); precision is never lost silently.
 */
function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

/** `numeric` as a number when the conversion is exact enough to round-trip, else the text. */
function parseNumeric(text: string): number | string {
  const value = Number(text);
  if (!Number.isFinite(value)) return text;
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(value)) return text;
  return value;
}

const typeParsers = {
  getTypeParser(oid: number, format?: string): (text: string) => unknown {
    if (format !== "binary") {
      if (oid === INT8) return parseInt8;
      if (oid === NUMERIC) return parseNumeric;
      if (oid === INT8_ARRAY) {
        const parseArray = pg.types.getTypeParser(1009, "text");
        return (text: string) =>
          (parseArray(text) as (string | null)[]).map((item) =>
            item === null ? null : parseInt8(item)
          );
      }
    }
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Creates `schema` unless it exists. `CREATE SCHEMA IF NOT EXISTS` is not safe against itself:
 * of two sessions that both find the schema missing, the second fails on pg_namespace's
 * unique index once the first commits. The schema exists then, so the statement runs again.
 */
async function createSchema(pool: PgPool, schema: string): Promise<void> {
  const statement = `create schema if not exists ${quoteIdentifier(schema)}`;
  try {
    await pool.query(statement);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "23505" && code !== "42P06") throw error;
    await pool.query(statement);
  }
}

/**
 * Opens a `pg` pool (creating `schema` first when given) and wraps it in Kysely's
 * `PostgresDialect`.
 *
 * @example
 * ```ts ignore
 * import { Kysely } from "kysely";
 * import { createPostgresDialect } from "./postgres.ts";
 * const { dialect } = await createPostgresDialect({ url: "postgres://postgres@127.0.0.1/test" });
 * // deno-lint-ignore no-explicit-any
 * const db = new Kysely<any>({ dialect });
 * await db.destroy();
 * ```
 */
export async function createPostgresDialect(
  options: PostgresOptions,
): Promise<PostgresSetup> {
  const { schema } = options;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(
      `Invalid PostgreSQL schema name ${JSON.stringify(schema)}`,
    );
  }
  const lockTimeout = options.lockTimeout ?? 2000;
  const settings = [`-c lock_timeout=${Math.max(0, Math.trunc(lockTimeout))}`];
  // Quoted, as the schema is created: unquoted, PostgreSQL would fold the name to lower case.
  if (schema) settings.push(`-c search_path=${quoteIdentifier(schema)}`);
  const pool: PgPool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    options: settings.join(" "),
    types: typeParsers,
    // Idle connections must not keep a stopped app's process alive (SIGTERM under
    // `deno serve` ends the server; the process then exits once nothing else holds it).
    allowExitOnIdle: true,
  });
  // An idle client can fail (server restart); without a listener that would crash the process.
  pool.on("error", () => {});
  try {
    if (schema) await createSchema(pool, schema);
  } catch (error) {
    await pool.end();
    throw bootError(error);
  }
  const names = new StatementNames(
    options.preparedStatements ?? DEFAULT_PREPARED_STATEMENTS,
  );
  const wrapped: PostgresPool = {
    async connect(): Promise<PostgresPoolClient> {
      let client: PgClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw mapBusyError(error);
      }
      const setting = applyStatementTimeout(client, currentQueryTimeout());
      if (setting) await setting;
      return wrapClient(client, names);
    },
    end: () => pool.end(),
  };
  // Callbacks from the checkout to the release, as `pool.query` does: one promise in all.
  const autocommit = (
    sql: string,
    parameters: readonly unknown[],
  ): Promise<void> =>
    new Promise((resolve, reject) => {
      // Read here: the pool may call back from the request that released the connection.
      const wanted = currentQueryTimeout();
      pool.connect((error, client) => {
        if (error) return reject(mapBusyError(error));
        wrapClient(client, names); // for its error listener
        const run = () =>
          runText(client, names, sql, parameters, outside, (error) => {
            client.release();
            if (error) reject(error);
            else resolve();
          });
        const setting = applyStatementTimeout(client, wanted);
        if (setting) setting.then(run, reject);
        else run();
      });
    });
  return { dialect: new PostgresDialect({ pool: wrapped }), autocommit };
}

const outside = (): boolean => false;

/** The `statement_timeout` each pooled connection has (0, the server's default, if absent). */
const statementTimeouts = new WeakMap<PgClient, number>();

/**
 * Gives a connection the statement limit in force where it is taken (see deadline.ts),
 * before any transaction starts on it: a `SET` inside one would be undone by its rollback.
 * Most connections keep the limit of the last request, so most checkouts send nothing and
 * get `undefined`, nothing to wait for.
 */
function applyStatementTimeout(
  client: PgClient,
  wanted: number,
): Promise<void> | undefined {
  if ((statementTimeouts.get(client) ?? 0) === wanted) return undefined;
  return setStatementTimeout(client, wanted);
}

async function setStatementTimeout(
  client: PgClient,
  wanted: number,
): Promise<void> {
  try {
    await client.query(`set statement_timeout = ${wanted}`);
  } catch (error) {
    client.release(error);
    throw mapBusyError(error);
  }
  statementTimeouts.set(client, wanted);
}

/**
 * Sends one statement through `pg`'s callback form; errors come back as `pg` gives them.
 * Its promise form gives the statement's `Query` its callback only after constructing it,
 * and under load V8 then kept each statement's rows (and what they reach) alive past the
 * young-generation collection that should have freed them: a list of 20 rows had 7.7 KB
 * promoted per request, and the old-generation collections that followed cost the server
 * more CPU than its JSON; with the callback given at construction, 0.3 KB (as with
 * `pool.query`).
 *
 * A text (named or not) goes as a `Query` built here from the text itself: given a config
 * object, `pg` copies it property by property (`cloneQueryConfig`, so as not to change the
 * caller's object), about 1.7 µs per statement; from a text it builds its own, and the name
 * is set before the client submits the query, all a named statement needs.
 */
function submit(
  client: PgClient,
  query: unknown,
  values: unknown,
  name: string | undefined,
  callback: (error: unknown, result?: unknown) => void,
): void {
  if (typeof query !== "string") {
    client.query(query, values, callback);
    return;
  }
  const built = new pg.Query(query, values, callback) as { name?: string };
  if (name !== undefined) built.name = name;
  client.query(built);
}

/** {@link submit} as a promise. */
function send(
  client: PgClient,
  query: unknown,
  values: unknown,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    submit(client, query, values, undefined, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

/**
 * Runs a text on `client`, named once it has been seen before (see _statement_names.ts),
 * and calls `done` once with its result or its error as {@link mapBusyError} gives it. A
 * named statement whose plan another process made stale is sent again unnamed, outside a
 * transaction (`transaction()` says whether one is open: a failed statement ended it).
 */
function runText(
  client: PgClient,
  names: StatementNames,
  text: string,
  values: unknown,
  transaction: () => boolean,
  done: (error: unknown, result?: unknown) => void,
): void {
  const unnamed = (error: unknown, result?: unknown) =>
    error ? done(mapBusyError(error)) : done(undefined, result);
  // Only parameterised statements: `pg` sends the others as simple queries, unparsed.
  const name = Array.isArray(values) && values.length > 0
    ? names.nameOf(text)
    : undefined;
  if (name === undefined) return submit(client, text, values, name, unnamed);
  submit(client, text, values, name, (error, result) => {
    if (!error) return done(undefined, result);
    if (!isStalePlan(error)) return done(mapBusyError(error));
    names.refuse(text);
    if (transaction()) return done(mapBusyError(error));
    submit(client, text, values, undefined, unnamed);
  });
}

function mapped(promise: Promise<unknown>): Promise<unknown> {
  return promise.catch((error) => {
    throw mapBusyError(error);
  });
}

/**
 * Whether `error` says a named statement's cached plan no longer fits its tables: another
 * process changed the type or number of the columns it returns.
 */
function isStalePlan(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "0A000" && typeof message === "string" &&
    message.includes("cached plan must not change result type");
}

const wrappers = new WeakMap<PgClient, PostgresPoolClient>();

function wrapClient(
  client: PgClient,
  names: StatementNames,
): PostgresPoolClient {
  let wrapper = wrappers.get(client);
  if (wrapper) return wrapper;
  // The pool listens for errors only while a client is idle. A connection lost while a
  // client is checked out (between the queries of a transaction) would otherwise be an
  // unhandled 'error' event (an uncaught error; fatal under Node). The client's next query
  // fails instead (a 503), and the pool drops the client on release.
  client.on("error", () => {});
  /**
   * Statements not sent yet, in the order they came: a transaction's `begin` (it waits for
   * the transaction's first statement, so a transaction of held statements alone is one
   * round trip) and statements held for the commit (with_commit.ts).
   */
  let held: string[] = [];
  /** Whether a transaction is open: a failed statement in it cannot be sent again. */
  let transaction = false;
  const inTransaction = () => transaction;
  const run = (args: unknown[]): unknown => {
    const [query, values] = args;
    // A cursor (streaming) is submitted as is.
    if (typeof (query as { submit?: unknown }).submit === "function") {
      return client.query(...args);
    }
    if (typeof query !== "string") return mapped(send(client, query, values));
    return new Promise((resolve, reject) => {
      runText(client, names, query, values, inTransaction, (error, result) => {
        if (error) reject(error);
        else resolve(result);
      });
    });
  };
  wrapper = {
    // deno-lint-ignore no-explicit-any
    query(...args: any[]): any {
      const [text] = args;
      if (text === "begin" || text === "commit" || text === "rollback") {
        transaction = text === "begin";
      } else if (
        typeof text === "string" && text.startsWith("start transaction")
      ) {
        transaction = true;
      }
      if (text === "begin" && held.length === 0) {
        held.push(text);
        return Promise.resolve({ command: "BEGIN", rowCount: null, rows: [] });
      }
      if (typeof text === "string" && text.startsWith(AT_COMMIT)) {
        held.push(text);
        return Promise.resolve({ command: "INSERT", rowCount: 0, rows: [] });
      }
      if (held.length === 0) return run(args);
      // Everything held is sent at once, so a held `begin` means the server has seen
      // nothing of the transaction: its rollback has nothing to undo.
      const unsent = held[0] === "begin";
      const statements = held.join(";\n");
      held = [];
      // The statements and the commit as one simple query; a rollback drops them.
      if (text === "commit") return run([`${statements};\ncommit`]);
      if (text === "rollback") {
        return unsent
          ? Promise.resolve({ command: "ROLLBACK", rowCount: null, rows: [] })
          : run(args);
      }
      // Anything else runs after them (the client sends its queries in order); a cursor
      // must be returned as is, and fails anyway once they did.
      const first = run([statements]) as Promise<unknown>;
      if (typeof text !== "string") {
        first.catch(() => {});
        return run(args);
      }
      return first.then(() => run(args));
    },
    release: () => {
      held = [];
      transaction = false;
      client.release();
    },
  } as PostgresPoolClient;
  wrappers.set(client, wrapper);
  return wrapper;
}
