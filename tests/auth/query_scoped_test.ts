// queryScoped: the collections API policy for trusted code (SPEC.md "Helpers").
import assert from "node:assert/strict";
import {
  createTestApp,
  type TestApp,
  type TestClient,
} from "../../testing/mod.ts";

const PG_URL = Deno.env.get("STRATA_TEST_POSTGRES") || undefined;
const root = new URL("../fixtures/scoped_app/", import.meta.url);

function scopedTest(name: string, fn: (app: TestApp) => Promise<void>) {
  for (const database of [":memory:", PG_URL]) {
    Deno.test({
      name: `${name} [${database === ":memory:" ? "sqlite" : "postgres"}]`,
      ignore: database === undefined,
      async fn() {
        const app = await createTestApp({ root, database });
        try {
          await fn(app);
        } finally {
          await app.close();
        }
      },
    });
  }
}

async function writer(
  app: TestApp,
  email: string,
  roles = ["writer"],
): Promise<TestClient> {
  const created = await app.query("Users").create({
    email,
    password: "correct horse",
    roles,
  });
  assert.ok(created.ok, JSON.stringify(created));
  return await app.signIn(email, "correct horse");
}

async function run(client: TestClient, body: unknown) {
  const response = await client.request("/scoped", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

scopedTest(
  "a read carries the whole scope and skips the operation's middleware",
  async (app) => {
    const ada = await writer(app, "ada@example.com");
    const bob = await writer(app, "bob@example.com");
    await app.query("Notes").create({
      text: "ada's",
      hidden: "h",
      owner: ada.user.UUID,
    });
    await app.query("Notes").create({ text: "bob's", owner: bob.user.UUID });
    const read = await run(ada, { operation: "read" });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.result.map((n: { text: string }) => n.text), [
      "ada's",
    ]);
    assert.equal("hidden" in read.body.result[0], false); // the scope's select
    assert.deepEqual(read.body.accessCalls, [{ operation: "read" }]);
  },
);

scopedTest(
  "update and delete AND the scope's where; create and update pass the input",
  async (app) => {
    const ada = await writer(app, "ada@example.com");
    const bob = await writer(app, "bob@example.com");
    const bobs = await app.query("Notes").create({
      text: "bob's",
      owner: bob.user.UUID,
    });
    assert.ok(bobs.ok);
    const foreign = await run(ada, {
      operation: "update",
      uuid: bobs.record.UUID,
      input: { text: "hacked" },
    });
    assert.equal(foreign.status, 200);
    assert.deepEqual(foreign.body.result.records, []);
    assert.deepEqual(foreign.body.accessCalls, [{
      operation: "update",
      input: { text: "hacked" },
    }]);
    assert.equal(
      (await app.query("Notes").findByUUID(bobs.record.UUID as string))?.text,
      "bob's",
    );
    const created = await run(ada, {
      operation: "create",
      input: { text: "mine", owner: ada.user.UUID },
    });
    assert.equal(created.body.result.ok, true, JSON.stringify(created.body));
    assert.deepEqual(created.body.accessCalls, [{
      operation: "create",
      input: { text: "mine", owner: ada.user.UUID },
    }]);
  },
);

scopedTest("closed is 404, no user 401, no capability 403", async (app) => {
  const ada = await writer(app, "ada@example.com");
  const closed = await run(ada, { operation: "delete" });
  assert.equal(closed.status, 404);
  const anonymous = await app.request("/scoped", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ operation: "read" }),
  });
  assert.equal(anonymous.status, 401);
  await anonymous.body?.cancel();
  const reader = await writer(app, "carol@example.com", []);
  assert.equal((await run(reader, { operation: "read" })).status, 403);
});

scopedTest(
  "a link to a record the caller may not read is invalidReference",
  async (app) => {
    const solo = await writer(app, "solo@example.com", ["solo"]);
    const created = await run(solo, {
      operation: "create",
      input: { text: "x", owner: solo.user.UUID },
    });
    assert.equal(created.body.result.ok, false);
    assert.ok(created.body.result.errors.owner);
  },
);
