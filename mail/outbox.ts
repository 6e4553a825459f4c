/**
 * The mail outbox: a framework table (not a collection, so it is never exposed and never
 * produces change events) in which a request records its mail inside its own transaction.
 * The worker (worker.ts) delivers from it. Once a server accepted a mail, or it was given
 * up, its subject and bodies (and so any token link) are deleted: only the recipients,
 * the subject key, the status and the times remain.
 *
 * @module
 */
import { type Kysely, sql } from "kysely";

/** The outbox table. */
export const OUTBOX_TABLE = "_strata_mail_outbox";

// deno-lint-ignore no-explicit-any
type AnyKysely = Kysely<any>;

/**
 * Where a mail is in its life: `dropped` is a composed mail whose composer decided there
 * was nothing to send (a password reset for an address without an account).
 */
export type OutboxStatus =
  | "pending"
  | "sending"
  | "sent"
  | "failed"
  | "dropped";

/** A row of the outbox. */
export interface OutboxRow {
  /** Its identifier (a UUID). */
  readonly id: string;
  /** The recipients, comma-separated. */
  readonly recipients: string;
  /** The message key the mail was rendered from (`mail.passwordReset`), or null. */
  readonly kind: string | null;
  /** Subject and bodies; null once delivered or given up. */
  readonly subject: string | null;
  readonly text: string | null;
  readonly html: string | null;
  /** The JSON parameters of a mail composed at delivery (see `AppMail.compose`); null once finished. */
  readonly params: string | null;
  readonly status: OutboxStatus;
  /** Delivery attempts so far. */
  readonly attempts: number;
  /** When it was written, when it is next due, until when a worker holds it (epoch ms). */
  readonly createdAt: number;
  readonly nextAt: number;
  readonly claimUntil: number;
  /** When it was delivered or given up. */
  readonly finishedAt: number | null;
  /** The last delivery error. */
  readonly lastError: string | null;
}

/**
 * The statements creating the outbox when missing; `createApp` hands them to the data
 * layer, whose schema sync runs them in its transaction.
 *
 * @example
 * ```ts
 * import { OUTBOX_TABLES } from "./outbox.ts";
 * OUTBOX_TABLES.length; // 2
 * ```
 */
export const OUTBOX_TABLES: readonly string[] = Object.freeze([
  `create table if not exists "${OUTBOX_TABLE}" ("id" text primary key, ` +
  `"recipients" text not null, "kind" text, "subject" text, "text" text, "html" text, ` +
  `"params" text, "status" text not null, "attempts" integer not null, ` +
  `"createdAt" bigint not null, "nextAt" bigint not null, "claimUntil" bigint not null, ` +
  `"finishedAt" bigint, "lastError" text)`,
  `create index if not exists "${OUTBOX_TABLE}__status_nextAt__idx" on "${OUTBOX_TABLE}" ("status", "nextAt")`,
]);

/** A mail to record: either its content, or the parameters its composer renders it from. */
export interface OutboxEntry {
  readonly to: readonly string[];
  readonly kind: string | null;
  readonly subject: string | null;
  readonly text: string | null;
  readonly html: string | null;
  readonly params: string | null;
}

/**
 * Records `entry` as due now, through `db` (the request's transaction when there is one).
 *
 * @example
 * ```ts ignore
 * await enqueueMail(kyselyOf(app.data.executor()), entry, app.now());
 * ```
 */
export async function enqueueMail(
  db: AnyKysely,
  entry: OutboxEntry,
  now: number,
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insertInto(OUTBOX_TABLE).values({
    id,
    recipients: entry.to.join(","),
    kind: entry.kind,
    subject: entry.subject,
    text: entry.text,
    html: entry.html,
    params: entry.params,
    status: "pending",
    attempts: 0,
    createdAt: now,
    nextAt: now,
    claimUntil: 0,
    finishedAt: null,
    lastError: null,
  }).execute();
  return id;
}

function toRow(raw: Record<string, unknown>): OutboxRow {
  const number = (v: unknown) => v === null ? null : Number(v);
  return {
    id: String(raw.id),
    recipients: String(raw.recipients),
    kind: (raw.kind as string | null) ?? null,
    subject: (raw.subject as string | null) ?? null,
    text: (raw.text as string | null) ?? null,
    html: (raw.html as string | null) ?? null,
    params: (raw.params as string | null) ?? null,
    status: raw.status as OutboxStatus,
    attempts: Number(raw.attempts),
    createdAt: Number(raw.createdAt),
    nextAt: Number(raw.nextAt),
    claimUntil: Number(raw.claimUntil),
    finishedAt: number(raw.finishedAt),
    lastError: (raw.lastError as string | null) ?? null,
  };
}

/**
 * The outbox rows, oldest first (for tests and operators; at most `limit`).
 *
 * @example
 * ```ts ignore
 * const rows = await outboxRows(kyselyOf(app.db));
 * ```
 */
export async function outboxRows(
  db: AnyKysely,
  limit = 1000,
): Promise<OutboxRow[]> {
  const rows = await db.selectFrom(OUTBOX_TABLE).selectAll()
    .orderBy("createdAt").orderBy("id").limit(limit).execute();
  return rows.map(toRow);
}

/** Rows due for delivery at `now`: pending and due, or held by a worker whose claim expired. */
export async function dueMail(
  db: AnyKysely,
  now: number,
  limit: number,
): Promise<OutboxRow[]> {
  // Written out: every poll runs it, the first at boot, where building it through the
  // query builder cost more than the query.
  const { rows } = await sql<Record<string, unknown>>`
    select * from ${sql.id(OUTBOX_TABLE)}
    where ("status" = 'pending' and "nextAt" <= ${now})
      or ("status" = 'sending' and "claimUntil" <= ${now})
    order by "nextAt" limit ${limit}`.execute(db);
  return rows.map(toRow);
}

/** The earliest `nextAt` of a pending row, or null when none is pending. */
export async function nextDue(db: AnyKysely): Promise<number | null> {
  const row = await db.selectFrom(OUTBOX_TABLE)
    .select((eb) => eb.fn.min("nextAt").as("next"))
    .where("status", "=", "pending").executeTakeFirst();
  const next = row?.next;
  return next === null || next === undefined ? null : Number(next);
}

/**
 * Takes `row` for one delivery attempt, unless another worker took or finished it first.
 * Whether this worker won it.
 */
export async function claimMail(
  db: AnyKysely,
  row: OutboxRow,
  now: number,
  hold: number,
): Promise<boolean> {
  const taken = await db.updateTable(OUTBOX_TABLE).set({
    status: "sending",
    attempts: row.attempts + 1,
    claimUntil: now + hold,
  }).where("id", "=", row.id).where("attempts", "=", row.attempts)
    .where("status", "=", row.status).executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Stores what a composer rendered for a claimed mail, until it is delivered. */
export async function storeComposed(
  db: AnyKysely,
  id: string,
  mail: {
    to: readonly string[];
    subject: string;
    text: string;
    html: string | null;
  },
): Promise<void> {
  await db.updateTable(OUTBOX_TABLE).set({
    recipients: mail.to.join(","),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    params: null,
  }).where("id", "=", id).execute();
}

/** Marks a claimed mail delivered, given up or dropped; its subject and bodies are deleted. */
export async function finishMail(
  db: AnyKysely,
  id: string,
  status: "sent" | "failed" | "dropped",
  now: number,
  error: string | null,
): Promise<void> {
  await db.updateTable(OUTBOX_TABLE).set({
    status,
    subject: null,
    text: null,
    html: null,
    params: null,
    finishedAt: now,
    lastError: error?.slice(0, 2000) ?? null,
  }).where("id", "=", id).execute();
}

/** Puts a claimed mail back, due again at `nextAt`. */
export async function deferMail(
  db: AnyKysely,
  id: string,
  nextAt: number,
  error: string,
): Promise<void> {
  await db.updateTable(OUTBOX_TABLE).set({
    status: "pending",
    nextAt,
    claimUntil: 0,
    lastError: error.slice(0, 2000),
  }).where("id", "=", id).execute();
}

/** Deletes finished rows older than `before` (epoch ms). */
export async function pruneOutbox(
  db: AnyKysely,
  before: number,
): Promise<void> {
  await sql`delete from ${sql.id(OUTBOX_TABLE)}
    where "status" in ('sent', 'failed', 'dropped') and "finishedAt" < ${before}`
    .execute(db);
}
