/**
 * `POST /auth/tokens { name, capabilities?, expiresIn? }`: creates an API token for the
 * signed-in user (signed in with a session, not with another token) and answers 201
 * `{ token, record }`, the only time the token is shown.
 *
 * @module
 */
import { TOKENS_DOC } from "./_openapi.ts";
import { defineHandler, type HandlerDefinition } from "../../router/handler.ts";
import {
  forbidden,
  unauthorized,
  unprocessableContent,
} from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { parseDuration } from "../../router/limits.ts";
import { randomToken } from "../../utils/crypto.ts";
import { resolveRequestSession } from "../_resolve.ts";
import { API_TOKEN_PREFIX } from "../_api_token.ts";
import { tokenHash } from "../_token.ts";
import { capabilitiesCover } from "../capabilities.ts";
import { capabilitiesOfUser } from "../user.ts";
import { message, objectBody, refuseIfAny, unknownKeys } from "./_input.ts";
import { errorCodes, noteErrorCode } from "../../collections/results.ts";

/** Most API tokens one user may hold. */
export const MAX_TOKENS_PER_USER = 100;
/** Longest lifetime a token may be given (ten years). */
const MAX_LIFETIME = 10 * 365 * 86_400_000;

const TOKEN_KEYS: ReadonlySet<string> = new Set([
  "name",
  "capabilities",
  "expiresIn",
]);

function lifetime(value: unknown): number | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  try {
    const ms = parseDuration(value, "expiresIn");
    return Number.isFinite(ms) && ms >= 1000 && ms <= MAX_LIFETIME
      ? ms
      : undefined;
  } catch {
    return undefined;
  }
}

/** The token-creation handler, with a 16 kB body limit. */
export const createTokenRoute: HandlerDefinition = defineHandler(
  async (event) => {
    const app = (event as { owner?: unknown }).owner as App;
    const { session, user } = await resolveRequestSession(event);
    if (!user) throw unauthorized();
    if (!session) {
      throw forbidden("API tokens are created with a session", {
        code: "sessionRequired",
      }, { messageKey: "errors.sessionRequired" });
    }
    const body = await objectBody(event);
    const errors = unknownKeys(app, body, TOKEN_KEYS);
    let expiresAt: number | null = null;
    if (body.expiresIn !== undefined) {
      const ms = lifetime(body.expiresIn);
      if (ms === undefined) {
        errors.expiresIn = message(app, "invalidDuration");
        noteErrorCode(errors, "expiresIn", "invalidDuration");
      } else expiresAt = app.now() + ms;
    }
    // Within what the user holds now (a token is also checked again at every use).
    if (Array.isArray(body.capabilities)) {
      const held = capabilitiesOfUser(user);
      body.capabilities.forEach((capability, i) => {
        if (
          typeof capability === "string" &&
          !capabilitiesCover(held, capability)
        ) {
          errors[`capabilities[${i}]`] = message(app, "capabilityNotHeld");
          noteErrorCode(errors, `capabilities[${i}]`, "capabilityNotHeld");
        }
      });
    }
    refuseIfAny(errors);
    const count = await app.query("ApiTokens").where({ user: user.UUID })
      .count({ atMost: MAX_TOKENS_PER_USER });
    if (count >= MAX_TOKENS_PER_USER) {
      const errors = {
        name: message(app, "tooManyTokens", { max: MAX_TOKENS_PER_USER }),
      };
      noteErrorCode(errors, "name", "tooManyTokens");
      refuseIfAny(errors);
    }
    const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const result = await app.query("ApiTokens").create({
      name: body.name,
      user: user.UUID,
      ...(body.capabilities === undefined
        ? {}
        : { capabilities: body.capabilities }),
      expiresAt,
      tokenHash: tokenHash(token),
    }, { allowProtected: true });
    if (!result.ok) {
      throw unprocessableContent(undefined, {
        errors: result.errors,
        codes: errorCodes(result.errors),
      });
    }
    event.status = 201;
    return { token, record: result.record };
  },
  { maxBodySize: "16kb", openapi: TOKENS_DOC },
);
