/**
 * `sendMail`: mail from a route handler, through the app's outbox.
 *
 * @module
 */
import { useApp } from "../app/ambient.ts";
import type { MailMessage } from "./message.ts";

/**
 * Records a mail for delivery by the app handling the current request. The request does not
 * wait for a mail server: the mail is written to the outbox (inside the request's
 * transaction, if any) and a worker delivers it, retrying while the server refuses. With the
 * default `log` transport it is printed to the server log. Throws a TypeError for a
 * malformed mail (a bad address, a subject with a line break).
 *
 * @example
 * ```ts
 * // api/contact.post.ts
 * import { defineHandler, sendMail } from "@strata/strata";
 * export default defineHandler(async (event) => {
 *   const { message } = await event.body<{ message: string }>();
 *   await sendMail({ to: "team@example.com", subject: "Contact form", text: String(message) });
 *   return { ok: true };
 * });
 * ```
 */
export function sendMail(message: MailMessage): Promise<void> {
  return useApp().mail.send(message);
}
