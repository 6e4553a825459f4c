/**
 * `strata routes [dir]`: the merged route table of an app.
 *
 * @module
 */
import { isAbsolute, relative, resolve } from "node:path";
import { createApp } from "../app/create_app.ts";
import { formatRouteTable, type RouteInfo } from "../app/route_table.ts";
import { CliError } from "./errors.ts";

const HEADER: RouteInfo = Object.freeze({
  id: "",
  method: "METHOD",
  pattern: "PATTERN",
  layer: "LAYER",
  file: "FILE",
});

/**
 * Formats a route table for a terminal with a header row: method (`ANY` for a file without a
 * method suffix), pattern, layer, file. Files under `root` are shown relative to it.
 *
 * @example
 * ```ts
 * import { createApp } from "@strata/strata";
 * import { formatRoutes } from "@strata/strata/cli";
 * const app = await createApp({ root: import.meta.dirname!, database: ":memory:" });
 * console.log(formatRoutes(app.routes, import.meta.dirname));
 * await app.close();
 * ```
 */
export function formatRoutes(
  routes: readonly RouteInfo[],
  root?: string,
): string {
  const rows = routes.map((route) =>
    root !== undefined && isAbsolute(route.file)
      ? { ...route, file: relative(root, route.file) }
      : route
  );
  return formatRouteTable([HEADER, ...rows]);
}

/**
 * Boots the app in `dir` on an in-memory database (its own database is never opened) and
 * returns its merged route table as {@link formatRoutes} prints it.
 *
 * @example
 * ```ts
 * import { routeTable } from "@strata/strata/cli";
 * console.log(await routeTable("./examples/blog"));
 * ```
 */
export async function routeTable(dir: string): Promise<string> {
  const root = resolve(dir);
  try {
    if (!(await Deno.stat(root)).isDirectory) {
      throw new CliError(`${root} is not a folder`);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new CliError(`No app folder at ${root}`);
    }
    throw error;
  }
  const app = await createApp({ root, database: ":memory:" });
  try {
    return formatRoutes(app.routes, root);
  } finally {
    await app.close();
  }
}
