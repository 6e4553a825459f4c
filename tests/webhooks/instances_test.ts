// Several instances on one database, each in a process of its own: every delivery is sent
// by exactly one of them, in seq order, and when the instance sending is killed mid-delivery
// another takes its claim over once it expires and every delivery still arrives.
import assert from "node:assert/strict";
import pg from "pg";
import { DatabaseSync } from "node:sqlite";
import {
  eventually,
  PG_URL,
  type Receiver,
  startReceiver,
  WEBHOOKS_APP,
} from "./_helpers.ts";

/** The secret of the fixture's webhooks/orders.ts. */
const FIXTURE_SECRET = "fixture-secret-0123456789";

interface Child {
  readonly url: string;
  readonly pid: number;
  kill(): Promise<void>;
}

async function spawnChild(
  database: string,
  schema: string | undefined,
  env: Record<string, string>,
): Promise<Child> {
  const process = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./_child.ts", import.meta.url).pathname,
      WEBHOOKS_APP,
      database,
      ...schema ? [schema] : [],
    ],
    env,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = process.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let output = "";
  while (!/PORT (\d+)/.test(output)) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`The child process ended: ${output}`);
    output += value;
  }
  // Keep draining, so the child never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done) { /* drain */ }
  })().catch(() => {});
  let killed = false;
  return {
    url: `http://127.0.0.1:${output.match(/PORT (\d+)/)![1]}`,
    pid: process.pid,
    async kill() {
      if (!killed) {
        killed = true;
        process.kill("SIGKILL");
      }
      await process.status;
    },
  };
}

/** One database shared by child processes: SQLite on a temp file, or a PostgreSQL schema. */
interface Shared {
  readonly database: string;
  readonly schema?: string;
  /** The holder id of the webhook's lease (`host:pid:random`). */
  leaseHolder(): Promise<string>;
  drop(): Promise<void>;
}

async function sharedDatabase(dialect: "sqlite" | "postgres"): Promise<Shared> {
  if (dialect === "sqlite") {
    const dir = await Deno.makeTempDir();
    const database = `${dir}/app.db`;
    return {
      database,
      leaseHolder() {
        const db = new DatabaseSync(database, { readOnly: true });
        try {
          const row = db.prepare(
            "select holder from _strata_webhook_leases where webhook = 'orders'",
          ).get() as { holder: string };
          return Promise.resolve(row.holder);
        } finally {
          db.close();
        }
      },
      drop: () => Deno.remove(dir, { recursive: true }),
    };
  }
  const schema = `t_webhooks_${crypto.randomUUID().slice(0, 8)}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      return (await client.query(text)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    database: PG_URL!,
    schema,
    async leaseHolder() {
      const rows = await query(
        `select holder from "${schema}"._strata_webhook_leases where webhook = 'orders'`,
      );
      return rows[0].holder;
    },
    async drop() {
      await query(`drop schema if exists "${schema}" cascade`);
    },
  };
}

async function install(child: Child): Promise<string> {
  const response = await fetch(`${child.url}/auth/install`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: "admin@example.com",
      password: "correct horse battery",
    }),
  });
  assert.equal(response.status, 200, await response.text());
  return response.headers.getSetCookie()[0].split(";")[0];
}

async function createOrder(
  child: Child,
  cookie: string,
  item: string,
): Promise<void> {
  const response = await fetch(`${child.url}/collections/orders`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body: JSON.stringify({ item }),
  });
  assert.equal(response.status, 201, await response.text());
}

async function deliveryStates(
  child: Child,
  cookie: string,
): Promise<{ seq: number; status: string; attempts: number }[]> {
  const response = await fetch(
    `${child.url}/collections/webhook-deliveries?order=seq&select=[seq,status,attempts]`,
    { headers: { cookie } },
  );
  assert.equal(response.status, 200);
  return await response.json();
}

function childEnv(receiver: Receiver): Record<string, string> {
  return {
    STRATA_TEST_WEBHOOK_URL: receiver.url,
    STRATA_TEST_WEBHOOK_TIMEOUT: "5s",
    STRATA_TEST_WEBHOOK_CLAIM_TTL: "10s",
  };
}

function instancesTest(
  name: string,
  fn: (shared: Shared, dialect: "sqlite" | "postgres") => Promise<void>,
): void {
  for (const dialect of ["sqlite", "postgres"] as const) {
    Deno.test({
      name: `${name} [${dialect}]`,
      ignore: dialect === "postgres" && !PG_URL,
      async fn() {
        const shared = await sharedDatabase(dialect);
        try {
          await fn(shared, dialect);
        } finally {
          await shared.drop();
        }
      },
    });
  }
}

instancesTest(
  "instances in several processes send each delivery once, in seq order",
  async (shared, dialect) => {
    const receiver = startReceiver(() => 200, FIXTURE_SECRET);
    const children: Child[] = [];
    try {
      const count = dialect === "postgres" ? 3 : 2;
      for (let i = 0; i < count; i++) {
        children.push(
          await spawnChild(shared.database, shared.schema, childEnv(receiver)),
        );
      }
      const cookie = await install(children[0]);
      // Writes through every instance, some at once.
      let n = 0;
      for (let round = 0; round < 10; round++) {
        await Promise.all(
          children.map((child) => createOrder(child, cookie, `o${n++}`)),
        );
      }
      const total = n;
      await eventually(
        () => new Set(receiver.ids()).size >= total,
        30_000,
        () => `${total} deliveries (got ${receiver.ids().length})`,
      );
      let states: Awaited<ReturnType<typeof deliveryStates>> = [];
      const deadline = Date.now() + 30_000;
      do {
        states = await deliveryStates(children[count - 1], cookie);
        if (states.every((s) => s.status === "delivered")) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      } while (Date.now() < deadline);
      assert.equal(states.length, total);
      assert.ok(
        states.every((s) => s.status === "delivered" && s.attempts === 1),
      );
      // One more write: once it arrives, anything sent before it has arrived too.
      await createOrder(children[1], cookie, "last");
      await eventually(
        () => receiver.ids().length > total,
        30_000,
        "the last one",
      );
      const ids = receiver.ids();
      assert.equal(ids.length, total + 1, `duplicates: ${ids}`);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "seq order");
      assert.deepEqual(ids.slice(0, total), states.map((s) => s.seq));
    } finally {
      for (const child of children) await child.kill();
      await receiver.close();
    }
  },
);

instancesTest(
  "the claims of an instance killed mid-delivery are taken over and every delivery arrives",
  async (shared) => {
    let hung: ((status: number) => void) | null = null;
    const receiver = startReceiver(
      (n) => n === 1 ? new Promise<number>((resolve) => hung = resolve) : 200,
      FIXTURE_SECRET,
    );
    const children: Child[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        children.push(
          await spawnChild(shared.database, shared.schema, childEnv(receiver)),
        );
      }
      const cookie = await install(children[0]);
      for (let i = 0; i < 4; i++) {
        await createOrder(children[i % 2], cookie, `before${i}`);
      }
      await eventually(() => hung !== null, 30_000, "the first delivery");
      const first = receiver.received[0].body!.id;
      // Kill whichever instance holds the claim while its request is open.
      const holder = await shared.leaseHolder();
      const sending = children.find((c) =>
        holder.split(":")[1] === String(c.pid)
      );
      assert.ok(sending, `no child holds ${holder}`);
      await sending.kill();
      hung!(200);
      const survivor = children.find((c) => c !== sending)!;
      await createOrder(survivor, cookie, "after");
      // After claimTtl the survivor takes the claim over and sends everything, the
      // interrupted delivery included (again: at-least-once).
      await eventually(
        () => new Set(receiver.ids()).size >= 5,
        45_000,
        () => `5 deliveries (got ${receiver.ids()})`,
      );
      const ids = receiver.ids();
      assert.equal(ids[0], first);
      assert.ok(ids.slice(1).includes(first), `resent: ${ids}`);
      const holderNow = await shared.leaseHolder();
      assert.equal(holderNow.split(":")[1], String(survivor.pid));
      let states: Awaited<ReturnType<typeof deliveryStates>> = [];
      const deadline = Date.now() + 30_000;
      do {
        states = await deliveryStates(survivor, cookie);
        if (
          states.length === 5 && states.every((s) => s.status === "delivered")
        ) {
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      } while (Date.now() < deadline);
      assert.deepEqual(states.map((s) => s.status), Array(5).fill("delivered"));
      assert.deepEqual(
        states.map((s) => s.seq),
        [...new Set(ids)].sort((a, b) => a - b),
      );
    } finally {
      for (const child of children) await child.kill();
      await receiver.close();
    }
  },
);
