/**
 * `GET /auth/install` and `POST /auth/install`: the first administrator.
 *
 * @module
 */
import { INSTALL_DOC, INSTALL_STATUS_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import {
  forbidden,
  serviceUnavailable,
  unprocessableContent,
} from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { createSession } from "../session.ts";
import { toUser } from "../to_user.ts";
import { releaseLease, waitForLease } from "../_lease.ts";
import { objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes } from "../../collections/results.ts";

/** The role the first account receives. */
export const ADMIN_ROLE = "admin";

const INSTALL_KEYS: ReadonlySet<string> = new Set(["email", "password"]);
const INSTALL_LEASE = "install";

async function hasUsers(app: App): Promise<boolean> {
  return (await app.query("Users").limit(1).findMany()).length > 0;
}

function installDone(): never {
  throw forbidden("Setup is already complete", undefined, {
    messageKey: "errors.installDone",
  });
}

/** `{ required: true }` until the first account exists. */
export const installStatusRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    return { required: !(await hasUsers(app)) };
  },
  { openapi: INSTALL_STATUS_DOC },
);

/**
 * Creates the first account with the `admin` role and signs it in (remembered). Installs
 * are serialised through a lease in the database, so of concurrent requests (on any
 * number of instances) exactly one creates the account and the others answer 403.
 */
export const installRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    if (await hasUsers(app)) installDone();
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, INSTALL_KEYS));
    const holder = await waitForLease(app, INSTALL_LEASE, 30_000, 5_000);
    if (holder === null) {
      throw serviceUnavailable(undefined, undefined, {
        headers: { "Retry-After": "1" },
      });
    }
    try {
      if (await hasUsers(app)) installDone();
      const result = await app.query("Users").create({
        email: body.email,
        password: body.password,
        roles: [ADMIN_ROLE],
      });
      if (!result.ok) {
        throw unprocessableContent(undefined, {
          errors: result.errors,
          codes: errorCodes(result.errors),
        });
      }
      await createSession(result.record.UUID, true);
      return toUser(result.record);
    } finally {
      await releaseLease(app, INSTALL_LEASE, holder);
    }
  },
  { maxBodySize: "4kb", openapi: INSTALL_DOC },
);
