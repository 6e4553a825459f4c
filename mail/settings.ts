/**
 * The `mail` section of the app config: who mail is from, how it leaves (the `log`
 * transport, or SMTP), and how long a mail that cannot be delivered is retried.
 *
 * @module
 */
import { type Duration, parseDuration } from "../router/limits.ts";

/** SMTP server settings (`mail.transport.smtp`). */
export interface SmtpSettings {
  /** Host name or address of the server. */
  readonly host: string;
  /** Port; default 465 when `secure`, else 587. */
  readonly port?: number;
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when the server offers it. */
  readonly secure?: boolean;
  /** Account name, when the server wants authentication. */
  readonly user?: string;
  /** Account password. */
  readonly password?: string;
}

/** The `mail` config section as written. */
export interface MailConfig {
  /** The sender (`"Ada <ada@example.com>"` or an address). Default `Strata <noreply@localhost>`. */
  from?: string;
  /**
   * `"log"` (the default) prints every mail to the server log and keeps the last 50 in
   * memory (`app.mail.sent`); `{ smtp: {...} }` sends through an SMTP server.
   */
  transport?: "log" | { smtp: SmtpSettings };
  /** First retry of a mail the server did not accept (then doubling). Default `30s`. */
  retryBase?: Duration;
  /** How long after it was written a mail is retried before it is given up. Default `1h`. */
  retryFor?: Duration;
}

/** The `mail` section after validation. */
export interface MailSettings {
  /** The sender. */
  readonly from: string;
  /** `"log"` or the SMTP server. */
  readonly transport: "log" | { readonly smtp: Readonly<SmtpSettings> };
  /** First retry delay in ms. */
  readonly retryBase: number;
  /** Retry window in ms. */
  readonly retryFor: number;
}

const KEYS = new Set(["from", "transport", "retryBase", "retryFor"]);
const SMTP_KEYS = new Set(["host", "port", "secure", "user", "password"]);
/** A header value: printable, no line breaks (they would start a new header). */
const HEADER_SAFE = /^[^\p{Cc}]{1,998}$/u;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function smtp(value: unknown, source: string): SmtpSettings {
  if (!isObject(value)) {
    throw new Error(`${source}: mail.transport.smtp must be an object`);
  }
  for (const key of Object.keys(value)) {
    if (!SMTP_KEYS.has(key)) {
      throw new Error(
        `${source}: unknown config key "mail.transport.smtp.${key}"`,
      );
    }
  }
  const { host, port, secure, user, password } = value;
  if (typeof host !== "string" || !HEADER_SAFE.test(host)) {
    throw new Error(`${source}: mail.transport.smtp.host must be a host name`);
  }
  if (
    port !== undefined &&
    (!Number.isInteger(port) || (port as number) < 1 ||
      (port as number) > 65535)
  ) {
    throw new Error(
      `${source}: mail.transport.smtp.port must be a port number`,
    );
  }
  if (secure !== undefined && typeof secure !== "boolean") {
    throw new Error(`${source}: mail.transport.smtp.secure must be a boolean`);
  }
  for (const [key, v] of [["user", user], ["password", password]] as const) {
    if (v !== undefined && typeof v !== "string") {
      throw new Error(`${source}: mail.transport.smtp.${key} must be a string`);
    }
  }
  return Object.freeze({
    host,
    port: port as number | undefined,
    secure: secure as boolean | undefined,
    user: user as string | undefined,
    password: password as string | undefined,
  });
}

/** The settings of a config without a `mail` section. */
export const MAIL_DEFAULTS: MailSettings = Object.freeze({
  from: "Strata <noreply@localhost>",
  transport: "log",
  retryBase: 30_000,
  retryFor: 3_600_000,
});

/** A duration the config gives, or `fallback` (ms: a default needs no parsing). */
function duration(
  value: unknown,
  fallback: number,
  key: string,
  source: string,
): number {
  if (value === undefined || value === null) return fallback;
  let ms: number;
  try {
    ms = parseDuration(value as Duration, key);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
  if (!Number.isFinite(ms) || ms < 1) {
    throw new Error(`${source}: ${key} must be a finite duration`);
  }
  return ms;
}

/**
 * Validates the `mail` config section and fills in its defaults; a bad value throws an
 * Error naming its key.
 *
 * @example
 * ```ts
 * import { resolveMailSettings } from "./settings.ts";
 * const mail = resolveMailSettings({ from: "Shop <shop@example.com>" }, "strata.config.ts");
 * mail.transport; // "log"
 * mail.retryBase; // 30000
 * ```
 */
export function resolveMailSettings(
  config: MailConfig | undefined,
  source: string,
): MailSettings {
  // Left out, the section is its defaults: nothing to check.
  if (config === undefined || config === null) return MAIL_DEFAULTS;
  const mail = config;
  if (!isObject(mail)) throw new Error(`${source}: mail must be an object`);
  for (const key of Object.keys(mail)) {
    if (!KEYS.has(key)) {
      throw new Error(`${source}: unknown config key "mail.${key}"`);
    }
  }
  const from = mail.from ?? MAIL_DEFAULTS.from;
  if (typeof from !== "string" || !HEADER_SAFE.test(from)) {
    throw new Error(`${source}: mail.from must be a sender address`);
  }
  let transport: MailSettings["transport"] = "log";
  if (mail.transport !== undefined && mail.transport !== "log") {
    if (
      !isObject(mail.transport) || Object.keys(mail.transport).join() !== "smtp"
    ) {
      throw new Error(
        `${source}: mail.transport must be "log" or { smtp: { host, port, secure, user, password } }`,
      );
    }
    transport = Object.freeze({ smtp: smtp(mail.transport.smtp, source) });
  }
  return Object.freeze({
    from,
    transport,
    retryBase: duration(
      mail.retryBase,
      MAIL_DEFAULTS.retryBase,
      "mail.retryBase",
      source,
    ),
    retryFor: duration(
      mail.retryFor,
      MAIL_DEFAULTS.retryFor,
      "mail.retryFor",
      source,
    ),
  });
}
