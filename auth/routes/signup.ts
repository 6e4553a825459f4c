/**
 * `POST /auth/signup`: self-service account creation, when `auth.signup` turns it on (the
 * route does not exist otherwise). While `/auth/install` is still required it answers 403:
 * the first account is always the administrator.
 *
 * Without `requireVerifiedEmail`: 201 with the user and an open session; a taken email is a
 * 422 at `email`, as a Users write answers (this mode trades enumeration protection for a
 * one-step sign-up). With it: 202 `{ ok: true }` and no session for a fresh and a taken
 * email alike, after the same work (the Users create, and for a taken address, which the
 * data layer refuses before hashing, a password check's worth of scrypt), each recording one
 * mail.
 *
 * @module
 */
import { SIGNUP_DOC, SIGNUP_STATUS_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { forbidden, unprocessableContent } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { settingsOf } from "../_state.ts";
import { openSession } from "../session.ts";
import { toUser } from "../to_user.ts";
import { linkBase, MAILS, tracksVerification } from "../_mails.ts";
import { findUserByEmail } from "../_store.ts";
import { admitMailRequest } from "../_mail_throttle.ts";
import { dummyVerify } from "../../utils/crypto.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes, noteErrorCode } from "../../collections/results.ts";

const SIGNUP_KEYS: ReadonlySet<string> = new Set(["email", "password"]);

/** `GET /auth/signup`: `{ requireVerifiedEmail }`, so a sign-in page knows sign-up is on. */
export const signupStatusRoute: HandlerDefinition = defineHandler(
  (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const signup = settingsOf(app).signup;
    return {
      requireVerifiedEmail: signup !== false && signup.requireVerifiedEmail,
    };
  },
  { openapi: SIGNUP_STATUS_DOC },
);

/** The sign-up handler, with a 4 kB body limit. */
export const signupRoute: HandlerDefinition = defineHandler(async (event) => {
  const app = (event as { owner?: unknown }).owner as App;
  const signup = settingsOf(app).signup;
  if (signup === false) throw new Error("Sign-up is off");
  if ((await app.query("Users").limit(1).findMany()).length === 0) {
    throw forbidden("Setup is not complete: install the first account", {
      code: "installRequired",
    }, { messageKey: "errors.installRequired" });
  }
  const body = await objectBody(event);
  const errors = unknownKeys(app, body, SIGNUP_KEYS);
  for (const key of ["email", "password"]) {
    if (body[key] === undefined) {
      errors[key] = message(app, "required");
      noteErrorCode(errors, key, "required");
    }
  }
  refuseIfAny(errors);
  const email = typeof body.email === "string"
    ? body.email.trim().toLowerCase()
    : "";
  const base = linkBase(app, event);
  const verified = tracksVerification(app);
  // Mails a client can cause are throttled like reset mails; over the limits the answer is
  // the same and only the mail is left out.
  const mailAllowed = await admitMailRequest(
    app,
    event.ip,
    email,
    settingsOf(app).resetRateLimit,
  );
  const outcome = await app.data.transaction(async () => {
    const taken = email !== "" && (await findUserByEmail(app, email)) !== null;
    const result = await app.query("Users").create(
      {
        email: body.email,
        password: body.password,
        roles: [...signup.roles],
        ...(verified ? { emailVerifiedAt: null } : {}),
      },
      { allowProtected: true },
    );
    if (result.ok) {
      if (verified && mailAllowed) {
        await app.mail.compose(MAILS.verifyEmail, {
          user: result.record.UUID,
          base,
        }, email);
      }
      return { result, taken: false };
    }
    return { result, taken };
  });
  const { result, taken } = outcome;
  if (taken && !result.ok && Object.keys(result.errors).join() === "email") {
    // The data layer refuses a taken address before it hashes the password: spend the
    // hashing time here, so a taken address answers in the time of a fresh one.
    await dummyVerify(settingsOf(app).password);
  }
  if (signup.requireVerifiedEmail) {
    // A taken address answers like a fresh one; its owner is told by mail. Any other
    // refusal (a bad address, a weak password) depends on the input alone.
    const onlyTaken = !result.ok && taken &&
      Object.keys(result.errors).join() === "email";
    if (onlyTaken) {
      if (mailAllowed) {
        await app.mail.compose(MAILS.signupAttempt, { email, base }, email);
      }
    } else if (!result.ok) {
      throw unprocessableContent(undefined, {
        errors: result.errors,
        codes: errorCodes(result.errors),
      });
    }
    event.status = 202;
    return { ok: true };
  }
  if (!result.ok) {
    throw unprocessableContent(undefined, {
      errors: result.errors,
      codes: errorCodes(result.errors),
    });
  }
  await openSession(app, event, result.record.UUID, true);
  event.status = 201;
  return toUser(result.record);
}, { maxBodySize: "4kb", openapi: SIGNUP_DOC });
