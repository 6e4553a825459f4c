/**
 * `GET /auth/me` and `PATCH /auth/me`.
 *
 * @module
 */
import { ME_DOC, UPDATE_ME_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { unauthorized, unprocessableContent } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import {
  resolveRequestSession,
  setRequestSession,
  withRequestSession,
} from "../_resolve.ts";
import { deleteSessions, findUser } from "../_store.ts";
import { accountFields } from "../account_fields.ts";
import { toUser } from "../to_user.ts";
import { objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes } from "../../collections/results.ts";

/** The signed-in user; 401 when signed out. Synchronous when the session is known at once. */
export const meRoute: HandlerDefinition = defineHandler(
  (event) =>
    withRequestSession(event, ({ user }) => {
      if (!user) throw unauthorized();
      return user;
    }),
  { openapi: ME_DOC },
);

/**
 * Changes account settings, all or nothing: one refused key (unknown, `email`, `roles`,
 * anything the `auth:account-fields` hook does not allow) or one invalid value and nothing
 * is written. A new password ends every other session of the account and keeps this one.
 */
export const updateMeRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const current = await resolveRequestSession(event);
    const { session, user } = current;
    if (!session || !user) throw unauthorized();
    const body = await objectBody(event);
    refuseIfAny(unknownKeys(app, body, accountFields(app)));
    if (Object.keys(body).length === 0) return user;
    const changesPassword = body.password !== undefined;
    const outcome = await app.data.transaction(async () => {
      const result = await app.query("Users")
        .where({ UUID: user.UUID })
        .update(body);
      if (!result.ok || !changesPassword) {
        return { result, stamp: current.stamp };
      }
      const fresh = await findUser(app, user.UUID);
      const stamp = fresh?.stamp ?? "";
      const kept = await app.query("Sessions")
        .where({ UUID: session.UUID })
        .update({ passwordStamp: stamp });
      // This session ended while the request ran (a concurrent password change or logout):
      // a serial order would have refused the request, so nothing is written.
      if (kept.ok && kept.records.length === 0) throw unauthorized();
      await deleteSessions(app, {
        user: user.UUID,
        not: { UUID: session.UUID },
      });
      return { result, stamp };
    });
    const { result } = outcome;
    if (!result.ok) {
      throw unprocessableContent(undefined, {
        errors: result.errors,
        codes: errorCodes(result.errors),
      });
    }
    if (result.records.length === 0) throw unauthorized();
    const updated = toUser(result.records[0]);
    setRequestSession(event, {
      ...current,
      user: updated,
      stamp: outcome.stamp,
    });
    return updated;
  },
  { maxBodySize: "16kb", openapi: UPDATE_ME_DOC },
);
