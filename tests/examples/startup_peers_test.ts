// The startup bench compares like with like: the Hono peer serves the same first request as
// the Strata app of the same route files, and the hand-written DDL peer builds the very
// tables and indexes Strata's schema sync builds for the generated collections, on SQLite
// and (when STRATA_TEST_POSTGRES is set) PostgreSQL, from statements built in the script and
// from the table modules of the modular peer alike; run again `IF NOT EXISTS` (the restart
// rows), the peer changes nothing.
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { createApp } from "../../mod.ts";
import {
  generateCollectionsApp,
  generateRouteApps,
  generateTableModules,
} from "../../bench/startup/_generate.ts";
import { PG_URL } from "../_helpers/db_apps.ts";
import { collectionsBoot } from "../../bench/startup/peers.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const DDL_PEER = new URL("../../bench/startup/_ddl_peer.ts", import.meta.url)
  .pathname;

async function run(args: string[]): Promise<Record<string, number>> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", CONFIG, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test("the Hono peer and the Strata app answer the same first request", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_first_request_" });
  try {
    const apps = await generateRouteApps(root, 24);
    const app = await createApp({ root: apps.strata, database: ":memory:" });
    try {
      const own = app.routes.filter((route) => route.layer === "app");
      assert.equal(own.length, 24);
      const response = await app.fetch(
        new Request(`http://localhost${apps.firstRequest}`),
      );
      assert.deepEqual(await response.json(), {
        route: 23,
        params: { path: "a/b.txt" },
      });
    } finally {
      await app.close();
    }
    // The peer checks its own answer and exits non-zero when it differs.
    const peer = await run([`${apps.hono}/main.ts`]);
    assert.ok(peer.appMs > 0 && peer.firstMs >= peer.appMs);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** Tables with their columns, and indexes with their columns, of a SQLite file. */
function sqliteShape(path: string): string[] {
  const db = new DatabaseSync(path);
  try {
    const lines: string[] = [];
    const tables = db.prepare(
      "select name from sqlite_master where type = 'table' and name like 'C%' order by name",
    ).all();
    for (const { name } of tables) {
      for (
        const c of db.prepare(`select * from pragma_table_info(?)`).all(name)
      ) {
        lines.push(
          `${name}.${c.name} ${c.type} notnull=${c.notnull} pk=${c.pk}`,
        );
      }
      for (
        const i of db.prepare(`select * from pragma_index_list(?)`).all(name)
      ) {
        const columns = db.prepare(`select name from pragma_index_info(?)`).all(
          i.name,
        ).map((row) => row.name);
        lines.push(`${name} index ${i.name} unique=${i.unique} (${columns})`);
      }
    }
    return lines.sort();
  } finally {
    db.close();
  }
}

Deno.test("the DDL peer builds the tables and indexes of Strata's schema sync on SQLite", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_ddl_peer_" });
  try {
    await generateCollectionsApp(root, 4);
    const app = await createApp({ root, database: `${root}/strata.db` });
    await app.close();
    await run([DDL_PEER, "4", `${root}/peer.db`]);
    const tables = await generateTableModules(`${root}/modules`, 4, false);
    await run([DDL_PEER, "4", `${root}/modular.db`, "", tables]);
    const ours = sqliteShape(`${root}/strata.db`);
    assert.ok(ours.some((line) => line.includes("C3__parent_UUID__idx")));
    assert.deepEqual(sqliteShape(`${root}/peer.db`), ours);
    assert.deepEqual(sqliteShape(`${root}/modular.db`), ours);
    // The restart rows: each side again on the database its first run made.
    await run([
      DDL_PEER,
      "4",
      `${root}/modular.db`,
      "",
      tables,
      "--if-not-exists",
    ]);
    const again = await createApp({ root, database: `${root}/strata.db` });
    await again.close();
    assert.deepEqual(sqliteShape(`${root}/modular.db`), ours);
    assert.deepEqual(sqliteShape(`${root}/strata.db`), ours);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name:
    "the DDL peer builds the tables and indexes of Strata's schema sync on PostgreSQL",
  ignore: PG_URL === undefined,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "strata_ddl_peer_" });
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    const tag = `ddl_peer_${crypto.randomUUID().slice(0, 8)}`;
    const shape = async (schema: string) => {
      const columns = await client.query(
        `select table_name, column_name, data_type, collation_name, is_nullable
         from information_schema.columns where table_schema = $1 and table_name like 'C%'`,
        [schema],
      );
      const indexes = await client.query(
        `select replace(indexdef, $1, 'S') as def from pg_indexes
         where schemaname = $2 and tablename like 'C%'`,
        [`${schema}.`, schema],
      );
      return [
        ...columns.rows.map((row: Record<string, unknown>) =>
          Object.values(row).join(" ")
        ),
        ...indexes.rows.map((row: { def: string }) => row.def),
      ].sort();
    };
    try {
      await generateCollectionsApp(root, 4);
      const app = await createApp({
        root,
        database: PG_URL,
        databaseSchema: `${tag}_strata`,
      });
      await app.close();
      await run([DDL_PEER, "4", PG_URL!, `${tag}_peer`]);
      const tables = await generateTableModules(`${root}/modules`, 4, true);
      await run([DDL_PEER, "4", PG_URL!, `${tag}_modular`, tables]);
      const ours = await shape(`${tag}_strata`);
      assert.ok(
        ours.some((line) => /C3__parent_UUID__idx.*NULLS FIRST/.test(line)),
      );
      assert.ok(ours.some((line) => /^C3 title text C YES$/.test(line)));
      assert.deepEqual(await shape(`${tag}_peer`), ours);
      assert.deepEqual(await shape(`${tag}_modular`), ours);
      await run([
        DDL_PEER,
        "4",
        PG_URL!,
        `${tag}_modular`,
        tables,
        "--if-not-exists",
      ]);
      assert.deepEqual(await shape(`${tag}_modular`), ours);
    } finally {
      await client.query(
        `drop schema if exists "${tag}_strata" cascade; drop schema if exists "${tag}_peer" cascade; ` +
          `drop schema if exists "${tag}_modular" cascade`,
      );
      await client.end();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("the collections boot splits each side into its boot with no collection and what each collection adds", async () => {
  const result = await collectionsBoot(2, "sqlite", 1);
  for (
    const figure of [
      result.strataEmptyMs,
      result.peerEmptyMs,
      result.strataPerCollectionMs,
      result.modularPerTableMs,
    ]
  ) {
    assert.ok(Number.isFinite(figure), String(figure));
  }
  // One round: the per-collection figures are that round's differences.
  assert.equal(
    result.strataPerCollectionMs,
    (result.strataMs - result.strataEmptyMs) / 2,
  );
  assert.equal(
    result.modularPerTableMs,
    (result.modularPeerMs - result.peerEmptyMs) / 2,
  );
});

Deno.test("the DDL peer with no table opens the database and commits an empty transaction", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_ddl_peer_" });
  try {
    const result = await run([DDL_PEER, "0", `${root}/empty.db`]);
    assert.ok(Number.isFinite(result.bootMs));
    const db = new DatabaseSync(`${root}/empty.db`);
    try {
      assert.deepEqual(
        db.prepare("select name from sqlite_master").all(),
        [],
      );
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
