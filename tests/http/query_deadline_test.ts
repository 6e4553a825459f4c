// A query that arrives over HTTP runs under `query.timeout` (1 s in the fixture: far above
// what the fast reads take on a loaded machine, far below the slow one's seconds): past it
// the request answers 503 `queryTimeout` with Retry-After, the statement stops, and the app
// serves the next request normally.
import assert from "node:assert/strict";
import { dbAppTest } from "../_helpers/db_apps.ts";
import {
  seedLongNotes,
  SLOW_LIST_PATH,
  SLOW_PATTERN,
} from "../_helpers/slow_query.ts";

dbAppTest(
  "deadline: a slow list answers 503 queryTimeout and the next request succeeds",
  "deadline_app",
  async (client) => {
    await seedLongNotes(client.app, 40);
    const slow = await client.req("GET", SLOW_LIST_PATH);
    assert.equal(slow.status, 503, slow.text);
    assert.equal(slow.headers.get("retry-after"), "1");
    assert.deepEqual((slow.body as { data: unknown }).data, {
      code: "queryTimeout",
    });
    // Asked again, the list runs as a named prepared statement on PostgreSQL: the deadline
    // stops it all the same.
    for (let i = 0; i < 2; i++) {
      const again = await client.req("GET", SLOW_LIST_PATH);
      assert.equal(again.status, 503, again.text);
      assert.deepEqual((again.body as { data: unknown }).data, {
        code: "queryTimeout",
      });
    }
    // Paginated, the page and its total carry the check alike (a pattern is no bounded walk).
    const slowPage = await client.req(
      "GET",
      `${SLOW_LIST_PATH}&page=1&perPage=10`,
    );
    assert.equal(slowPage.status, 503, slowPage.text);
    assert.deepEqual((slowPage.body as { data: unknown }).data, {
      code: "queryTimeout",
    });
    const next = await client.req("GET", "/collections/notes?select=[UUID]");
    assert.equal(next.status, 200, next.text);
    assert.equal((next.body as unknown[]).length, 40);
    // The same query in a fast shape is fine: the deadline is per statement, not a ban.
    const fast = await client.req(
      "GET",
      `/collections/notes?select=[UUID]&limit=1&where={body:{startsWith:ab}}`,
    );
    assert.equal(fast.status, 200, fast.text);
  },
);

dbAppTest(
  "deadline: trusted code runs without one unless it asks",
  "deadline_app",
  async (client) => {
    await seedLongNotes(client.app, 2);
    const { app } = client;
    const found = await app.query("Notes").where({
      body: { like: "%" + "_a".repeat(20) + "z%" },
    }).count();
    assert.equal(found, 0);
    const { withQueryTimeout } = await import("../../mod.ts");
    await seedLongNotes(client.app, 30);
    await assert.rejects(
      () =>
        withQueryTimeout(
          20,
          () =>
            app.query("Notes").where({ body: { like: SLOW_PATTERN } }).count(),
        ),
      (error: { status?: number; data?: unknown }) =>
        error.status === 503 &&
        JSON.stringify(error.data) === '{"code":"queryTimeout"}',
    );
  },
);
