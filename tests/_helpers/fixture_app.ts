// Boots a fixture app under tests/fixtures on an in-memory database.
import { type App, createApp, type CreateAppOptions } from "../../mod.ts";

export function fixturePath(name: string): string {
  return new URL(`../fixtures/${name}/`, import.meta.url).pathname;
}

export function bootFixture(
  name: string,
  options: Omit<CreateAppOptions, "root"> = {},
): Promise<App> {
  return createApp({
    database: ":memory:",
    ...options,
    root: fixturePath(name),
  });
}

/** A request to the app with a path relative to http://localhost. */
export function call(
  app: App,
  path: string,
  init?: RequestInit,
): Promise<Response> {
  return app.fetch(new Request(new URL(path, "http://localhost"), init));
}

export async function json(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}
