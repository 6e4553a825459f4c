// A read by UUID answered at once (SQLite, a public read with nothing to wait for) answers
// what the general read path answers: the same status, headers and bytes as the record in
// a list, and access rules, middleware and scopes still apply where a collection has them.
import assert from "node:assert/strict";
import { type Client, dbAppTest } from "../_helpers/db_apps.ts";

type Rec = Record<string, unknown>;

async function create(
  { req }: Client,
  path: string,
  json: Rec,
): Promise<Rec> {
  const created = await req("POST", path, { json });
  assert.equal(created.status, 201, created.text);
  return created.body as Rec;
}

/**
 * GETs `path` straight through `app.fetch` and returns its 200 response after checking that
 * on SQLite it came without a promise and that its only header is the JSON content type.
 */
async function fetchAtOnce(
  client: Client,
  dialect: string,
  path: string,
): Promise<Response> {
  const answer = client.app.fetch(
    new Request(new URL(path, "http://localhost")),
  );
  // On SQLite nothing is waited for: the dispatcher answers without a promise.
  if (dialect === "sqlite") assert.ok(answer instanceof Response);
  const response = await answer;
  assert.equal(response.status, 200);
  assert.deepEqual([...response.headers], [[
    "content-type",
    "application/json",
  ]]);
  return response;
}

/** The record `uuid` of the list at `listPath`, as the list's bytes give it. */
async function listed(
  { req }: Client,
  listPath: string,
  uuid: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const list = await req("GET", listPath, { headers });
  assert.equal(list.status, 200, list.text);
  const found = (list.body as Rec[]).find((r) => r.UUID === uuid);
  assert.ok(found, `${uuid} is listed`);
  return JSON.stringify(found);
}

dbAppTest(
  "a read by UUID gives the list's bytes for nulls, booleans, dates, choices and hidden fields",
  "read_at_once_app",
  async (client, dialect) => {
    const owner = await create(client, "/collections/owners", { name: "Ann" });
    const full = await create(client, "/collections/plain", {
      note: 'ünïcode \u2028 "quoted"',
      secret: "never shown",
      count: -3,
      ratio: 0.25,
      active: true,
      day: "2024-02-29",
      at: Date.UTC(2024, 1, 29, 23, 59, 58, 123),
      clock: "07:08:09",
      kind: "b",
      labels: ["y", "x"],
      owner: owner.UUID,
    });
    const empty = await create(client, "/collections/plain", {});
    for (const record of [full, empty]) {
      const uuid = record.UUID as string;
      const path = `/collections/plain/${uuid}`;
      const response = await fetchAtOnce(client, dialect, path);
      const text = await response.text();
      assert.equal(text, await listed(client, "/collections/plain", uuid));
      const body = JSON.parse(text) as Rec;
      assert.equal("secret" in body, false);
      assert.deepEqual(body, record);
    }
    const body = JSON.parse(
      (await client.req("GET", `/collections/plain/${full.UUID}`)).text,
    ) as Rec;
    assert.equal(body.active, true);
    assert.equal(body.count, -3);
    assert.equal(body.owner, owner.UUID);
    const none = JSON.parse(
      (await client.req("GET", `/collections/plain/${empty.UUID}`)).text,
    ) as Rec;
    assert.equal(none.active, false);
    assert.equal(none.note, null);
    assert.equal(none.day, null);
    // Upper case names the same record; anything else is the 404 of a missing one.
    const upper = await client.req(
      "GET",
      `/collections/plain/${(full.UUID as string).toUpperCase()}`,
    );
    assert.equal(upper.status, 200);
    assert.equal(upper.text, JSON.stringify(full));
    for (const missing of [crypto.randomUUID(), "not-a-uuid"]) {
      const answer = await client.req("GET", `/collections/plain/${missing}`);
      assert.equal(answer.status, 404);
    }
    // A selection or a populate is still answered, through the general path or not.
    const selected = await client.req(
      "GET",
      `/collections/plain/${full.UUID}?select=[count,active]`,
    );
    assert.deepEqual(selected.body, {
      UUID: full.UUID,
      count: -3,
      active: true,
    });
    const populated = await client.req(
      "GET",
      `/collections/plain/${full.UUID}?populate=[owner]`,
    );
    assert.deepEqual((populated.body as Rec).owner, owner);
  },
);

dbAppTest(
  "a read by UUID under an access rule keeps each request's scope",
  "read_at_once_app",
  async (client) => {
    const a = await create(client, "/collections/scoped", {
      name: "one",
      team: "a",
    });
    const b = await create(client, "/collections/scoped", {
      name: "two",
      team: "b",
    });
    // The same path alternately under each team: no verdict carries over.
    for (let round = 0; round < 2; round++) {
      for (const [team, own, other] of [["a", a, b], ["b", b, a]] as const) {
        const headers = { "x-team": team };
        const mine = await client.req(
          "GET",
          `/collections/scoped/${own.UUID}`,
          { headers },
        );
        assert.equal(mine.status, 200);
        assert.equal(
          mine.text,
          await listed(
            client,
            "/collections/scoped",
            own.UUID as string,
            headers,
          ),
        );
        const theirs = await client.req(
          "GET",
          `/collections/scoped/${other.UUID}`,
          { headers },
        );
        assert.equal(theirs.status, 404);
        const narrow = await client.req(
          "GET",
          `/collections/scoped/${own.UUID}`,
          { headers: { ...headers, "x-narrow": "1" } },
        );
        assert.deepEqual(narrow.body, { name: own.name });
      }
    }
  },
);

dbAppTest(
  "a read by UUID behind middleware runs it and keeps the headers it set",
  "read_at_once_app",
  async (client) => {
    const record = await create(client, "/collections/wrapped", {
      name: "w",
    });
    const answer = await client.req(
      "GET",
      `/collections/wrapped/${record.UUID}`,
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-mark"), "1");
    assert.equal(answer.text, JSON.stringify(record));
  },
);

dbAppTest(
  "a list or page whose window cannot run long answers at once on SQLite, with the same bytes",
  "read_at_once_app",
  async (client, dialect) => {
    for (let i = 0; i < 5; i++) {
      await create(client, "/collections/plain", {
        count: i,
        active: i % 2 === 0,
        note: i === 2 ? null : `n${i}`,
      });
    }
    const path =
      "/collections/plain?where={count:{atLeast:1}}&order=[-count]&limit=3";
    const text = await (await fetchAtOnce(client, dialect, path)).text();
    const pagePath =
      "/collections/plain?where={count:{atLeast:1}}&order=[-count]&page=1&perPage=3";
    // The page and its total are walks of the index too: at once as well.
    await (await fetchAtOnce(client, dialect, pagePath)).body?.cancel();
    const page = await client.req("GET", pagePath);
    assert.deepEqual(
      { ...(page.body as Rec), records: undefined },
      { records: undefined, total: 4, page: 1, perPage: 3, lastPage: 2 },
    );
    // Past the last page the total is counted on its own.
    const past = await client.req(
      "GET",
      "/collections/plain?where={count:{atLeast:1}}&order=[-count]&page=3&perPage=3",
    );
    assert.deepEqual(past.body, {
      records: [],
      total: 4,
      page: 3,
      perPage: 3,
      lastPage: 2,
    });
    assert.equal(
      text,
      JSON.stringify((page.body as { records: Rec[] }).records),
    );
    assert.deepEqual(
      (JSON.parse(text) as Rec[]).map((r) => [r.count, r.active, r.note]),
      [[4, true, "n4"], [3, false, "n3"], [2, true, null]],
    );
    // Under an access rule the list waits for the verdict and keeps its scope.
    await create(client, "/collections/scoped", { name: "one", team: "a" });
    await create(client, "/collections/scoped", { name: "two", team: "b" });
    for (const team of ["a", "b", "a"]) {
      const scoped = await client.req("GET", "/collections/scoped?limit=5", {
        headers: { "x-team": team },
      });
      assert.deepEqual(
        (scoped.body as Rec[]).map((r) => r.team),
        [team],
      );
    }
  },
);
