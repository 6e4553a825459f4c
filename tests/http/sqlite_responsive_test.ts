// A SQLite file database never stalls the process: a slow read moves to a reader thread
// after a short budget on the event loop, and reads never wait behind a write that waits
// for another process's lock. Checked over a real socket by what answers first, not by
// timings (these machines are shared and noisy; `deno task bench` measures latencies).
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { type App, createApp } from "../../mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { seedLongNotes, SLOW_LIST_PATH } from "../_helpers/slow_query.ts";

async function withServedApp(
  fn: (base: string, app: App, file: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "strata-responsive-" });
  const file = `${dir}/app.db`;
  const app = await createApp({
    root: fixturePath("responsive_app"),
    database: file,
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    app.fetch,
  );
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, app, file);
  } finally {
    await server.shutdown();
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("sqlite: the process keeps serving while a slow list runs", async () => {
  await withServedApp(async (base, app) => {
    const uuid = await seedLongNotes(app, 60);
    let slowDone = false;
    const slow = fetch(`${base}${SLOW_LIST_PATH}`).then(async (response) => {
      slowDone = true;
      return { status: response.status, body: await response.json() };
    });
    // While the slow list runs, other requests keep being answered.
    let answeredMeanwhile = 0;
    for (let i = 0; i < 10 && !slowDone; i++) {
      const ping = await fetch(`${base}/ping`);
      assert.equal(ping.status, 200);
      await ping.body?.cancel();
      const read = await fetch(
        `${base}/collections/notes/${uuid}?select=[UUID]`,
      );
      assert.equal(read.status, 200);
      await read.body?.cancel();
      if (!slowDone) answeredMeanwhile++;
    }
    const { status, body } = await slow;
    // A blocked event loop would answer the slow list first and nothing meanwhile; how
    // many answer before its 3 s deadline depends on the machine's load.
    assert.ok(
      answeredMeanwhile > 0,
      "requests answered during the slow list",
    );
    // It ran past query.timeout (3 s) on a reader thread and was stopped there.
    assert.equal(status, 503);
    assert.deepEqual(body.data, { code: "queryTimeout" });
    const after = await fetch(
      `${base}/collections/notes?select=[UUID]&limit=1`,
    );
    assert.equal(after.status, 200);
    await after.body?.cancel();
  });
});

Deno.test("sqlite: reads go on while a write waits for another process's lock", async () => {
  await withServedApp(async (base, _app, file) => {
    const other = new DatabaseSync(file);
    try {
      other.exec("begin immediate");
      let writeDone = false;
      const write = fetch(`${base}/collections/notes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ body: "written" }),
      }).then(async (response) => {
        writeDone = true;
        return { status: response.status, text: await response.text() };
      });
      // The write is waiting for the lock: reads are answered meanwhile.
      for (let i = 0; i < 5; i++) {
        const read = await fetch(`${base}/collections/notes?select=[UUID]`);
        assert.equal(read.status, 200);
        await read.body?.cancel();
        assert.equal(
          writeDone,
          false,
          "the write cannot finish before the lock",
        );
      }
      other.exec("commit");
      const written = await write;
      assert.equal(written.status, 201, written.text);
    } finally {
      other.close();
    }
  });
});
