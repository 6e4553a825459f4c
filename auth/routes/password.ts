/**
 * Password reset: `POST /auth/password/forgot { email }` and `POST /auth/password/reset
 * { token, password }`.
 *
 * @module
 */
import { FORGOT_DOC, RESET_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { unprocessableContent } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { settingsOf } from "../_state.ts";
import { consumeAccountToken } from "../_account_tokens.ts";
import { linkBase, MAILS, tracksVerification } from "../_mails.ts";
import { admitMailRequest } from "../_mail_throttle.ts";
import { deleteSessions } from "../_store.ts";
import { emailOf, invalidToken } from "./verify.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes, noteErrorCode } from "../../collections/results.ts";

/**
 * Answers 200 `{ ok: true }` for every well-formed address, after the same work whether or
 * not it has an account: the request records the mail by address; the mail worker finds the
 * account, issues the link and drops the mail when there is none. Over the throttling limits
 * (`auth.resetRateLimit`) the answer is the same and no mail is recorded.
 */
export const forgotRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["email"])));
    const email = emailOf(app, body);
    const limit = settingsOf(app).resetRateLimit;
    if (await admitMailRequest(app, event.ip, email, limit)) {
      await app.mail.compose(
        MAILS.passwordReset,
        { email, base: linkBase(app, event) },
        email,
      );
    }
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: FORGOT_DOC },
);

/**
 * Sets a new password with a reset token, ends every session of the account, marks its
 * email verified (the link proved the address) and answers `{ ok: true }`; the user then
 * signs in. A used, expired or unknown token is a 400 `invalidToken`; a password the policy
 * refuses is a 422 and leaves the token usable.
 */
export const resetRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const body = await objectBody(event);
    const errors = unknownKeys(app, body, new Set(["token", "password"]));
    for (const key of ["token", "password"]) {
      if (body[key] === undefined) {
        errors[key] = message(app, "required");
        noteErrorCode(errors, key, "required");
      }
    }
    refuseIfAny(errors);
    const outcome = await app.data.transaction(async () => {
      const consumed = await consumeAccountToken(app, "reset", body.token);
      if (!consumed) return { found: false } as const;
      const result = await app.query("Users").where({ UUID: consumed.user })
        .update(
          {
            password: body.password,
            ...(tracksVerification(app) ? { emailVerifiedAt: app.now() } : {}),
          },
          { allowProtected: true },
        );
      if (!result.ok) {
        throw unprocessableContent(undefined, {
          errors: result.errors,
          codes: errorCodes(result.errors),
        });
      }
      if (result.records.length === 0) return { found: false } as const;
      await deleteSessions(app, { user: consumed.user });
      return { found: true } as const;
    });
    if (!outcome.found) throw invalidToken();
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: RESET_DOC },
);
