/**
 * Email verification: `POST /auth/verify/request` mails a link, `POST /auth/verify { token }`
 * marks the address verified.
 *
 * @module
 */
import { VERIFY_DOC, VERIFY_REQUEST_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import {
  badRequest,
  type HTTPError,
  unauthorized,
} from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { isMailAddress } from "../../mail/message.ts";
import { settingsOf } from "../_state.ts";
import { resolveRequestSession } from "../_resolve.ts";
import { consumeAccountToken } from "../_account_tokens.ts";
import { linkBase, MAILS, tracksVerification } from "../_mails.ts";
import { admitMailRequest } from "../_mail_throttle.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";

/** The 400 of a used, expired, unknown or malformed token: all alike. */
export function invalidToken(): HTTPError {
  return badRequest("This link is invalid or has expired", {
    code: "invalidToken",
  }, { messageKey: "errors.invalidToken" });
}

/** A body's `email`, trimmed and lowercased, or a 422 at `email`. */
export function emailOf(app: App, body: Record<string, unknown>): string {
  const email = typeof body.email === "string"
    ? body.email.trim().toLowerCase()
    : undefined;
  if (email === undefined || !isMailAddress(email)) {
    refuseIfAny({
      email: message(
        app,
        body.email === undefined ? "required" : "invalidEmail",
      ),
    });
  }
  return email!;
}

/**
 * Signed in: mails a verification link to the account's address (nothing when it is
 * verified already). Signed out, when sign-up requires a verified email: `{ email }`, and
 * the same 200 for every address (throttled like password reset mails).
 */
export const verifyRequestRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const settings = settingsOf(app);
    const { user } = await resolveRequestSession(event);
    const body = event.request.body === null ? {} : await objectBody(event);
    const base = linkBase(app, event);
    if (user) {
      refuseIfAny(unknownKeys(app, body, new Set()));
      const allowed = await admitMailRequest(
        app,
        event.ip,
        user.email,
        settings.resetRateLimit,
      );
      if (tracksVerification(app) && allowed) {
        await app.mail.compose(MAILS.verifyEmail, { user: user.UUID, base });
      }
      return { ok: true };
    }
    if (settings.signup === false || !settings.signup.requireVerifiedEmail) {
      throw unauthorized();
    }
    refuseIfAny(unknownKeys(app, body, new Set(["email"])));
    const email = emailOf(app, body);
    if (
      await admitMailRequest(app, event.ip, email, settings.resetRateLimit)
    ) {
      await app.mail.compose(MAILS.verifyEmail, { email, base }, email);
    }
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: VERIFY_REQUEST_DOC },
);

/** Marks the address the token was issued for verified, if it is still the account's. */
export const verifyRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["token"])));
    if (body.token === undefined) {
      refuseIfAny({ token: message(app, "required") });
    }
    const done = await app.data.transaction(async () => {
      const consumed = await consumeAccountToken(app, "verify", body.token);
      if (!consumed) return false;
      const result = await app.query("Users")
        .where({ UUID: consumed.user, email: consumed.email })
        .update({ emailVerifiedAt: app.now() }, { allowProtected: true });
      return result.ok && result.records.length === 1;
    });
    if (!done) throw invalidToken();
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: VERIFY_DOC },
);
