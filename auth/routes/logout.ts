/**
 * `POST /auth/logout` and `POST /auth/logout/others`.
 *
 * @module
 */
import { LOGOUT_DOC, LOGOUT_OTHERS_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import { unauthorized } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { destroySession } from "../session.ts";
import { resolveRequestSession } from "../_resolve.ts";
import { deleteSessions } from "../_store.ts";

/** Ends the current session; idempotent: `{ ok: true }` with or without one. */
export const logoutRoute: HandlerDefinition = defineHandler(async () => {
  await destroySession();
  return { ok: true };
}, { maxBodySize: "4kb", openapi: LOGOUT_DOC });

/** Ends every other session of the signed-in account; 401 when signed out. */
export const logoutOthersRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const { session, user } = await resolveRequestSession(event);
    if (!session || !user) throw unauthorized();
    await deleteSessions(app, {
      user: user.UUID,
      not: { UUID: session.UUID },
    });
    return { ok: true };
  },
  { maxBodySize: "4kb", openapi: LOGOUT_OTHERS_DOC },
);
