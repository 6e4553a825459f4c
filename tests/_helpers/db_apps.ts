// Runs an HTTP test against a fixture app on SQLite and, when STRATA_TEST_POSTGRES is set,
// on PostgreSQL in a schema of its own (dropped afterwards).
import { kyselyOf } from "../../collections/database.ts";
import { sql } from "kysely";
import { type App, createApp, type CreateAppOptions } from "../../mod.ts";
import { fixturePath } from "./fixture_app.ts";

export const PG_URL: string | undefined =
  Deno.env.get("STRATA_TEST_POSTGRES") || undefined;

export interface Client {
  app: App;
  /** A request relative to http://localhost; `json` bodies are sent as JSON. */
  req(
    method: string,
    path: string,
    options?: {
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; headers: Headers; body: unknown; text: string }>;
}

export function clientOf(app: App): Client {
  return {
    app,
    async req(method, path, options = {}) {
      const headers = new Headers(options.headers);
      let body = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers.set("content-type", "application/json");
      }
      const response = await app.fetch(
        new Request(new URL(path, "http://localhost"), {
          method,
          headers,
          body,
        }),
      );
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      return {
        status: response.status,
        headers: response.headers,
        body: parsed,
        text,
      };
    },
  };
}

let counter = 0;

/** Boots `fixture` on each database and runs `fn`; the app is closed afterwards. */
export function dbAppTest(
  name: string,
  fixture: string,
  fn: (client: Client, dialect: "sqlite" | "postgres") => Promise<void>,
  options: Omit<CreateAppOptions, "root" | "database" | "databaseSchema"> = {},
): void {
  Deno.test(`${name} [sqlite]`, async () => {
    const app = await createApp({
      ...options,
      root: fixturePath(fixture),
      database: ":memory:",
    });
    try {
      await fn(clientOf(app), "sqlite");
    } finally {
      await app.close();
    }
  });
  Deno.test({
    name: `${name} [postgres]`,
    ignore: !PG_URL,
    async fn() {
      const schema = `strata_http_${
        crypto.randomUUID().slice(0, 8)
      }_${++counter}`;
      const app = await createApp({
        ...options,
        root: fixturePath(fixture),
        database: PG_URL!,
        databaseSchema: schema,
      });
      try {
        await fn(clientOf(app), "postgres");
      } finally {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(
          kyselyOf(app.db),
        );
        await app.close();
      }
    },
  });
}
