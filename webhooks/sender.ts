/**
 * Sends the webhook deliveries of one instance.
 *
 * Each webhook has a lease row in `_strata_webhook_leases`: its holder (an instance), until
 * when it holds it, and the seq up to which the webhook's deliveries were created from the
 * change log. Only the holder works on the webhook: it creates the delivery records of the
 * new changes the webhook admits (advancing the seq in the same transaction), then sends the
 * due ones one at a time in seq order — so deliveries that succeed first time arrive in seq
 * order, and a failed one is rescheduled without holding back the next. The lease is taken
 * with `FOR UPDATE SKIP LOCKED` on PostgreSQL (an instance never waits behind another) and by
 * a conditional update on SQLite (one writer at a time makes it atomic); it is renewed before
 * an attempt once half of `claimTtl` is gone, and released when there is nothing left to
 * send. An instance that dies keeps its lease until `claimTtl` passes; then another takes
 * it over and sends what is still pending, the interrupted attempt included (at-least-once).
 *
 * @module
 */

import type { Kysely } from "kysely";
import { hostname } from "node:os";
import type { DataLayer } from "../collections/data_layer.ts";
import { kyselyOf } from "../collections/database.ts";
import { createIfMissing } from "../collections/db/create_if_missing.ts";
import {
  changeBounds,
  type ChangeEvent,
  readChanges,
} from "../collections/changes/log.ts";
import { deletedRecord, pruneDeleted } from "../collections/changes/deleted.ts";
import { retryDelay, SerialWork } from "../collections/changes/retry.ts";
import { randomToken } from "../utils/crypto.ts";
import type { WebhookDefinition } from "./define.ts";
import { WEBHOOK_DELIVERIES } from "./deliveries.ts";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook } from "./signature.ts";
import { attemptDelivery, type AttemptResult } from "./send.ts";
import { backgroundInterval } from "../utils/_background_interval.ts";

/** The lease rows, one per webhook. */
export const LEASES_TABLE = "_strata_webhook_leases";

/** The `webhooks` settings, durations in ms. */
export interface WebhookSettings {
  readonly timeout: number;
  readonly retryBase: number;
  readonly retryFor: number;
  readonly claimTtl: number;
  readonly allowInsecure: boolean;
  readonly allowPrivateNetworks: boolean;
}

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  /** The data layer (its feed wakes the sender). */
  readonly data: DataLayer;
  /** The webhooks by name. */
  readonly webhooks: ReadonlyMap<string, WebhookDefinition>;
  /** The `webhooks` settings. */
  readonly settings: WebhookSettings;
  /** How long the change log keeps a change (finished deliveries are kept that much longer). */
  readonly retention: number;
  /** The clock (epoch ms) of scheduling and leases. */
  readonly now: () => number;
  /** The jitter source; default `Math.random`. */
  readonly random?: () => number;
  /** The collections whose deleted records keep their last state (the data layer's `keepDeleted`). */
  readonly keptDeleted: ReadonlySet<string>;
}

interface DeliveryRow {
  UUID: string;
  seq: number | string;
  collection: string;
  op: "create" | "update" | "delete";
  recordUUID: string;
  at: number | string;
  attempts: number | string;
}

const BATCH = 200;
const PRUNE_EVERY = 60_000;

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * Creates the lease table when missing; safe when several instances boot at once.
 *
 * @example
 * ```ts ignore
 * await ensureLeaseTable(db);
 * ```
 */
export async function ensureLeaseTable(db: AnyKysely): Promise<void> {
  await createIfMissing(() =>
    db.schema.createTable(LEASES_TABLE).ifNotExists()
      .addColumn("webhook", "text", (c) => c.primaryKey())
      .addColumn("holder", "text", (c) => c.notNull())
      .addColumn("until", "bigint", (c) => c.notNull())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .execute()
  );
}

/** This machine's name, for holder ids (`host` without the permission to read it). */
function hostName(): string {
  try {
    return hostname().replaceAll(":", "_");
  } catch {
    return "host";
  }
}

/** The sender of each app (the retry route wakes it; tests settle it). */
export const webhookSenders: WeakMap<object, WebhookSender> = new WeakMap();

/**
 * Sends one instance's share of the webhook deliveries (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const sender = new WebhookSender({ data, webhooks, settings, retention, now: Date.now });
 * await sender.start();
 * await sender.close();
 * ```
 */
export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #db: AnyKysely;
  /** This instance's holder id: host, process and a random part. */
  readonly id: string = `${hostName()}:${Deno.pid}:${randomToken(6)}`;
  readonly #work = new Map<string, SerialWork>();
  readonly #until = new Map<string, number>();
  #stop: (() => void) | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #prunedAt = 0;
  #closed = false;

  /** Creates the sender (nothing is sent until {@link WebhookSender.start}). */
  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    this.#db = kyselyOf(options.data.db);
    for (const name of options.webhooks.keys()) {
      this.#work.set(
        name,
        new SerialWork(
          () => this.#serve(name),
          (error) => console.error(`Webhook ${name}:`, error),
        ),
      );
    }
  }

  /** Creates the lease rows, then follows the change feed. */
  async start(): Promise<void> {
    await ensureLeaseTable(this.#db);
    // A webhook seen for the first time starts with the changes committed from now on.
    const newest = (await changeBounds(this.#db)).newest ?? 0;
    for (const name of this.#options.webhooks.keys()) {
      await this.#db.insertInto(LEASES_TABLE)
        .values({ webhook: name, holder: "", until: 0, seq: newest })
        .onConflict((oc) => oc.column("webhook").doNothing()).execute();
    }
    this.#stop = await this.#options.data.feed.subscribe(() => this.wake());
    const tick = Math.max(
      50,
      Math.min(1000, this.#options.settings.claimTtl / 4),
    );
    this.#timer = backgroundInterval(() => this.#tick(), tick);
    this.wake();
  }

  /** Looks for work on every webhook now (new changes, due retries, expired leases). */
  wake(): void {
    for (const work of this.#work.values()) work.wake();
  }

  /** Waits until every webhook's pass that this instance can run has run (tests). */
  async settle(): Promise<void> {
    for (const work of this.#work.values()) await work.settle();
  }

  /** Stops; an attempt in progress finishes, and the leases held are released. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#stop?.();
    for (const work of this.#work.values()) await work.close();
    await this.#db.updateTable(LEASES_TABLE).set({ until: 0 })
      .where("holder", "=", this.id).execute().catch(() => {});
  }

  #tick(): void {
    this.wake();
    if (Date.now() - this.#prunedAt < PRUNE_EVERY) return;
    this.#prunedAt = Date.now();
    this.#prune().catch(() => {}); // the database is away: the next period tries again
  }

  async #prune(): Promise<void> {
    const { settings, retention } = this.#options;
    // Finished deliveries (and the deleted records they may resend) stay visible for one
    // retention period after their retries could have ended.
    const before = this.#options.now() - settings.retryFor - retention;
    await this.#db.deleteFrom(WEBHOOK_DELIVERIES)
      .where("status", "in", ["delivered", "failed"])
      .where("at", "<", before).execute();
    if (this.#options.keptDeleted.size > 0) {
      await pruneDeleted(this.#db, before);
    }
  }

  /** One pass over the webhook `name`, if this instance holds or can take its lease. */
  async #serve(name: string): Promise<void> {
    const now = this.#options.now();
    const lease = await this.#db.selectFrom(LEASES_TABLE)
      .select(["holder", "until", "seq"]).where("webhook", "=", name)
      .executeTakeFirst() as
        | { holder: string; until: number | string; seq: number | string }
        | undefined;
    if (!lease) return;
    const mine = lease.holder === this.id;
    if (!mine && Number(lease.until) > now) return; // another instance works on it
    const behind = this.#options.data.feed.position > Number(lease.seq);
    if (!behind && !await this.#hasDue(name, now)) {
      if (mine) await this.#release(name);
      return;
    }
    let cursor = await this.#acquire(name, now);
    if (cursor === null) return;
    try {
      while (!this.#closed) {
        cursor = await this.#collect(name, cursor);
        if (cursor === null) return; // the lease was lost
        const due = await this.#due(name);
        if (due.length === 0) break;
        const records = await this.#records(due);
        for (const row of due) {
          if (this.#closed) return;
          if (!await this.#attempt(name, row, records)) return;
        }
      }
    } finally {
      if (!this.#closed) await this.#release(name);
    }
  }

  async #hasDue(name: string, now: number): Promise<boolean> {
    const row = await this.#db.selectFrom(WEBHOOK_DELIVERIES).select("UUID")
      .where("webhook", "=", name).where("status", "=", "pending")
      .where("nextAttemptAt", "<=", now).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Takes the lease; resolves to the webhook's seq, or `null` when another holds it. */
  async #acquire(name: string, now: number): Promise<number | null> {
    const until = now + this.#options.settings.claimTtl;
    let seq: number | null = null;
    if (this.#options.data.dialect === "postgres") {
      seq = await this.#db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom(LEASES_TABLE).select("seq")
          .where("webhook", "=", name)
          .where((eb) =>
            eb.or([eb("holder", "=", this.id), eb("until", "<=", now)])
          )
          .forUpdate().skipLocked().executeTakeFirst() as
            | { seq: number | string }
            | undefined;
        if (!row) return null;
        await trx.updateTable(LEASES_TABLE).set({ holder: this.id, until })
          .where("webhook", "=", name).execute();
        return Number(row.seq);
      });
    } else {
      const row = await this.#db.updateTable(LEASES_TABLE)
        .set({ holder: this.id, until })
        .where("webhook", "=", name)
        .where((eb) =>
          eb.or([eb("holder", "=", this.id), eb("until", "<=", now)])
        )
        .returning("seq").executeTakeFirst() as
          | { seq: number | string }
          | undefined;
      seq = row ? Number(row.seq) : null;
    }
    if (seq !== null) this.#until.set(name, until);
    return seq;
  }

  /** Renews the lease once half of it is gone; whether this instance still holds it. */
  async #keep(name: string): Promise<boolean> {
    const now = this.#options.now();
    const { claimTtl } = this.#options.settings;
    if ((this.#until.get(name) ?? 0) - now >= claimTtl / 2) return true;
    const until = now + claimTtl;
    const renewed = await this.#db.updateTable(LEASES_TABLE).set({ until })
      .where("webhook", "=", name).where("holder", "=", this.id)
      .executeTakeFirst();
    if (Number(renewed.numUpdatedRows) !== 1) return false;
    this.#until.set(name, until);
    return true;
  }

  async #release(name: string): Promise<void> {
    this.#until.delete(name);
    await this.#db.updateTable(LEASES_TABLE).set({ until: 0 })
      .where("webhook", "=", name).where("holder", "=", this.id).execute();
  }

  /**
   * Creates the delivery records of the changes after `cursor` the webhook admits, and
   * advances its seq with them; resolves to the new seq (`null`: the lease was lost).
   */
  async #collect(name: string, cursor: number): Promise<number | null> {
    const webhook = this.#options.webhooks.get(name)!;
    while (!this.#closed) {
      // Up to the feed's position only: on PostgreSQL seqs past it may still be filled in.
      const events = await readChanges(
        this.#db,
        cursor,
        500,
        this.#options.data.feed.position,
      );
      if (events.length === 0) return cursor;
      const last = events[events.length - 1].seq;
      const rows = events.filter((event) => admits(webhook, event)).map((
        event,
      ) => ({
        UUID: crypto.randomUUID(),
        _updatedAt: this.#options.now(),
        webhook: name,
        seq: event.seq,
        collection: event.collection,
        op: event.op,
        recordUUID: event.uuid,
        at: event.at,
        status: "pending",
        attempts: 0,
        nextAttemptAt: event.at,
      }));
      const kept = await this.#db.transaction().execute(async (trx) => {
        const moved = await trx.updateTable(LEASES_TABLE).set({ seq: last })
          .where("webhook", "=", name).where("holder", "=", this.id)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return false;
        for (let i = 0; i < rows.length; i += 100) {
          await trx.insertInto(WEBHOOK_DELIVERIES).values(
            rows.slice(i, i + 100),
          )
            .onConflict((oc) => oc.columns(["webhook", "seq"]).doNothing())
            .execute();
        }
        return true;
      });
      if (!kept) return null;
      cursor = last;
      if (events.length < 500) return cursor;
    }
    return cursor;
  }

  async #due(name: string): Promise<DeliveryRow[]> {
    return await this.#db.selectFrom(WEBHOOK_DELIVERIES)
      .select([
        "UUID",
        "seq",
        "collection",
        "op",
        "recordUUID",
        "at",
        "attempts",
      ])
      .where("webhook", "=", name).where("status", "=", "pending")
      .where("nextAttemptAt", "<=", this.#options.now())
      .orderBy("seq").limit(BATCH).execute() as DeliveryRow[];
  }

  /**
   * The records of the creates and updates among `rows` as stored now, by collection and
   * UUID, read once per batch (a record deleted since is absent).
   */
  async #records(
    rows: readonly DeliveryRow[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const { data } = this.#options;
    const wanted = new Map<string, Set<string>>();
    for (const row of rows) {
      if (row.op === "delete" || !data.collections.has(row.collection)) {
        continue;
      }
      let ids = wanted.get(row.collection);
      if (!ids) wanted.set(row.collection, ids = new Set());
      ids.add(row.recordUUID);
    }
    const found = new Map<string, Record<string, unknown>>();
    for (const [collection, ids] of wanted) {
      const records = await data.query(collection)
        .where({ UUID: { in: [...ids] } }).findMany();
      for (const record of records) {
        found.set(`${collection}/${record.UUID}`, record);
      }
    }
    return found;
  }

  /** The record a delivery carries: as stored now, else as it was last stored. */
  async #record(
    row: DeliveryRow,
    current: ReadonlyMap<string, Record<string, unknown>>,
  ): Promise<Record<string, unknown> | null> {
    const stored = current.get(`${row.collection}/${row.recordUUID}`);
    if (stored) return stored;
    if (this.#options.keptDeleted.has(row.collection)) {
      const last = await deletedRecord(
        this.#db,
        row.collection,
        row.recordUUID,
      );
      if (last) return last;
    }
    return row.op === "delete" ? { UUID: row.recordUUID } : null;
  }

  /** Makes one attempt; whether this instance still held the lease to make it. */
  async #attempt(
    name: string,
    row: DeliveryRow,
    records: ReadonlyMap<string, Record<string, unknown>>,
  ): Promise<boolean> {
    const webhook = this.#options.webhooks.get(name)!;
    const { settings } = this.#options;
    const seq = Number(row.seq);
    const at = Number(row.at);
    const body = JSON.stringify({
      id: seq,
      collection: row.collection,
      op: row.op,
      record: await this.#record(row, records),
      at,
    });
    if (!await this.#keep(name)) return false;
    // The signature's time is the wall clock's: receivers check it against theirs.
    const signature = await signWebhook(
      webhook.secret,
      body,
      Math.floor(Date.now() / 1000),
    );
    const result = await attemptDelivery({
      url: webhook.url,
      body,
      headers: {
        ...webhook.headers,
        "Content-Type": "application/json",
        "User-Agent": "Strata-Webhooks",
        [EVENT_ID_HEADER]: String(seq),
        [SIGNATURE_HEADER]: signature,
      },
      timeout: settings.timeout,
      policy: settings,
    });
    await this.#recordOutcome(row, at, result);
    return true;
  }

  async #recordOutcome(
    row: DeliveryRow,
    at: number,
    result: AttemptResult,
  ): Promise<void> {
    const { settings } = this.#options;
    const now = this.#options.now();
    const attempts = Number(row.attempts) + 1;
    const outcome = result.ok
      ? { status: "delivered", deliveredAt: now, nextAttemptAt: null }
      : now - at >= settings.retryFor
      ? { status: "failed", nextAttemptAt: null }
      : {
        status: "pending",
        nextAttemptAt: now +
          retryDelay(
            settings.retryBase,
            attempts,
            this.#options.random ?? Math.random,
          ),
      };
    await this.#db.updateTable(WEBHOOK_DELIVERIES).set({
      ...outcome,
      attempts,
      lastStatus: result.status,
      lastError: result.error?.slice(0, 2000) ?? null,
      _updatedAt: now,
    }).where("UUID", "=", row.UUID).execute();
  }
}

/** Whether `webhook` announces `event`. */
function admits(webhook: WebhookDefinition, event: ChangeEvent): boolean {
  return (webhook.collections === undefined ||
    webhook.collections.includes(event.collection)) &&
    webhook.ops.includes(event.op);
}

/**
 * Makes the delivery `uuid` due now if it is pending or failed; resolves to what it found.
 *
 * @example
 * ```ts ignore
 * await retryDelivery(db, uuid, Date.now()); // "due", "delivered" or "missing"
 * ```
 */
export async function retryDelivery(
  db: AnyKysely,
  uuid: string,
  now: number,
): Promise<"missing" | "delivered" | "due"> {
  const row = await db.selectFrom(WEBHOOK_DELIVERIES).select("status")
    .where("UUID", "=", uuid).executeTakeFirst() as
      | { status: string }
      | undefined;
  if (!row) return "missing";
  const updated = await db.updateTable(WEBHOOK_DELIVERIES)
    .set({ status: "pending", nextAttemptAt: now, _updatedAt: now })
    .where("UUID", "=", uuid).where("status", "in", ["pending", "failed"])
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? "due" : "delivered";
}
