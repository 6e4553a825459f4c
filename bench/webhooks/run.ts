/**
 * Webhooks: 1,000 writes, each announced to a receiver on loopback; delivery throughput and
 * the p99 from commit to arrival. Strata (a webhook on `Orders`) against a hand-written peer
 * on the driver: each write also inserts an outbox row in its transaction, and one loop
 * POSTs the outbox in id order with an HMAC-SHA256 signature and marks rows delivered.
 * Writes go one after the other as fast as the database takes them, so later deliveries
 * queue behind earlier ones (the p99 includes that wait). App, peer and receiver share this
 * process. Run alone: `deno run -A bench/webhooks/run.ts`.
 *
 * @module
 */
import pg from "pg";
import { DatabaseSync } from "node:sqlite";
import { createApp } from "../../mod.ts";
import { QUICK } from "../_load.ts";
import { type BenchDatabase, freshDatabase, selectedKinds } from "../_db.ts";
import {
  type BenchReport,
  type Comparison,
  percentile,
  printReport,
} from "../_report.ts";

const WRITES = QUICK ? 200 : 1000;
const SECRET = "bench-secret-0123456789";

/** Arrival latencies (ms after the change's `at`) of one run. */
interface Run {
  latencies: number[];
  startedAt: number;
  lastAt: number;
}

/** The receiver: answers 200 and notes each id's arrival once. */
function startReceiver() {
  let run: Run & { seen: Set<number>; done: () => void } | null = null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const body = await request.json() as { id: number; at: number };
      const now = Date.now();
      if (run && !run.seen.has(body.id)) {
        run.seen.add(body.id);
        run.latencies.push(now - body.at);
        run.lastAt = now;
        if (run.seen.size === WRITES) run.done();
      }
      return new Response(null, { status: 200 });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    /** Runs `writes`, resolving once every delivery arrived. */
    async measure(writes: () => Promise<void>): Promise<Run> {
      let done!: () => void;
      const arrived = new Promise<void>((resolve) => done = resolve);
      run = {
        latencies: [],
        seen: new Set(),
        startedAt: Date.now(),
        lastAt: 0,
        done,
      };
      await writes();
      await arrived;
      const result = run;
      run = null;
      return result;
    },
    close: () => server.shutdown(),
  };
}

/**
 * Lets the event loop run between two writes, as it runs between a server's requests: a
 * loop of synchronous SQLite writes would otherwise hold every delivery's response back
 * until the last write. Both sides wait the same way.
 */
function betweenWrites(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function sign(body: string): Promise<string> {
  const time = Math.floor(Date.now() / 1000);
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      key,
      new TextEncoder().encode(`${time}.${body}`),
    ),
  );
  return `t=${time},v1=${
    Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** The peer's sending loop over an outbox the `store` reads and marks. */
function outboxSender(
  url: string,
  store: {
    pending(): Promise<{ id: number; body: string }[]>;
    delivered(id: number): Promise<void>;
  },
) {
  let busy: Promise<void> | null = null;
  let again = false;
  const pass = async () => {
    do {
      again = false;
      for (const row of await store.pending()) {
        const response = await fetch(url, {
          method: "POST",
          body: row.body,
          headers: {
            "content-type": "application/json",
            "strata-event-id": String(row.id),
            "strata-signature": await sign(row.body),
          },
          redirect: "manual",
        });
        await response.body?.cancel();
        if (response.ok) await store.delivered(row.id);
        again = true;
      }
    } while (again);
  };
  return {
    wake() {
      if (busy) {
        again = true;
        return;
      }
      busy = pass().finally(() => busy = null);
    },
    async idle() {
      while (busy) await busy;
    },
  };
}

async function peerRun(
  db: BenchDatabase,
  receiver: ReturnType<typeof startReceiver>,
): Promise<Run> {
  if (db.kind === "sqlite") {
    const sqlite = new DatabaseSync(`${db.url}.peer`);
    sqlite.exec(`pragma journal_mode = wal; pragma synchronous = normal;
      create table orders (id text primary key, item text, qty integer);
      create table outbox (id integer primary key autoincrement, body text, done integer not null default 0);`);
    const insertOrder = sqlite.prepare("insert into orders values (?, ?, ?)");
    const insertOutbox = sqlite.prepare("insert into outbox (body) values (?)");
    const pending = sqlite.prepare(
      "select id, body from outbox where done = 0 order by id limit 100",
    );
    const done = sqlite.prepare("update outbox set done = 1 where id = ?");
    const sender = outboxSender(receiver.url, {
      pending: () =>
        Promise.resolve(pending.all() as { id: number; body: string }[]),
      delivered: (id) => Promise.resolve(void done.run(id)),
    });
    const run = await receiver.measure(async () => {
      for (let i = 0; i < WRITES; i++) {
        const uuid = crypto.randomUUID();
        const record = { UUID: uuid, item: `o${i}`, qty: i };
        sqlite.exec("begin");
        insertOrder.run(uuid, record.item, record.qty);
        const { lastInsertRowid } = insertOutbox.run("");
        sqlite.prepare("update outbox set body = ? where id = ?").run(
          JSON.stringify({
            id: Number(lastInsertRowid),
            collection: "Orders",
            op: "create",
            record,
            at: Date.now(),
          }),
          lastInsertRowid,
        );
        sqlite.exec("commit");
        sender.wake();
        await betweenWrites();
      }
    });
    await sender.idle();
    sqlite.close();
    return run;
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 4 });
  const schema = `${db.schema}_peer`;
  await pool.query(`create schema "${schema}"`);
  const table = (name: string) => `"${schema}".${name}`;
  try {
    await pool.query(
      `create table ${
        table("orders")
      } (id uuid primary key, item text, qty integer)`,
    );
    await pool.query(
      `create table ${
        table("outbox")
      } (id bigserial primary key, body text not null, done boolean not null default false)`,
    );
    const sender = outboxSender(receiver.url, {
      async pending() {
        const { rows } = await pool.query(
          `select id, body from ${
            table("outbox")
          } where not done order by id limit 100`,
        );
        return rows.map((r: { id: string; body: string }) => ({
          id: Number(r.id),
          body: r.body,
        }));
      },
      async delivered(id) {
        await pool.query(
          `update ${table("outbox")} set done = true where id = $1`,
          [id],
        );
      },
    });
    const run = await receiver.measure(async () => {
      for (let i = 0; i < WRITES; i++) {
        const uuid = crypto.randomUUID();
        const record = { UUID: uuid, item: `o${i}`, qty: i };
        const client = await pool.connect();
        try {
          await client.query("begin");
          await client.query(
            `insert into ${table("orders")} values ($1, $2, $3)`,
            [uuid, record.item, record.qty],
          );
          const { rows } = await client.query(
            `insert into ${table("outbox")} (body) values ('') returning id`,
          );
          const id = Number(rows[0].id);
          await client.query(
            `update ${table("outbox")} set body = $1 where id = $2`,
            [
              JSON.stringify({
                id,
                collection: "Orders",
                op: "create",
                record,
                at: Date.now(),
              }),
              id,
            ],
          );
          await client.query("commit");
        } finally {
          client.release();
        }
        sender.wake();
        await betweenWrites();
      }
    });
    await sender.idle();
    return run;
  } finally {
    await pool.query(`drop schema "${schema}" cascade`);
    await pool.end();
  }
}

async function strataRun(
  db: BenchDatabase,
  receiver: ReturnType<typeof startReceiver>,
): Promise<Run> {
  const app = await createApp({
    root: new URL("./app/", import.meta.url),
    database: db.url,
    databaseSchema: db.schema,
  });
  try {
    return await receiver.measure(async () => {
      for (let i = 0; i < WRITES; i++) {
        const created = await app.query("Orders").create({
          item: `o${i}`,
          qty: i,
        });
        if (!created.ok) throw new Error(JSON.stringify(created.errors));
        await betweenWrites();
      }
    });
  } finally {
    await app.close();
  }
}

function p99(values: readonly number[]): number {
  return percentile(values, 0.99);
}

function throughput(run: Run): number {
  return WRITES / ((run.lastAt - run.startedAt) / 1000);
}

/**
 * Runs the benchmark on each selected database.
 *
 * @example
 * ```ts ignore
 * printReport(await webhooksBench());
 * ```
 */
export async function webhooksBench(): Promise<BenchReport> {
  const receiver = startReceiver();
  // The bench app's webhook reads its URL when its file loads (once per process).
  Deno.env.set("BENCH_WEBHOOK_URL", receiver.url);
  const rows: Comparison[] = [];
  try {
    for (const kind of selectedKinds()) {
      const db = await freshDatabase(kind, "webhooks");
      try {
        const peer = await peerRun(db, receiver);
        const ours = await strataRun(db, receiver);
        rows.push(
          {
            measure: `${db.label}: deliveries/s (${WRITES} writes)`,
            peer: "outbox loop",
            peerValue: throughput(peer),
            ours: throughput(ours),
          },
          {
            measure: `${db.label}: p99 commit → delivery, ms`,
            peer: "outbox loop",
            peerValue: p99(peer.latencies),
            ours: p99(ours.latencies),
          },
        );
      } finally {
        await db.drop();
      }
    }
  } finally {
    await receiver.close();
  }
  return {
    title: "Webhooks: committed writes delivered to a receiver on loopback",
    method:
      `${WRITES} writes one after the other, each POSTed signed to a receiver in the same process; throughput from the first write to the last arrival, p99 of arrival minus the change's time`,
    rows,
  };
}

if (import.meta.main) printReport(await webhooksBench());
