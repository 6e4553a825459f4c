/**
 * Two-factor sign-in with TOTP (RFC 6238): `GET /auth/totp` (whether it is on),
 * `POST /auth/totp/setup { password }`, `POST /auth/totp/enable { code }` and
 * `POST /auth/totp/disable { password, code }`, all for the signed-in user (with a session).
 *
 * @module
 */
import {
  TOTP_DISABLE_DOC,
  TOTP_ENABLE_DOC,
  TOTP_SETUP_DOC,
  TOTP_STATUS_DOC,
} from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import type { StrataEvent } from "../../router/event.ts";
import { conflict, forbidden, unauthorized } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { resolveRequestSession } from "../_resolve.ts";
import { settingsOf } from "../_state.ts";
import { admitLogin } from "../throttle.ts";
import { linkBase } from "../_mails.ts";
import { decodeBase32, encodeBase32, matchTotp, otpauthUrl } from "../totp.ts";
import {
  acceptStep,
  consumeRecoveryCode,
  newRecoveryCodes,
  removeTotp,
  storePendingSecret,
  type TotpState,
  totpState,
} from "../_totp_store.ts";
import type { User } from "../to_user.ts";
import { confirmPassword } from "./email.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";

/** A second factor as a sign-in body carries it. */
export interface SecondFactor {
  readonly totp?: unknown;
  readonly recoveryCode?: unknown;
}

/**
 * Whether `factor` holds a current code of `state` (±1 step, later than the last step
 * accepted, which it becomes) or an unused recovery code of `user` (which is used up).
 */
export async function checkSecondFactor(
  app: App,
  user: string,
  state: TotpState,
  factor: SecondFactor,
): Promise<boolean> {
  if (typeof factor.totp === "string") {
    const secret = decodeBase32(state.secret);
    const step = secret && /^\d{6}$/.test(factor.totp)
      ? matchTotp(secret, factor.totp, app.now())
      : null;
    return step !== null && step > state.lastStep &&
      await acceptStep(app, user, step);
  }
  if (typeof factor.recoveryCode === "string") {
    return await consumeRecoveryCode(app, user, factor.recoveryCode);
  }
  return false;
}

/** The signed-in user of a request that must carry a session (not an API token). */
async function sessionUser(event: StrataEvent): Promise<User> {
  const { session, user } = await resolveRequestSession(event);
  if (!user) throw unauthorized();
  if (!session) {
    throw forbidden("This needs a session", { code: "sessionRequired" }, {
      messageKey: "errors.sessionRequired",
    });
  }
  return user;
}

function appOf(event: StrataEvent): App {
  return (event as { owner?: unknown }).owner as App;
}

/**
 * Checks `code` (a TOTP code, or for `disable` also a recovery code) under login throttling:
 * a wrong one counts as a failed login; 422 at `code`.
 */
async function requireCode(
  app: App,
  ip: string,
  user: User,
  code: unknown,
  check: (code: string) => Promise<boolean>,
): Promise<void> {
  if (typeof code !== "string" || code === "") {
    refuseIfAny({
      code: message(app, code === undefined ? "required" : "invalidType"),
    });
  }
  const permit = await admitLogin(
    app,
    ip,
    user.email,
    settingsOf(app).loginRateLimit,
  );
  try {
    if (!(await check(code as string))) {
      await permit.fail();
      refuseIfAny({ code: message(app, "invalidCode") });
    }
  } finally {
    await permit.release();
  }
}

/** `{ enabled }`: whether sign-in asks the user for a code. */
export const totpStatusRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = appOf(event);
    const { user } = await resolveRequestSession(event);
    if (!user) throw unauthorized();
    return { enabled: (await totpState(app, user.UUID))?.enabled === true };
  },
  { openapi: TOTP_STATUS_DOC },
);

/**
 * Creates a secret (off until `enable` confirms a code from it) and answers it with the
 * `otpauth://` URL an authenticator app scans. 409 while TOTP is on (disable it first).
 */
export const totpSetupRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = appOf(event);
    const user = await sessionUser(event);
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["password"])));
    await confirmPassword(app, event.ip, user.UUID, body.password);
    const secret = encodeBase32(crypto.getRandomValues(new Uint8Array(20)));
    if (!(await storePendingSecret(app, user.UUID, secret))) {
      throw conflict("Two-factor sign-in is already on", {
        code: "totpEnabled",
      }, { messageKey: "errors.totpEnabled" });
    }
    const issuer = new URL(linkBase(app, event)).host;
    return { secret, otpauthUrl: otpauthUrl(secret, user.email, issuer) };
  },
  { maxBodySize: "4kb", openapi: TOTP_SETUP_DOC },
);

/** Turns TOTP on with a current code of the new secret; answers 10 single-use recovery codes. */
export const totpEnableRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = appOf(event);
    const user = await sessionUser(event);
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["code"])));
    const state = await totpState(app, user.UUID);
    if (!state || state.enabled) {
      throw conflict("Set up two-factor sign-in first", {
        code: state ? "totpEnabled" : "totpNotSetUp",
      });
    }
    let codes: string[] = [];
    await requireCode(app, event.ip, user, body.code, async (code) => {
      const secret = decodeBase32(state.secret);
      const step = secret && /^\d{6}$/.test(code)
        ? matchTotp(secret, code, app.now())
        : null;
      if (step === null) return false;
      return await app.data.transaction(async () => {
        if (!(await acceptStep(app, user.UUID, step, true))) return false;
        codes = await newRecoveryCodes(app, user.UUID);
        return true;
      });
    });
    return { recoveryCodes: codes };
  },
  { maxBodySize: "4kb", openapi: TOTP_ENABLE_DOC },
);

/** Turns TOTP off, given the password and a current code (or a recovery code). */
export const totpDisableRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = appOf(event);
    const user = await sessionUser(event);
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, new Set(["password", "code"])));
    await confirmPassword(app, event.ip, user.UUID, body.password);
    const state = await totpState(app, user.UUID);
    if (!state?.enabled) {
      throw conflict("Two-factor sign-in is off", { code: "totpNotEnabled" });
    }
    await requireCode(
      app,
      event.ip,
      user,
      body.code,
      (code) =>
        checkSecondFactor(
          app,
          user.UUID,
          state,
          /^\d{6}$/.test(code) ? { totp: code } : { recoveryCode: code },
        ),
    );
    await removeTotp(app, user.UUID);
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: TOTP_DISABLE_DOC },
);
