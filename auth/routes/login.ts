/**
 * `POST /auth/login`: email and password in, the User shape and a session cookie out.
 * Wrong password and unknown email answer the same 401 after the same work.
 *
 * @module
 */
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { unauthorized } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import {
  dummyVerify,
  passwordNeedsRehash,
  verifyPassword,
} from "../../utils/crypto.ts";
import { settingsOf } from "../_state.ts";
import { findUser, findUserByEmail, type StoredUser } from "../_store.ts";
import { createSession } from "../session.ts";
import { admitLogin } from "../throttle.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import type { User } from "../to_user.ts";

/** The 401 of every failed login, whatever failed. */
export const INVALID_CREDENTIALS = "Invalid email or password";

const LOGIN_KEYS: ReadonlySet<string> = new Set([
  "email",
  "password",
  "remember",
]);

/**
 * Replaces an outdated hash (made with other scrypt parameters than the config's now).
 * The account's sessions are re-stamped in the same transaction: rehashing is not a
 * password change and must not sign anyone out.
 */
async function rehash(
  app: App,
  stored: StoredUser,
  password: string,
): Promise<void> {
  await app.data.transaction(async () => {
    const result = await app.query("Users")
      .where({ UUID: stored.user.UUID })
      .update({ password });
    if (!result.ok) return;
    const fresh = await findUser(app, stored.user.UUID);
    if (!fresh) return;
    await app.query("Sessions")
      .where({ user: stored.user.UUID, passwordStamp: stored.stamp })
      .update({ passwordStamp: fresh.stamp });
  });
}

/** The login handler, with a 4 kB body limit. */
export const loginRoute: HandlerDefinition = defineHandler(async (event) => {
  const app = (event as { owner?: unknown }).owner as App;
  const settings = settingsOf(app);
  const body = await objectBody(event);
  const errors = unknownKeys(app, body, LOGIN_KEYS);
  for (const key of ["email", "password"]) {
    if (typeof body[key] !== "string" || body[key] === "") {
      errors[key] = message(
        app,
        body[key] === undefined ? "required" : "invalidType",
      );
    }
  }
  if (body.remember !== undefined && typeof body.remember !== "boolean") {
    errors.remember = message(app, "invalidType");
  }
  refuseIfAny(errors);
  const email = (body.email as string).trim().toLowerCase();
  const password = body.password as string;
  const permit = await admitLogin(app, event.ip, settings.loginRateLimit);
  let user: User;
  try {
    const stored = await findUserByEmail(app, email);
    let verified = false;
    if (stored && stored.hash !== "") {
      verified = await verifyPassword(password, stored.hash);
    } else {
      await dummyVerify(settings.password);
    }
    if (!stored || !verified) {
      await permit.fail();
      throw unauthorized(INVALID_CREDENTIALS, undefined, {
        messageKey: "errors.invalidCredentials",
      });
    }
    if (passwordNeedsRehash(stored.hash, settings.password)) {
      await rehash(app, stored, password);
    }
    user = stored.user;
  } finally {
    await permit.release();
  }
  await createSession(user.UUID, body.remember === true);
  return user;
}, { maxBodySize: "4kb" });
