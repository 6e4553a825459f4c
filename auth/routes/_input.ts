// Request bodies of the /auth routes.
import type { StrataEvent } from "../../router/event.ts";
import { badRequest, unprocessableContent } from "../../router/errors.ts";
import type { App } from "../../app/create_app.ts";
import { errorCodes, noteErrorCode } from "../../collections/results.ts";

/** The JSON body, which must be an object (400 otherwise). */
export async function objectBody(
  event: StrataEvent,
): Promise<Record<string, unknown>> {
  const body = await event.body();
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** A validation message, rendered like the data layer's (in the request's language). */
export function message(
  app: App,
  key: string,
  params: Record<string, unknown> = {},
): string {
  return app.messages.renderValidation(key, params);
}

/** Throws a 422 with per-field messages when `errors` has any. */
export function refuseIfAny(errors: Record<string, string>): void {
  if (Object.keys(errors).length > 0) {
    throw unprocessableContent(undefined, {
      errors,
      codes: errorCodes(errors),
    });
  }
}

/** 422 `unknownField` for every key of `body` not in `allowed`. */
export function unknownKeys(
  app: App,
  body: Record<string, unknown>,
  allowed: ReadonlySet<string>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of Object.keys(body)) {
    if (!allowed.has(key)) {
      errors[key] = message(app, "unknownField");
      noteErrorCode(errors, key, "unknownField");
    }
  }
  return errors;
}
