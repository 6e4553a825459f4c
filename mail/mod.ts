/**
 * Mail: the outbox, its worker, the `log` and SMTP transports, and mails rendered from
 * message catalogs.
 *
 * @module
 */
export { sendMail } from "./send_mail.ts";
export { isMailAddress, type MailMessage } from "./message.ts";
export type { AppMail, SendOptions } from "./service.ts";
export type { MailComposer } from "./worker.ts";
export type { OutgoingMail, SentMail } from "./transport.ts";
export type { MailConfig, MailSettings, SmtpSettings } from "./settings.ts";
