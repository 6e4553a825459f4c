// Boots the blog for a test: a fresh database (SQLite in memory, or a PostgreSQL schema of
// its own when STRATA_TEST_POSTGRES is set), seeded, with a cheap password hash.
import { createTestApp, type TestApp } from "@strata/strata/testing";
import config from "../strata.config.ts";
import { seedBlog } from "../seed.ts";

export { DEMO_PASSWORD } from "../seed.ts";

const PG = Deno.env.get("STRATA_TEST_POSTGRES") || undefined;

/** The databases every blog test runs on. */
export const DATABASES: readonly { name: string; url: string }[] = [
  { name: "sqlite", url: ":memory:" },
  ...(PG ? [{ name: "postgres", url: PG }] : []),
];

export async function bootBlog(database = ":memory:"): Promise<TestApp> {
  const app = await createTestApp({
    root: new URL("../", import.meta.url),
    database,
    // The tests sign in a lot: a low scrypt cost keeps them fast.
    config: { ...config, auth: { ...config.auth, password: { cost: 1024 } } },
  });
  try {
    await seedBlog(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

export const JSON_HEADERS: Record<string, string> = {
  "content-type": "application/json",
};

/** A JSON request body. */
export function json(method: string, body: unknown): RequestInit {
  return { method, headers: JSON_HEADERS, body: JSON.stringify(body) };
}
