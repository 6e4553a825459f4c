// The account mails of the auth layer. A route records a mail by kind and parameters only
// (app.mail.compose); the mail worker composes it when it delivers it: it looks the account
// up, issues the link's token and renders the mail in the account's language. The request
// therefore does the same work whether or not the account exists.
import type { App } from "../app/create_app.ts";
import type { StrataEvent } from "../router/event.ts";
import type { MailMessage } from "../mail/message.ts";
import { renderMail } from "../mail/render.ts";
import { settingsOf } from "./_state.ts";
import { issueAccountToken } from "./_account_tokens.ts";

/** The mail kinds (message keys) of the auth layer. */
export const MAILS = Object.freeze({
  verifyEmail: "mail.verifyEmail",
  signupAttempt: "mail.signupAttempt",
  passwordReset: "mail.passwordReset",
  emailChange: "mail.emailChange",
  emailChangeNotice: "mail.emailChangeNotice",
});

/** An account as the mails need it. */
export interface MailAccount {
  readonly UUID: string;
  readonly email: string;
  /** When its email was verified; `null` when not yet (an app without the field: always verified). */
  readonly verifiedAt: number | null;
  readonly language: string | null;
}

/** Whether the app's Users collection records verification (an app's own may not). */
export function tracksVerification(app: App): boolean {
  return app.data.collections.get("Users")?.fields.has("emailVerifiedAt") ===
    true;
}

/** The account with `UUID` or `email`, or null. */
export async function findAccount(
  app: App,
  where: { UUID: string } | { email: string },
): Promise<MailAccount | null> {
  if ("email" in where && where.email.includes("\u0000")) return null;
  const fields = app.data.collections.get("Users")?.fields;
  const select = ["email", "emailVerifiedAt", "dashboardLanguage"].filter((
    name,
  ) => fields?.has(name));
  const record = await app.query("Users").where(where).select(...select)
    .findFirst();
  if (!record) return null;
  const verifiedAt = tracksVerification(app)
    ? (record.emailVerifiedAt as number | null) ?? null
    : 0;
  return {
    UUID: record.UUID,
    email: String(record.email),
    verifiedAt,
    language: typeof record.dashboardLanguage === "string"
      ? record.dashboardLanguage
      : null,
  };
}

/**
 * Where links in mails caused by `event` start: `api.publicUrl`, else the request's origin
 * and the app's base path.
 */
export function linkBase(app: App, event: StrataEvent): string {
  return app.config.api.publicUrl ??
    `${event.url.origin}${app.config.api.basePath}`;
}

function hours(ms: number): number {
  return Math.max(1, Math.round(ms / 3_600_000));
}

function render(
  app: App,
  kind: string,
  to: string,
  params: Record<string, unknown>,
  language: string | null,
): MailMessage {
  return { to, ...renderMail(app.messages.translator, kind, params, language) };
}

function text(params: Record<string, unknown>, key: string): string {
  return typeof params[key] === "string" ? params[key] as string : "";
}

/** Looks up the account a composed mail's parameters name, by UUID or else by email. */
function accountOf(
  app: App,
  params: Record<string, unknown>,
): Promise<MailAccount | null> {
  return text(params, "user") !== ""
    ? findAccount(app, { UUID: text(params, "user") })
    : findAccount(app, { email: text(params, "email") });
}

/**
 * Registers the composers of the auth layer's mails on `app.mail`.
 *
 * @example
 * ```ts ignore
 * registerAccountMails(app);
 * ```
 */
export function registerAccountMails(app: App): void {
  const settings = () => settingsOf(app);
  // A link to confirm the account's current address; nothing when it is verified already.
  app.mail.composer(MAILS.verifyEmail, async (params) => {
    const account = await accountOf(app, params);
    if (!account || account.verifiedAt !== null) return null;
    const maxAge = settings().verifyTokenMaxAge;
    const token = await issueAccountToken(
      app,
      "verify",
      account.UUID,
      account.email,
      maxAge,
      false,
    );
    return render(app, MAILS.verifyEmail, account.email, {
      email: account.email,
      link: `${text(params, "base")}/dashboard/verify?token=${token}`,
      hours: hours(maxAge),
    }, account.language);
  });
  // To the owner of an address someone tried to sign up with.
  app.mail.composer(MAILS.signupAttempt, async (params) => {
    const account = await accountOf(app, params);
    if (!account) return null;
    return render(app, MAILS.signupAttempt, account.email, {
      email: account.email,
      link: `${text(params, "base")}/dashboard/forgot`,
    }, account.language);
  });
  // A reset link; every earlier reset link of the account stops working.
  app.mail.composer(MAILS.passwordReset, async (params) => {
    const account = await accountOf(app, params);
    if (!account) return null;
    const maxAge = settings().resetTokenMaxAge;
    const token = await issueAccountToken(
      app,
      "reset",
      account.UUID,
      account.email,
      maxAge,
      true,
    );
    return render(app, MAILS.passwordReset, account.email, {
      email: account.email,
      link: `${text(params, "base")}/dashboard/reset?token=${token}`,
      hours: hours(maxAge),
    }, account.language);
  });
  // To the new address: the link that applies the change.
  app.mail.composer(MAILS.emailChange, async (params) => {
    const account = await accountOf(app, params);
    const email = text(params, "email");
    if (!account || email === "") return null;
    // An address another account holds by now: the change could not apply.
    const holder = await findAccount(app, { email });
    if (holder && holder.UUID !== account.UUID) return null;
    const maxAge = settings().verifyTokenMaxAge;
    const token = await issueAccountToken(
      app,
      "email",
      account.UUID,
      email,
      maxAge,
      true,
    );
    return render(app, MAILS.emailChange, email, {
      email,
      link: `${text(params, "base")}/dashboard/email?token=${token}`,
      hours: hours(maxAge),
    }, account.language);
  });
  // To the old address: a notice, with the way out if it was not the owner.
  app.mail.composer(MAILS.emailChangeNotice, async (params) => {
    const account = await accountOf(app, params);
    if (!account) return null;
    return render(app, MAILS.emailChangeNotice, account.email, {
      email: text(params, "email"),
      link: `${text(params, "base")}/dashboard/forgot`,
    }, account.language);
  });
}
