// What a PostgreSQL statement leaves to V8's old generation: its rows must die young.
// pg's promise form (`client.query(text, values)`) gives its Query the callback only after
// constructing it, and V8 then kept each statement's rows alive past the young-generation
// collection that should have freed them (3.9 KB promoted per 20-row read here, against
// 0.3 KB in the callback form); under load the old-generation collections that followed
// cost Strata's list more CPU than its JSON. Measured in a child process, from V8's own
// account of each scavenge (`--trace-gc-nvp`): bytes, not timings.
import assert from "node:assert/strict";
import pg from "pg";
import { PG_URL } from "./_helpers.ts";

const SCRIPT = new URL(
  "../fixtures/young_garbage/pg_statements.ts",
  import.meta.url,
);

/** Bytes promoted by scavenges per call of a script that prints `calls <n>` to stderr. */
async function promotedPerCall(args: string[]): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--trace-gc-nvp", SCRIPT.pathname, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.ok(output.success, stderr);
  const calls = Number(/calls (\d+)/.exec(stderr)?.[1]);
  let promoted = 0;
  for (const line of new TextDecoder().decode(output.stdout).split("\n")) {
    const json = line.slice(line.indexOf("{"));
    if (!json.includes('"gc":"s"')) continue;
    promoted += (JSON.parse(json) as { promoted: number }).promoted;
  }
  return promoted / calls;
}

Deno.test({
  name: "a PostgreSQL read's rows are not promoted to the old generation",
  ignore: !PG_URL,
  async fn() {
    const schema = `strata_young_${crypto.randomUUID().slice(0, 8)}`;
    try {
      const perStatement = await promotedPerCall([PG_URL!, schema]);
      assert.ok(
        perStatement < 1500,
        `${Math.round(perStatement)} bytes promoted per statement`,
      );
    } finally {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    }
  },
});
