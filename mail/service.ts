/**
 * An app's mail: `app.mail.send` records a mail in the outbox (inside the caller's
 * transaction when there is one) and wakes the worker once that commits; the request never
 * waits for a mail server.
 *
 * @module
 */
import type { Kysely } from "kysely";
import { checkMail, type MailMessage } from "./message.ts";
import { enqueueMail } from "./outbox.ts";
import type { MailSettings } from "./settings.ts";
import { type SentMail, transportFor } from "./transport.ts";
import { type MailComposer, MailWorker } from "./worker.ts";

/** Options of {@link AppMail.send}. */
export interface SendOptions {
  /**
   * The message key the mail was rendered from (`mail.passwordReset`); it stays in the
   * outbox after the subject and body are deleted.
   */
  readonly kind?: string;
}

/** An app's mail service (`app.mail`). */
export interface AppMail {
  /** The validated `mail` config. */
  readonly settings: MailSettings;
  /**
   * Mails the `log` transport delivered, the last 50, oldest first (empty under SMTP): what
   * tests read links from.
   */
  readonly sent: readonly SentMail[];
  /**
   * Records a mail for delivery; throws a TypeError for a malformed one. Inside a transaction
   * it is written (and later sent) only if the transaction commits.
   */
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  /**
   * Records a mail of `kind` to be rendered when it is delivered, by the composer registered
   * for `kind` (see {@link AppMail.composer}), from `params` (JSON). The request's work is the
   * same whatever the composer later finds, which keeps timing from revealing it (a
   * password reset for an address without an account writes the same row and is dropped
   * by the worker). `to` is recorded as the recipient until the mail is composed.
   */
  compose(
    kind: string,
    params: Record<string, unknown>,
    to?: string,
  ): Promise<void>;
  /** Registers the composer of a mail kind (layers do this in `setup`). */
  composer(kind: string, composer: MailComposer): void;
  /** Resolves once every mail due now was delivered or deferred (for tests). */
  settle(): Promise<void>;
  /** When the next undelivered mail is due (epoch ms), or null when none is waiting. */
  nextDue(): Promise<number | null>;
}

/** What {@link openMail} needs of the app. */
export interface MailHost {
  /** The outbox's database handle: the current transaction's inside one. */
  // deno-lint-ignore no-explicit-any
  readonly executor: () => Kysely<any>;
  /** Runs `fn` once the current transaction commits (at once outside one). */
  readonly afterCommit: (fn: () => void) => void;
  /** The app's clock. */
  readonly now: () => number;
}

/** An open mail service with its worker. */
export interface OpenMail extends AppMail {
  /** Stops the worker. */
  close(): Promise<void>;
}

/**
 * Starts the instance's worker. The outbox is made by schema sync: `createApp` hands
 * `OUTBOX_TABLES` (outbox.ts) to the data layer.
 *
 * @example
 * ```ts ignore
 * const mail = openMail(settings, { executor, afterCommit, now });
 * await mail.send({ to: "ada@example.com", subject: "Hi", text: "Hello" });
 * await mail.close();
 * ```
 */
export function openMail(
  settings: MailSettings,
  host: MailHost,
): OpenMail {
  const sent: SentMail[] = [];
  const composers = new Map<string, MailComposer>();
  const worker = new MailWorker({
    db: host.executor(),
    transport: transportFor(settings, sent, host.now),
    composers,
    from: settings.from,
    now: host.now,
    retryBase: settings.retryBase,
    retryFor: settings.retryFor,
  });
  worker.start();
  return Object.freeze({
    settings,
    sent,
    async send(message: MailMessage, options: SendOptions = {}) {
      const to = checkMail(message);
      await enqueueMail(host.executor(), {
        to,
        kind: options.kind ?? null,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        params: null,
      }, host.now());
      host.afterCommit(() => worker.wake());
    },
    async compose(kind: string, params: Record<string, unknown>, to = "") {
      await enqueueMail(host.executor(), {
        to: [to],
        kind,
        subject: null,
        text: null,
        html: null,
        params: JSON.stringify(params),
      }, host.now());
      host.afterCommit(() => worker.wake());
    },
    composer(kind: string, composer: MailComposer) {
      composers.set(kind, composer);
    },
    settle: () => worker.settle(),
    nextDue: () => worker.nextDue(),
    close: () => worker.close(),
  });
}
