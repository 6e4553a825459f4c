/**
 * How the `/auth/*` routes read in the app's OpenAPI document.
 *
 * @module
 */
import type { OperationDoc } from "../../router/handler.ts";
import { errorRefs, type ErrorStatus } from "../../app/openapi/errors.ts";
import type { JsonSchema } from "../../app/openapi/field_schema.ts";

/** The public User shape (SPEC.md "User"). */
const USER: JsonSchema = {
  type: "object",
  properties: {
    UUID: { type: "string", format: "uuid" },
    email: { type: "string" },
    roles: { type: "array", items: { type: "string" } },
    dashboardLanguage: { type: ["string", "null"] },
    contentLanguage: { type: ["string", "null"] },
    timezone: { type: "string" },
    dateFormat: { type: "string" },
    timeFormat: { type: "string" },
    smartClipboard: { type: "boolean" },
  },
  required: ["UUID", "email", "roles"],
};

const OK: JsonSchema = {
  type: "object",
  properties: { ok: { type: "boolean", const: true } },
  required: ["ok"],
};

const SIGNED_IN: readonly JsonSchema[] = [
  { sessionCookie: [] },
  { bearerToken: [] },
];

function json(schema: JsonSchema): JsonSchema {
  return { "application/json": { schema } };
}

function doc(
  summary: string,
  answer: { description: string; schema: JsonSchema; status?: string },
  errors: ErrorStatus[],
  extra: Record<string, unknown> = {},
): OperationDoc {
  return {
    summary,
    tags: ["auth"],
    responses: {
      [answer.status ?? "200"]: {
        description: answer.description,
        content: json(answer.schema),
      },
      ...errorRefs([...errors, 503]),
    },
    ...extra,
  };
}

const CREDENTIALS: JsonSchema = {
  type: "object",
  properties: {
    email: { type: "string" },
    password: { type: "string" },
  },
  required: ["email", "password"],
};

/** `POST /auth/login`. */
export const LOGIN_DOC: OperationDoc = doc(
  "Sign in with email and password; sets the session cookie",
  { description: "The signed-in user", schema: USER },
  [400, 401, 413, 415, 422, 429],
  {
    requestBody: {
      required: true,
      content: json({
        ...CREDENTIALS,
        properties: {
          ...CREDENTIALS.properties as JsonSchema,
          remember: { type: "boolean" },
          totp: { type: "string" },
          recoveryCode: { type: "string" },
        },
      }),
    },
  },
);

/** `POST /auth/logout`. */
export const LOGOUT_DOC: OperationDoc = doc(
  "End the current session and clear the cookie",
  { description: "Signed out", schema: OK },
  [413],
);

/** `POST /auth/logout/others`. */
export const LOGOUT_OTHERS_DOC: OperationDoc = doc(
  "End every other session of the signed-in user",
  { description: "Done", schema: OK },
  [401, 403, 413],
  { security: SIGNED_IN },
);

/** `GET /auth/me`. */
export const ME_DOC: OperationDoc = doc(
  "The signed-in user",
  { description: "The signed-in user", schema: USER },
  [401],
  { security: SIGNED_IN },
);

/** `PATCH /auth/me`. */
export const UPDATE_ME_DOC: OperationDoc = doc(
  "Change the signed-in user's account settings or password",
  { description: "The user in its final state", schema: USER },
  [400, 401, 403, 413, 415, 422],
  {
    security: SIGNED_IN,
    requestBody: {
      required: true,
      content: json({
        type: "object",
        properties: {
          dashboardLanguage: { type: ["string", "null"] },
          contentLanguage: { type: ["string", "null"] },
          timezone: { type: "string" },
          dateFormat: { type: "string" },
          timeFormat: { type: "string" },
          smartClipboard: { type: "boolean" },
          password: { type: "string" },
        },
      }),
    },
  },
);

/** `GET /auth/install`. */
export const INSTALL_STATUS_DOC: OperationDoc = doc(
  "Whether the first account still has to be created",
  {
    description: "The install state",
    schema: {
      type: "object",
      properties: { required: { type: "boolean" } },
      required: ["required"],
    },
  },
  [],
);

/** `POST /auth/install`. */
export const INSTALL_DOC: OperationDoc = doc(
  "Create the first account, an administrator, and sign it in",
  { description: "The new administrator", schema: USER },
  [400, 403, 413, 415, 422],
  { requestBody: { required: true, content: json(CREDENTIALS) } },
);

function body(
  properties: Record<string, JsonSchema>,
  required: string[],
): Record<string, unknown> {
  return {
    requestBody: {
      required: true,
      content: json({ type: "object", properties, required }),
    },
  };
}

const STRING: JsonSchema = { type: "string" };

/** `POST /auth/signup` (only when `auth.signup` is on). */
export const SIGNUP_DOC: OperationDoc = (() => {
  const base = doc(
    "Create an account. Without requireVerifiedEmail: 201 with the user and a session; with it: 202 for every address, and a mail",
    { description: "The new user, signed in", schema: USER, status: "201" },
    [400, 403, 413, 415, 422],
    body({ email: STRING, password: STRING }, ["email", "password"]),
  );
  return {
    ...base,
    responses: {
      ...base.responses as Record<string, unknown>,
      "202": {
        description: "Recorded; a mail follows (requireVerifiedEmail)",
        content: json(OK),
      },
    },
  };
})();

/** `POST /auth/verify/request`. */
export const VERIFY_REQUEST_DOC: OperationDoc = doc(
  "Mail an email verification link (signed in; or signed out with { email } when sign-up requires a verified email)",
  { description: "Recorded", schema: OK },
  [400, 401, 413, 415, 422],
  {
    requestBody: {
      required: false,
      content: json({ type: "object", properties: { email: STRING } }),
    },
  },
);

/** `POST /auth/verify`. */
export const VERIFY_DOC: OperationDoc = doc(
  "Mark an email verified with the token of a verification link",
  { description: "Verified", schema: OK },
  [400, 413, 415, 422],
  body({ token: STRING }, ["token"]),
);

/** `POST /auth/password/forgot`. */
export const FORGOT_DOC: OperationDoc = doc(
  "Mail a password reset link; the same answer for every address",
  { description: "Recorded", schema: OK },
  [400, 413, 415, 422],
  body({ email: STRING }, ["email"]),
);

/** `POST /auth/password/reset`. */
export const RESET_DOC: OperationDoc = doc(
  "Set a new password with the token of a reset link; every session of the account ends",
  { description: "Password set", schema: OK },
  [400, 413, 415, 422],
  body({ token: STRING, password: STRING }, ["token", "password"]),
);

/** `POST /auth/email/change`. */
export const EMAIL_CHANGE_DOC: OperationDoc = doc(
  "Ask to change the signed-in user's email: a confirmation link goes to the new address",
  { description: "Recorded", schema: OK, status: "202" },
  [400, 401, 403, 413, 415, 422, 429],
  {
    security: SIGNED_IN,
    ...body({ email: STRING, password: STRING }, ["email", "password"]),
  },
);

/** `POST /auth/email/confirm`. */
export const EMAIL_CONFIRM_DOC: OperationDoc = doc(
  "Apply an email change with the token of its confirmation link",
  { description: "The user with the new address", schema: USER },
  [400, 413, 415, 422],
  body({ token: STRING }, ["token"]),
);

/** `POST /auth/tokens`. */
export const TOKENS_DOC: OperationDoc = doc(
  "Create an API token for the signed-in user; the token is shown only in this answer",
  {
    description: "The token and its record",
    status: "201",
    schema: {
      type: "object",
      properties: {
        token: { type: "string", pattern: "^strata_[A-Za-z0-9_-]{43}$" },
        record: {
          type: "object",
          properties: {
            UUID: { type: "string", format: "uuid" },
            name: STRING,
            user: { type: ["string", "null"], format: "uuid" },
            capabilities: { type: "array", items: STRING },
            expiresAt: { type: ["integer", "null"] },
            lastUsedAt: { type: ["integer", "null"] },
            createdAt: { type: "integer" },
          },
          required: ["UUID", "name", "capabilities"],
        },
      },
      required: ["token", "record"],
    },
  },
  [400, 401, 403, 413, 415, 422],
  {
    security: SIGNED_IN,
    ...body({
      name: STRING,
      capabilities: { type: "array", items: STRING },
      expiresIn: { type: ["string", "integer"] },
    }, ["name"]),
  },
);

/** `GET /auth/totp`. */
export const TOTP_STATUS_DOC: OperationDoc = doc(
  "Whether two-factor sign-in is on for the signed-in user",
  {
    description: "The state",
    schema: {
      type: "object",
      properties: { enabled: { type: "boolean" } },
      required: ["enabled"],
    },
  },
  [401],
  { security: SIGNED_IN },
);

/** `POST /auth/totp/setup`. */
export const TOTP_SETUP_DOC: OperationDoc = doc(
  "Create a TOTP secret (off until confirmed by /auth/totp/enable)",
  {
    description: "The secret (base32) and the otpauth URL to scan",
    schema: {
      type: "object",
      properties: { secret: STRING, otpauthUrl: STRING },
      required: ["secret", "otpauthUrl"],
    },
  },
  [400, 401, 403, 409, 413, 415, 422, 429],
  { security: SIGNED_IN, ...body({ password: STRING }, ["password"]) },
);

/** `POST /auth/totp/enable`. */
export const TOTP_ENABLE_DOC: OperationDoc = doc(
  "Turn two-factor sign-in on with a current code; answers 10 single-use recovery codes",
  {
    description: "The recovery codes, shown only here",
    schema: {
      type: "object",
      properties: {
        recoveryCodes: {
          type: "array",
          items: STRING,
          minItems: 10,
          maxItems: 10,
        },
      },
      required: ["recoveryCodes"],
    },
  },
  [400, 401, 403, 409, 413, 415, 422, 429],
  { security: SIGNED_IN, ...body({ code: STRING }, ["code"]) },
);

/** `POST /auth/totp/disable`. */
export const TOTP_DISABLE_DOC: OperationDoc = doc(
  "Turn two-factor sign-in off with the password and a current code or a recovery code",
  { description: "Off", schema: OK },
  [400, 401, 403, 409, 413, 415, 422, 429],
  {
    security: SIGNED_IN,
    ...body({ password: STRING, code: STRING }, ["password", "code"]),
  },
);

/** `GET /auth/signup` (only when `auth.signup` is on). */
export const SIGNUP_STATUS_DOC: OperationDoc = doc(
  "Sign-up is on: whether it requires a verified email",
  {
    description: "The sign-up mode",
    schema: {
      type: "object",
      properties: { requireVerifiedEmail: { type: "boolean" } },
      required: ["requireVerifiedEmail"],
    },
  },
  [],
);
