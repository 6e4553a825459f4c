/**
 * How a mail leaves the process: the `log` transport (prints it, keeps the last 50) or SMTP
 * through nodemailer, loaded only when an app configures SMTP.
 *
 * @module
 */
import type { MailSettings, SmtpSettings } from "./settings.ts";

/** A mail as a transport delivers it. */
export interface OutgoingMail {
  /** The sender. */
  readonly from: string;
  /** The recipients. */
  readonly to: readonly string[];
  /** The subject line. */
  readonly subject: string;
  /** The plain-text body. */
  readonly text: string;
  /** The HTML body, if any. */
  readonly html?: string;
}

/** A mail the `log` transport delivered, with when (epoch ms, the app's clock). */
export interface SentMail extends OutgoingMail {
  /** When it was delivered. */
  readonly sentAt: number;
}

/** Delivers mail; a rejected promise means the server did not accept it (retried later). */
export interface MailTransport {
  /** Delivers one mail. */
  send(mail: OutgoingMail): Promise<void>;
  /** Releases connections. */
  close(): void;
}

/** How many mails the `log` transport keeps. */
export const KEPT_MAILS = 50;

/**
 * The `log` transport: prints each mail (recipients, subject, text with its links) to the
 * server log and keeps the last {@link KEPT_MAILS} in `sent`, newest last.
 *
 * @example
 * ```ts
 * import { logTransport } from "./transport.ts";
 * const sent: never[] = [];
 * const transport = logTransport(sent, () => Date.now());
 * ```
 */
export function logTransport(
  sent: SentMail[],
  now: () => number,
): MailTransport {
  return {
    send(mail) {
      console.log(
        `Mail to ${mail.to.join(", ")}: ${mail.subject}\n${mail.text}`,
      );
      sent.push(Object.freeze({ ...mail, to: [...mail.to], sentAt: now() }));
      if (sent.length > KEPT_MAILS) sent.splice(0, sent.length - KEPT_MAILS);
      return Promise.resolve();
    },
    close() {},
  };
}

/** The part of nodemailer's transporter Strata uses. */
interface Transporter {
  sendMail(mail: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

/**
 * The SMTP transport: one nodemailer transporter (loaded on first use), with timeouts so a
 * server that hangs delays mail instead of holding the worker.
 *
 * @example
 * ```ts ignore
 * const transport = smtpTransport({ host: "127.0.0.1", port: 2525 });
 * await transport.send({ from: "a@example.com", to: ["b@example.com"], subject: "Hi", text: "Hello" });
 * ```
 */
export function smtpTransport(settings: SmtpSettings): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const open = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import("nodemailer");
    const secure = settings.secure === true;
    return nodemailer.createTransport({
      host: settings.host,
      port: settings.port ?? (secure ? 465 : 587),
      secure,
      auth: settings.user === undefined
        ? undefined
        : { user: settings.user, pass: settings.password ?? "" },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    }) as unknown as Transporter;
  };
  return {
    async send(mail) {
      transporter ??= open();
      await (await transporter).sendMail({
        from: mail.from,
        to: [...mail.to],
        subject: mail.subject,
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
      });
    },
    close() {
      transporter?.then((t) => t.close(), () => {});
    },
  };
}

/**
 * The transport `settings` configure.
 *
 * @example
 * ```ts ignore
 * const transport = transportFor(settings, sent, app.now);
 * ```
 */
export function transportFor(
  settings: MailSettings,
  sent: SentMail[],
  now: () => number,
): MailTransport {
  return settings.transport === "log"
    ? logTransport(sent, now)
    : smtpTransport(settings.transport.smtp);
}
