/**
 * `POST /auth/login`: email and password in, the User shape and a session cookie out.
 * Wrong password and unknown email answer the same 401 after the same work.
 *
 * @module
 */
import type { StrataEvent } from "../../router/event.ts";
import { isSecureRequest } from "../../router/forwarded.ts";
import { LOGIN_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import {
  forbidden,
  type HTTPError,
  unauthorized,
} from "../../router/errors.ts";
import { findAccount } from "../_mails.ts";
import type { App } from "../../app/create_app.ts";
import {
  dummyVerify,
  passwordNeedsRehash,
  verifyPassword,
} from "../../utils/crypto.ts";
import { settingsOf } from "../_state.ts";
import {
  findUser,
  findUserByEmail,
  lockUser,
  type StoredUser,
} from "../_store.ts";
import { openSession } from "../session.ts";
import { admitLogin, type LoginPermit } from "../throttle.ts";
import { totpState } from "../_totp_store.ts";
import { checkSecondFactor } from "./totp.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import type { User } from "../to_user.ts";
import { noteErrorCode } from "../../collections/results.ts";

/** The 401 of every failed login, whatever failed. */
export const INVALID_CREDENTIALS = "Invalid email or password";

const LOGIN_KEYS: ReadonlySet<string> = new Set([
  "email",
  "password",
  "remember",
  "totp",
  "recoveryCode",
]);

/**
 * Replaces an outdated hash (made with other scrypt parameters than the config's now) and
 * resolves to the new password stamp, or `null` when the password changed since it was
 * verified (the login then fails: the password it checked is gone). The account's sessions
 * are re-stamped in the same transaction: rehashing is not a password change and must not
 * sign anyone out.
 */
async function rehash(
  app: App,
  stored: StoredUser,
  password: string,
): Promise<string | null> {
  return await app.data.transaction(async () => {
    const current = await lockUser(app, stored.user.UUID);
    if (!current || current.stamp !== stored.stamp) return null;
    const result = await app.query("Users")
      .where({ UUID: stored.user.UUID })
      .update({ password });
    if (!result.ok) return stored.stamp;
    const fresh = await findUser(app, stored.user.UUID);
    if (!fresh) return null;
    await app.query("Sessions")
      .where({ user: stored.user.UUID, passwordStamp: stored.stamp })
      .update({ passwordStamp: fresh.stamp });
    return fresh.stamp;
  });
}

/**
 * Whether sign-up requires a verified email and the account `uuid` has not verified its
 * address (asked only after a correct password, so it reveals nothing to a guesser).
 */
async function unverifiedWhenRequired(
  app: App,
  uuid: string,
): Promise<boolean> {
  const signup = settingsOf(app).signup;
  if (signup === false || !signup.requireVerifiedEmail) return false;
  const account = await findAccount(app, { UUID: uuid });
  return account !== null && account.verifiedAt === null;
}

/**
 * With two-factor sign-in on for the account: 401 `totpRequired` when the body carries no
 * code (not a failure), 401 `invalidTotp` for a wrong, reused or stale code (a failure for
 * throttling).
 */
async function requireSecondFactor(
  app: App,
  uuid: string,
  body: Record<string, unknown>,
  permit: LoginPermit,
): Promise<void> {
  const state = await totpState(app, uuid);
  if (!state?.enabled) return;
  if (body.totp === undefined && body.recoveryCode === undefined) {
    throw unauthorized("Enter the code of your authenticator app", {
      code: "totpRequired",
    }, { messageKey: "errors.totpRequired" });
  }
  if (!(await checkSecondFactor(app, uuid, state, body))) {
    await permit.fail();
    throw unauthorized("Invalid code", { code: "invalidTotp" }, {
      messageKey: "errors.invalidTotp",
    });
  }
}

function invalidCredentials(): HTTPError {
  return unauthorized(INVALID_CREDENTIALS, undefined, {
    messageKey: "errors.invalidCredentials",
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
      const code = body[key] === undefined ? "required" : "invalidType";
      errors[key] = message(app, code);
      noteErrorCode(errors, key, code);
    }
  }
  if (body.remember !== undefined && typeof body.remember !== "boolean") {
    errors.remember = message(app, "invalidType");
    noteErrorCode(errors, "remember", "invalidType");
  }
  for (const key of ["totp", "recoveryCode"]) {
    const value = body[key];
    if (
      value !== undefined && (typeof value !== "string" || value.length > 64)
    ) {
      errors[key] = message(app, "invalidType");
      noteErrorCode(errors, key, "invalidType");
    }
  }
  refuseIfAny(errors);
  const email = (body.email as string).trim().toLowerCase();
  const password = body.password as string;
  const permit = await admitLogin(
    app,
    event.ip,
    email,
    settings.loginRateLimit,
  );
  let user: User;
  let stamp: string | null;
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
      throw invalidCredentials();
    }
    await requireSecondFactor(app, stored.user.UUID, body, permit);
    stamp = passwordNeedsRehash(stored.hash, settings.password)
      ? await rehash(app, stored, password)
      : stored.stamp;
    user = stored.user;
  } finally {
    await permit.release();
  }
  if (await unverifiedWhenRequired(app, user.UUID)) {
    throw forbidden("Confirm your email address before signing in", {
      code: "emailNotVerified",
    }, { messageKey: "errors.emailNotVerified" });
  }
  // The session is opened only if the password verified is still the account's.
  const opened = stamp === null
    ? null
    : await openSession(app, event, user.UUID, body.remember === true, stamp);
  if (!opened) throw invalidCredentials();
  warnIfCookieWillBeDropped(event);
  return user;
}, { maxBodySize: "4kb", openapi: LOGIN_DOC });

const LOOPBACK =
  /^(?:localhost|[^:]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;
const warnedHosts = new WeakMap<object, Set<string>>();

/**
 * A sign-in answered over plain HTTP on a host a browser does not treat as secure gets a
 * session cookie the browser drops (it is `Secure`): the sign-in seems to bounce. Said once
 * per host and app in the server log. Behind a TLS proxy, `api.trustProxy` makes its
 * `X-Forwarded-Proto` count, so a request the proxy received over HTTPS is not warned about.
 */
function warnIfCookieWillBeDropped(event: StrataEvent): void {
  if (isSecureRequest(event)) return;
  const host = event.request.headers.get("host") ?? event.url.host;
  const owner = (event as { owner?: object }).owner ?? warnedHosts;
  let warned = warnedHosts.get(owner);
  if (!warned) warnedHosts.set(owner, warned = new Set());
  if (LOOPBACK.test(host) || warned.has(host) || warned.size > 100) return;
  warned.add(host);
  console.warn(
    `Warning: a sign-in on http://${host} answered a Secure session cookie, which browsers drop over plain HTTP: serve over HTTPS (behind a TLS proxy, set api.trustProxy), or use localhost`,
  );
}
