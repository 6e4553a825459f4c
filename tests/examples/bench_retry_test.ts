// The bench harness retries a round whose only errors are wrk's timeouts (a loaded machine
// delays a few answers past wrk's limit, on peers as on Strata) and says so under the
// report, instead of losing the whole run; other errors still stop it.
import assert from "node:assert/strict";
import { takeRetries, wrk, wrkErrors } from "../../bench/_load.ts";

Deno.test("wrkErrors tells timeouts from the errors that are never retried", () => {
  assert.deepEqual(wrkErrors("Requests/sec: 10.00\n"), {
    hard: false,
    timeouts: 0,
  });
  assert.deepEqual(
    wrkErrors("  Socket errors: connect 0, read 0, write 0, timeout 12\n"),
    { hard: false, timeouts: 12 },
  );
  assert.deepEqual(
    wrkErrors("  Socket errors: connect 0, read 3, write 0, timeout 1\n"),
    { hard: true, timeouts: 1 },
  );
  assert.equal(
    wrkErrors("  Non-2xx or 3xx responses: 4\nRequests/sec: 1\n").hard,
    true,
  );
});

/** Whether wrk is installed (it is not needed to run the rest of the suite). */
async function hasWrk(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", {
      args: ["-v"],
      stdout: "null",
      stderr: "null",
    }).output();
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "a round with wrk timeouts is run again and noted, not fatal",
  ignore: !await hasWrk(),
  async fn() {
    takeRetries();
    // The first answers come after wrk's 1 s limit (counted as timeouts when they arrive);
    // every later one at once.
    let delayed = 2;
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen() {} },
      async () => {
        if (delayed > 0) {
          delayed--;
          await new Promise((resolve) => setTimeout(resolve, 1500));
        }
        return new Response("ok");
      },
    );
    try {
      const rate = await wrk(`http://127.0.0.1:${server.addr.port}/`, {
        connections: 2,
        duration: "2s",
        timeout: "1s",
      });
      assert.ok(rate > 0);
      const notes = takeRetries();
      assert.ok(notes.length >= 1, "no retry noted");
      assert.match(
        notes[0],
        /timed out in wrk on http:\/\/127\.0\.0\.1:\d+\/ \(retry 1 of \d\)/,
      );
      assert.deepEqual(takeRetries(), []);
    } finally {
      await server.shutdown();
    }
  },
});
