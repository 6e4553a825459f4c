/**
 * Mails rendered from message-catalog keys: `<key>.subject` and `<key>.text` in the
 * recipient's language (else the app's default language). An app overrides a mail per key,
 * like any message.
 *
 * @module
 */
import type { Translator } from "../i18n/translator.ts";

/** A rendered mail. */
export interface RenderedMail {
  /** The subject line. */
  readonly subject: string;
  /** The plain-text body. */
  readonly text: string;
}

/**
 * Renders the mail under `key` for a recipient whose language is `language` (null: the
 * default language). Line breaks in the subject become spaces.
 *
 * @example
 * ```ts ignore
 * const mail = renderMail(app.messages.translator, "mail.passwordReset", { link }, "de");
 * ```
 */
export function renderMail(
  translator: Translator,
  key: string,
  params: Record<string, unknown>,
  language: string | null,
): RenderedMail {
  const languages = language ? [language] : [];
  return {
    subject: translator.t(`${key}.subject`, params, languages)
      .replace(/[\r\n]+/g, " "),
    text: translator.t(`${key}.text`, params, languages),
  };
}
