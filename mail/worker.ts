/**
 * The mail worker of one instance: delivers what the outbox holds, off the request path.
 * Instances sharing a database race for each due mail by a conditional update, so exactly
 * one delivers it; a mail the server refused is due again after `retryBase`, doubling, until
 * `retryFor` after it was written, then given up. A mail held by an instance that died is
 * taken by another once its claim expires.
 *
 * @module
 */
import type { Kysely } from "kysely";
import {
  claimMail,
  deferMail,
  dueMail,
  finishMail,
  nextDue,
  type OutboxRow,
  pruneOutbox,
  storeComposed,
} from "./outbox.ts";
import type { MailTransport, OutgoingMail } from "./transport.ts";
import { checkMail, type MailMessage } from "./message.ts";
import { backgroundInterval } from "../utils/_background_interval.ts";

/**
 * Renders a mail recorded with parameters only (`AppMail.compose`) when it is delivered, off
 * the request path; `null`: nothing to send (the mail is dropped).
 */
export type MailComposer = (
  params: Record<string, unknown>,
) => Promise<MailMessage | null>;

/** Options of {@link MailWorker}. */
export interface MailWorkerOptions {
  // deno-lint-ignore no-explicit-any
  readonly db: Kysely<any>;
  readonly transport: MailTransport;
  /** Composers by mail kind (read at each delivery, so later registrations count). */
  readonly composers: ReadonlyMap<string, MailComposer>;
  readonly from: string;
  readonly now: () => number;
  readonly retryBase: number;
  readonly retryFor: number;
}

/** How long a worker holds a mail it is delivering before another may take it. */
const CLAIM_MS = 120_000;
const BATCH = 50;
/** How often an idle worker looks for mail written by other instances. */
const POLL_MS = 5_000;
/** How long delivered and given-up rows are kept (recipient, kind, status, times). */
const KEEP_MS = 7 * 24 * 3_600_000;

/**
 * Delivers the outbox's mail (see the module documentation).
 *
 * @example
 * ```ts ignore
 * const worker = new MailWorker({ db, transport, from, now: Date.now, retryBase: 30_000, retryFor: 3_600_000 });
 * worker.start();
 * await worker.settle();
 * await worker.close();
 * ```
 */
export class MailWorker {
  readonly #options: MailWorkerOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #busy: Promise<void> | null = null;
  #again = false;
  #closed = false;
  #prunedAt = 0;

  /** Creates the worker (nothing runs until {@link MailWorker.start}). */
  constructor(options: MailWorkerOptions) {
    this.#options = options;
  }

  /**
   * Starts delivering: whenever woken (a mail written by this instance wakes it once its
   * transaction commits) and every few seconds. Mail already waiting (written by another
   * instance, or left by an earlier run) goes at the first tick: nothing is read at boot.
   */
  start(): void {
    const tick = Math.max(50, Math.min(this.#options.retryBase / 2, POLL_MS));
    this.#timer = backgroundInterval(() => this.wake(), tick);
  }

  /** Delivers due mail now (called after a transaction that wrote mail commits). */
  wake(): void {
    if (this.#closed) return;
    if (this.#busy) {
      this.#again = true;
      return;
    }
    this.#busy = this.#work().catch((error) => {
      // The database is away: the next wake-up tries again.
      if (!this.#closed) console.error("Mail outbox:", error);
    }).finally(() => {
      this.#busy = null;
    });
  }

  /** Resolves once every mail due now was delivered or deferred. */
  async settle(): Promise<void> {
    this.wake();
    while (this.#busy) await this.#busy;
  }

  /** When the next pending mail is due (epoch ms), or null. */
  nextDue(): Promise<number | null> {
    return nextDue(this.#options.db);
  }

  /** Stops; a delivery in progress finishes first. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    while (this.#busy) await this.#busy;
    this.#options.transport.close();
  }

  async #work(): Promise<void> {
    const { db, now } = this.#options;
    do {
      this.#again = false;
      let due: OutboxRow[];
      do {
        due = await dueMail(db, now(), BATCH);
        for (const row of due) {
          if (this.#closed) return;
          if (await claimMail(db, row, now(), CLAIM_MS)) {
            await this.#deliver(row);
          }
        }
      } while (due.length === BATCH && !this.#closed);
      if (Date.now() - this.#prunedAt > 3_600_000) {
        this.#prunedAt = Date.now();
        await pruneOutbox(db, now() - KEEP_MS);
      }
    } while (this.#again && !this.#closed);
  }

  /** The mail `row` holds, composing it first when it was recorded with parameters only. */
  async #content(row: OutboxRow): Promise<OutgoingMail | null> {
    const { db, composers, from } = this.#options;
    if (row.params === null) {
      return {
        from,
        to: row.recipients.split(","),
        subject: row.subject ?? "",
        text: row.text ?? "",
        ...(row.html === null ? {} : { html: row.html }),
      };
    }
    const composer = composers.get(row.kind ?? "");
    if (!composer) throw new Error(`No composer for mail kind ${row.kind}`);
    const composed = await composer(JSON.parse(row.params));
    if (composed === null) return null;
    const to = checkMail(composed);
    // Kept until delivered, so a retry sends the same mail (the same link) again.
    await storeComposed(db, row.id, {
      to,
      subject: composed.subject,
      text: composed.text,
      html: composed.html ?? null,
    });
    return {
      from,
      to,
      subject: composed.subject,
      text: composed.text,
      ...(composed.html === undefined ? {} : { html: composed.html }),
    };
  }

  async #deliver(row: OutboxRow): Promise<void> {
    const { db, transport, now, retryBase, retryFor } = this.#options;
    try {
      const mail = await this.#content(row);
      if (mail === null) {
        await finishMail(db, row.id, "dropped", now(), null);
        return;
      }
      await transport.send(mail);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = now();
      if (at - row.createdAt >= retryFor) {
        console.error(
          `Mail to ${row.recipients} given up after ${
            row.attempts + 1
          } attempts: ${message}`,
        );
        await finishMail(db, row.id, "failed", at, message);
        return;
      }
      const delay = retryBase * 2 ** row.attempts;
      await deferMail(db, row.id, at + Math.min(delay, retryFor), message);
      return;
    }
    await finishMail(db, row.id, "sent", now(), null);
  }
}
