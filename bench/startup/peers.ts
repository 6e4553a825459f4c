/**
 * Startup against hand-written peers, each measured in fresh processes (medians):
 *
 * - **first request**: an app of N route files from the moment the framework is imported to
 *   its first response, against Hono importing and registering the same routes (one module
 *   per route, a hand-written `routes.ts` importing them all);
 * - **collections boot**: `createApp` on an app of N collections over a fresh database,
 *   against a script opening the database with the driver alone (node:sqlite, pg) and
 *   running the same CREATE TABLE / CREATE INDEX statements in one transaction; and against
 *   the same script when its statements live, as Strata's definitions do, in a module per
 *   table that it imports first (`generateTableModules`); and the restart of each on the
 *   database its first boot made (the modular peer running its statements `IF NOT EXISTS`);
 *   and each side with no collection at all (`createApp` on an empty app folder, the script
 *   opening the database and committing an empty transaction), which splits a boot into
 *   what does not grow with the app and what each collection adds.
 *
 * @module
 */
import pg from "pg";
import { median } from "../_report.ts";
import {
  generateCollectionsApp,
  generateRouteApps,
  generateTableModules,
} from "./_generate.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const FIRST_REQUEST = new URL("./_first_request.ts", import.meta.url).pathname;
const BOOT_COLLECTIONS = new URL("./_boot_collections.ts", import.meta.url)
  .pathname;
const DDL_PEER = new URL("./_ddl_peer.ts", import.meta.url).pathname;
const IMPORT_COLLECTIONS = new URL("./_import_collections.ts", import.meta.url)
  .pathname;

/** The PostgreSQL server the collections boot uses (`BENCH_POSTGRES`, else the tests'). */
export const BENCH_POSTGRES: string = Deno.env.get("BENCH_POSTGRES") ??
  Deno.env.get("STRATA_TEST_POSTGRES") ??
  "postgres://postgres@127.0.0.1:5432/test";

/** Runs `deno run -A --config deno.json <args>` and parses the JSON line it prints. */
async function child(args: string[]): Promise<Record<string, number>> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `deno run ${args.join(" ")} failed:\n${new TextDecoder().decode(stderr)}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(stdout).trim());
}

/** Medians of one size of the first-request comparison, in ms. */
export interface FirstRequestResult {
  /** Route files in each app. */
  readonly routes: number;
  /** Hono: from `import { Hono }` done to the first response. */
  readonly honoAppMs: number;
  /** Strata: from `import "@strata/strata"` done to the first response. */
  readonly strataAppMs: number;
  /** Hono: from the process start to the first response. */
  readonly honoWholeMs: number;
  /** Strata: from the process start to the first response. */
  readonly strataWholeMs: number;
  /** Fresh processes per framework. */
  readonly runs: number;
}

/**
 * Generates both apps of `routes` files, runs each once to warm Deno's transpile cache, then
 * `processes` fresh processes of each, alternating.
 *
 * @example
 * ```ts ignore
 * const { strataAppMs, honoAppMs } = await firstRequest(1000, 7);
 * ```
 */
export async function firstRequest(
  routes: number,
  processes: number,
): Promise<FirstRequestResult> {
  const root = await Deno.makeTempDir({ prefix: "strata_first_request_" });
  try {
    const apps = await generateRouteApps(root, routes);
    const hono = () => child([`${apps.hono}/main.ts`]);
    const strata = () => child([FIRST_REQUEST, apps.strata, apps.firstRequest]);
    await hono();
    await strata();
    const h: Record<string, number>[] = [];
    const s: Record<string, number>[] = [];
    for (let i = 0; i < processes; i++) {
      h.push(await hono());
      s.push(await strata());
    }
    return {
      routes,
      honoAppMs: median(h.map((r) => r.appMs)),
      strataAppMs: median(s.map((r) => r.appMs)),
      honoWholeMs: median(h.map((r) => r.firstMs)),
      strataWholeMs: median(s.map((r) => r.firstMs)),
      runs: processes,
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Medians of the collections boot on one database, in ms. */
export interface CollectionsBootResult {
  /** `sqlite` or `postgres`. */
  readonly database: string;
  /** The hand-written DDL, from opening the database to the commit. */
  readonly peerMs: number;
  /** The hand-written DDL kept in a module per table: importing them, then the same. */
  readonly modularPeerMs: number;
  /** Of which importing the table modules. */
  readonly modularImportMs: number;
  /** The modular peer's CPU time (every thread), which a busy machine inflates less. */
  readonly modularPeerCpuMs: number;
  /** createApp's CPU time (every thread). */
  readonly strataCpuMs: number;
  /** `createApp`. */
  readonly strataMs: number;
  /** The modular peer again, its DDL `IF NOT EXISTS`, on the database its first run made. */
  readonly peerRestartMs: number;
  /** `createApp` once more on the database its first boot made. */
  readonly strataRestartMs: number;
  /** Of which its first step: loading the app folder (importing the collection files). */
  readonly importMs: number;
  /** `createApp` on an app folder without collections, on a fresh database. */
  readonly strataEmptyMs: number;
  /** The peer with no statement: opening the database, an empty transaction. */
  readonly peerEmptyMs: number;
  /**
   * What one collection adds to `createApp`: per round, the boot of `count` collections less
   * the boot of none, over `count`.
   */
  readonly strataPerCollectionMs: number;
  /** What one table adds to the modular peer (its module and its DDL), reckoned alike. */
  readonly modularPerTableMs: number;
  /** Fresh processes per side. */
  readonly runs: number;
}

/**
 * Boots an app of `count` collections on a fresh database (a new SQLite file, a new
 * PostgreSQL schema) `processes` times, alternating with both hand-written DDL peers, then
 * once more on that database, as the modular peer runs its DDL `IF NOT EXISTS` once more.
 *
 * @example
 * ```ts ignore
 * const { strataMs, peerMs } = await collectionsBoot(100, "sqlite", 7);
 * ```
 */
export async function collectionsBoot(
  count: number,
  database: "sqlite" | "postgres",
  processes: number,
): Promise<CollectionsBootResult> {
  const root = await Deno.makeTempDir({ prefix: "strata_collections_boot_" });
  const admin = database === "postgres"
    ? new pg.Client({ connectionString: BENCH_POSTGRES })
    : undefined;
  try {
    await admin?.connect();
    await generateCollectionsApp(root, count);
    await generateCollectionsApp(`${root}/empty`, 0);
    const tables = await generateTableModules(
      `${root}/peer`,
      count,
      database === "postgres",
    );
    const peer: number[] = [];
    const modular: number[] = [];
    const modularImports: number[] = [];
    const modularCpu: number[] = [];
    const strataCpu: number[] = [];
    const strata: number[] = [];
    const imports: number[] = [];
    const peerRestart: number[] = [];
    const strataRestart: number[] = [];
    const strataEmpty: number[] = [];
    const peerEmpty: number[] = [];
    const strataPerCollection: number[] = [];
    const modularPerTable: number[] = [];
    // The first round warms Deno's caches and is not counted.
    for (let i = 0; i <= processes; i++) {
      const schema = `strata_boot_${Date.now()}_${i}`;
      const url = (side: string) =>
        database === "postgres" ? BENCH_POSTGRES : `${root}/${side}${i}.db`;
      const theirs = await child([
        DDL_PEER,
        String(count),
        url("peer"),
        `${schema}_peer`,
      ]);
      const modules = await child([
        DDL_PEER,
        String(count),
        url("modules"),
        `${schema}_modules`,
        tables,
      ]);
      const ours = await child([
        BOOT_COLLECTIONS,
        root,
        url("strata"),
        `${schema}_strata`,
      ]);
      const imported = await child([IMPORT_COLLECTIONS, root]);
      // Restarts: each side boots again on the database its first boot made.
      const theirsAgain = await child([
        DDL_PEER,
        String(count),
        url("modules"),
        `${schema}_modules`,
        tables,
        "--if-not-exists",
      ]);
      const oursAgain = await child([
        BOOT_COLLECTIONS,
        root,
        url("strata"),
        `${schema}_strata`,
      ]);
      // The same with no collection: what a boot costs before the app has any.
      const theirsEmpty = await child([
        DDL_PEER,
        "0",
        url("empty_peer"),
        `${schema}_empty_peer`,
      ]);
      const oursEmpty = await child([
        BOOT_COLLECTIONS,
        `${root}/empty`,
        url("empty_strata"),
        `${schema}_empty_strata`,
      ]);
      if (
        ours.tables !== count || imported.modules !== count ||
        oursEmpty.tables !== 0
      ) {
        throw new Error(
          `Strata booted ${ours.tables} collections and imported ${imported.modules} of ${count}`,
        );
      }
      await admin?.query(
        `drop schema "${schema}_peer" cascade; drop schema "${schema}_modules" cascade; ` +
          `drop schema "${schema}_strata" cascade; drop schema "${schema}_empty_peer" cascade; ` +
          `drop schema "${schema}_empty_strata" cascade`,
      );
      if (i === 0) continue;
      peer.push(theirs.bootMs);
      modular.push(modules.bootMs);
      modularImports.push(modules.importMs);
      modularCpu.push(modules.cpuMs);
      strataCpu.push(ours.cpuMs);
      strata.push(ours.bootMs);
      imports.push(imported.importMs);
      peerRestart.push(theirsAgain.bootMs);
      strataRestart.push(oursAgain.bootMs);
      strataEmpty.push(oursEmpty.bootMs);
      peerEmpty.push(theirsEmpty.bootMs);
      strataPerCollection.push((ours.bootMs - oursEmpty.bootMs) / count);
      modularPerTable.push((modules.bootMs - theirsEmpty.bootMs) / count);
    }
    return {
      database,
      peerMs: median(peer),
      modularPeerMs: median(modular),
      modularImportMs: median(modularImports),
      modularPeerCpuMs: median(modularCpu),
      strataCpuMs: median(strataCpu),
      strataMs: median(strata),
      importMs: median(imports),
      peerRestartMs: median(peerRestart),
      strataRestartMs: median(strataRestart),
      strataEmptyMs: median(strataEmpty),
      peerEmptyMs: median(peerEmpty),
      strataPerCollectionMs: median(strataPerCollection),
      modularPerTableMs: median(modularPerTable),
      runs: processes,
    };
  } finally {
    await admin?.end();
    await Deno.remove(root, { recursive: true });
  }
}
