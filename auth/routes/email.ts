/**
 * Changing one's email: `POST /auth/email/change { email, password }` (signed in) mails a
 * confirmation link to the new address and a notice to the old one; `POST /auth/email/confirm
 * { token }` (no session needed) applies it.
 *
 * @module
 */
import { EMAIL_CHANGE_DOC, EMAIL_CONFIRM_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { unauthorized, unprocessableContent } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { dummyVerify, verifyPassword } from "../../utils/crypto.ts";
import { settingsOf } from "../_state.ts";
import { resolveRequestSession } from "../_resolve.ts";
import { deleteSessions, findUser } from "../_store.ts";
import { consumeAccountToken } from "../_account_tokens.ts";
import { linkBase, MAILS, tracksVerification } from "../_mails.ts";
import { admitLogin } from "../throttle.ts";
import { admitMailRequest } from "../_mail_throttle.ts";
import { toUser } from "../to_user.ts";
import { emailOf, invalidToken } from "./verify.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes } from "../../collections/results.ts";

/**
 * Checks the signed-in user's password (throttled like a sign-in: a wrong one counts as a
 * failed login); 422 at `password` when it is wrong.
 */
export async function confirmPassword(
  app: App,
  ip: string,
  uuid: string,
  password: unknown,
): Promise<void> {
  if (typeof password !== "string" || password === "") {
    refuseIfAny({
      password: message(
        app,
        password === undefined ? "required" : "invalidType",
      ),
    });
  }
  const settings = settingsOf(app);
  const stored = await findUser(app, uuid);
  if (!stored) throw unauthorized();
  const permit = await admitLogin(
    app,
    ip,
    stored.user.email,
    settings.loginRateLimit,
  );
  try {
    let ok = false;
    if (stored.hash !== "") {
      ok = await verifyPassword(password as string, stored.hash);
    } else await dummyVerify(settings.password);
    if (!ok) {
      await permit.fail();
      refuseIfAny({ password: message(app, "wrongPassword") });
    }
  } finally {
    await permit.release();
  }
}

/** Records the confirmation mail to the new address and the notice to the old one: 202. */
export const emailChangeRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const { user } = await resolveRequestSession(event);
    if (!user) throw unauthorized();
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["email", "password"])));
    const email = emailOf(app, body);
    await confirmPassword(app, event.ip, user.UUID, body.password);
    if (email === user.email) {
      refuseIfAny({ email: message(app, "sameEmail") });
    }
    const base = linkBase(app, event);
    // Throttled like reset mails (by the new address and the client): no flood of
    // confirmation links to an address that is not the user's.
    const allowed = await admitMailRequest(
      app,
      event.ip,
      email,
      settingsOf(app).resetRateLimit,
    );
    if (allowed) {
      await app.data.transaction(async () => {
        await app.mail.compose(
          MAILS.emailChange,
          { user: user.UUID, email, base },
          email,
        );
        await app.mail.compose(
          MAILS.emailChangeNotice,
          { user: user.UUID, email, base },
          user.email,
        );
      });
    }
    event.status = 202;
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: EMAIL_CHANGE_DOC },
);

/**
 * Applies a confirmed email change: the address becomes the account's and verified, every
 * other session of the account ends (the request's own, if it is the account's, stays), and
 * the user is answered. A taken address is a 422 at `email`.
 */
export const emailConfirmRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["token"])));
    if (body.token === undefined) {
      refuseIfAny({ token: message(app, "required") });
    }
    const current = await resolveRequestSession(event);
    const record = await app.data.transaction(async () => {
      const consumed = await consumeAccountToken(app, "email", body.token);
      if (!consumed) return null;
      const result = await app.query("Users").where({ UUID: consumed.user })
        .update(
          {
            email: consumed.email,
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
      if (result.records.length === 0) return null;
      const kept = current.user?.UUID === consumed.user
        ? current.session?.UUID
        : undefined;
      await deleteSessions(
        app,
        kept === undefined
          ? { user: consumed.user }
          : { user: consumed.user, not: { UUID: kept } },
      );
      return result.records[0];
    });
    if (!record) throw invalidToken();
    return toUser(record);
  },
  { maxBodySize: "4kb", openapi: EMAIL_CONFIRM_DOC },
);
