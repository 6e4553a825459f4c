/**
 * Test helpers for Strata apps: {@link createTestApp} boots an app on a fresh database for
 * one test, with `request`, `signIn` and `close`.
 *
 * @example
 * ```ts
import { createTestApp } from "@strata/strata/testing";
 * Deno.test("GET /hello answers", async () => {
 *   const app = await createTestApp({ root: new URL("../", import.meta.url) });
 *   try {
 *     const response = await app.request("/hello");
 *     console.log(response.status);
 *   } finally {
 *     await app.close();
 *   }
 * });
 * ```
 *
 * @module
 */
import { kyselyOf } from "../collections/database.ts";
import {
  type App,
  createApp,
  type CreateAppOptions,
} from "../app/create_app.ts";
import { sql } from "kysely";

/** Options of {@link createTestApp}. */
export interface TestAppOptions extends Omit<CreateAppOptions, "root"> {
  /** The app folder; defaults to the current working directory. */
  root?: string | URL;
}

/** A signed-in client of a test app: its requests carry the session cookie. */
export interface TestClient {
  /** The session cookie (`name=value`). */
  readonly cookie: string;
  /** The signed-in user as `/auth/login` answered it. */
  readonly user: Record<string, unknown>;
  /** A request with the session cookie. */
  request(path: string, init?: RequestInit): Promise<Response>;
}

/** An app booted for a test. */
export interface TestApp extends App {
  /** A request to the app; `path` is relative to `http://localhost`. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Signs in through `POST /auth/login` (the auth layer must be stacked). */
  signIn(
    email: string,
    password: string,
    remember?: boolean,
  ): Promise<TestClient>;
}

function withCookie(
  init: RequestInit | undefined,
  cookie: string,
): RequestInit {
  const headers = new Headers(init?.headers);
  headers.set("cookie", cookie);
  return { ...init, headers };
}

/**
 * Boots an app on a fresh database: SQLite in memory by default; with a `postgres://`
 * `database`, a schema of its own that `close()` drops.
 *
 * @example
 * ```ts
 * import { createTestApp } from "@strata/strata/testing";
 * const app = await createTestApp({ root: "./examples/blog" });
 * const response = await app.request("/collections/posts");
 * await response.body?.cancel();
 * await app.close();
 * ```
 */
export async function createTestApp(
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = options.database ?? ":memory:";
  const postgres = database.startsWith("postgres:") ||
    database.startsWith("postgresql:");
  const schema = options.databaseSchema ??
    (postgres
      ? `strata_test_${crypto.randomUUID().replaceAll("-", "")}`
      : undefined);
  const app = await createApp({
    ...options,
    root: options.root ?? Deno.cwd(),
    database,
    databaseSchema: schema,
    validateResponses: options.validateResponses ?? true,
  });
  const request = (path: string, init?: RequestInit) =>
    app.fetch(new Request(new URL(path, "http://localhost"), init));
  return Object.freeze({
    ...app,
    request,
    async signIn(
      email: string,
      password: string,
      remember = false,
    ): Promise<TestClient> {
      const response = await request(`${app.config.api.basePath}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password, remember }),
      });
      const body = await response.json();
      if (!response.ok) {
        throw new Error(
          `Sign-in as ${email} failed with ${response.status}: ${body?.message}`,
        );
      }
      const cookie = response.headers.getSetCookie()[0]?.split(";")[0];
      if (!cookie) throw new Error("Sign-in answered without a session cookie");
      return Object.freeze({
        cookie,
        user: body,
        request: (path: string, init?: RequestInit) =>
          request(path, withCookie(init, cookie)),
      });
    },
    async close() {
      try {
        if (postgres && !options.databaseSchema) {
          await sql`drop schema if exists ${sql.id(schema!)} cascade`.execute(
            kyselyOf(app.db),
          );
        }
      } finally {
        await app.close();
      }
    },
  });
}
