/**
 * The `auth` section of the app config, validated with defaults filled in.
 *
 * @module
 */
import { parseDuration } from "../router/limits.ts";
import {
  assertPasswordOptions,
  type PasswordOptions,
} from "../utils/crypto.ts";
import type { StrataConfig } from "../app/config.ts";

/** Login throttling limits; `false` turns throttling off. */
export interface LoginRateLimit {
  /** Failed logins one IP may make inside `window`. Default 10. */
  readonly maxFailures: number;
  /** The sliding window in milliseconds. Default one minute. */
  readonly window: number;
  /** Failed logins one account (email) may receive inside `accountWindow`. Default 20. */
  readonly maxAccountFailures: number;
  /** The account's sliding window in milliseconds. Default 15 minutes. */
  readonly accountWindow: number;
}

/** Self-service sign-up (`auth.signup`), when it is on. */
export interface SignupSettings {
  /** Roles a new account receives. Default none. */
  readonly roles: readonly string[];
  /**
   * Whether an account must verify its email before it can sign in; sign-up then answers
   * 202 alike for fresh and taken addresses (no account enumeration).
   */
  readonly requireVerifiedEmail: boolean;
}

/**
 * Throttling of the account mails a client can cause: password reset, verification,
 * sign-up and email change (`auth.resetRateLimit`).
 */
export interface ResetRateLimit {
  /** Mails one address may receive inside `window`. Default 5. */
  readonly maxPerEmail: number;
  /** Requests one client address may make inside `window`. Default 20. */
  readonly maxPerIp: number;
  /** The sliding window in ms. Default one hour. */
  readonly window: number;
}

/** The `auth` config section after validation. */
export interface AuthSettings {
  /** Lifetime of a remembered session in ms; also the ceiling of every session. */
  readonly sessionMaxAge: number;
  /** Lifetime of a session opened without `remember`, in ms (never above `sessionMaxAge`). */
  readonly transientSessionMaxAge: number;
  /** Name of the session cookie. */
  readonly cookieName: string;
  /** scrypt parameters for new hashes. */
  readonly password: Readonly<Required<PasswordOptions>>;
  /** Login throttling, or `false` when turned off. */
  readonly loginRateLimit: LoginRateLimit | false;
  /** Shortest password any write accepts (`auth.password.minLength`, default 8). */
  readonly passwordMinLength: number;
  /** Sign-up, or `false` when off (the default: `POST /auth/signup` does not exist). */
  readonly signup: SignupSettings | false;
  /** Lifetime of an email verification (or email change) link in ms. Default 24 h. */
  readonly verifyTokenMaxAge: number;
  /** Lifetime of a password reset link in ms. Default 1 h. */
  readonly resetTokenMaxAge: number;
  /** Throttling of reset and verification mails, or `false` when off. */
  readonly resetRateLimit: ResetRateLimit | false;
}

type AuthConfig = NonNullable<StrataConfig["auth"]>;

/** RFC 6265 cookie-name token characters. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function positiveDuration(
  value: unknown,
  fallback: string,
  key: string,
): number {
  let ms: number;
  try {
    ms = parseDuration((value ?? fallback) as string | number, key);
  } catch (error) {
    throw new Error(`Invalid config: ${(error as Error).message}`);
  }
  if (!Number.isFinite(ms) || ms < 1000) {
    throw new Error(
      `Invalid config: ${key} must be a duration of at least one second`,
    );
  }
  return ms;
}

const RATE_LIMIT_KEYS = new Set([
  "maxFailures",
  "window",
  "maxAccountFailures",
  "accountWindow",
]);

function positiveInteger(value: unknown, key: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new Error(`Invalid config: ${key} must be a positive integer`);
  }
  return value as number;
}

function rateLimit(value: unknown): LoginRateLimit | false {
  if (value === false) return false;
  if (value === undefined || value === true) {
    return {
      maxFailures: 10,
      window: 60_000,
      maxAccountFailures: 20,
      accountWindow: 15 * 60_000,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      "Invalid config: auth.loginRateLimit must be false or an object",
    );
  }
  for (const key of Object.keys(value)) {
    if (!RATE_LIMIT_KEYS.has(key)) {
      throw new Error(
        `Invalid config: unknown config key "auth.loginRateLimit.${key}"`,
      );
    }
  }
  const {
    maxFailures = 10,
    window,
    maxAccountFailures = 20,
    accountWindow,
  } = value as Record<string, unknown>;
  return {
    maxFailures: positiveInteger(
      maxFailures,
      "auth.loginRateLimit.maxFailures",
    ),
    window: positiveDuration(window, "1m", "auth.loginRateLimit.window"),
    maxAccountFailures: positiveInteger(
      maxAccountFailures,
      "auth.loginRateLimit.maxAccountFailures",
    ),
    accountWindow: positiveDuration(
      accountWindow,
      "15m",
      "auth.loginRateLimit.accountWindow",
    ),
  };
}

function signup(value: unknown): SignupSettings | false {
  if (value === undefined || value === false) return false;
  if (value === true) return { roles: [], requireVerifiedEmail: false };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      "Invalid config: auth.signup must be a boolean or { roles, requireVerifiedEmail }",
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== "roles" && key !== "requireVerifiedEmail") {
      throw new Error(
        `Invalid config: unknown config key "auth.signup.${key}"`,
      );
    }
  }
  const { roles = [], requireVerifiedEmail = false } = value as Record<
    string,
    unknown
  >;
  if (
    !Array.isArray(roles) ||
    roles.some((role) => typeof role !== "string" || role === "")
  ) {
    throw new Error("Invalid config: auth.signup.roles must be role names");
  }
  if (typeof requireVerifiedEmail !== "boolean") {
    throw new Error(
      "Invalid config: auth.signup.requireVerifiedEmail must be a boolean",
    );
  }
  return Object.freeze({
    roles: Object.freeze([...roles as string[]]),
    requireVerifiedEmail,
  });
}

function resetRateLimit(value: unknown): ResetRateLimit | false {
  if (value === false) return false;
  if (value === undefined || value === true) {
    return { maxPerEmail: 5, maxPerIp: 20, window: 3_600_000 };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      "Invalid config: auth.resetRateLimit must be false or an object",
    );
  }
  for (const key of Object.keys(value)) {
    if (!["maxPerEmail", "maxPerIp", "window"].includes(key)) {
      throw new Error(
        `Invalid config: unknown config key "auth.resetRateLimit.${key}"`,
      );
    }
  }
  const { maxPerEmail = 5, maxPerIp = 20, window } = value as Record<
    string,
    unknown
  >;
  return {
    maxPerEmail: positiveInteger(
      maxPerEmail,
      "auth.resetRateLimit.maxPerEmail",
    ),
    maxPerIp: positiveInteger(maxPerIp, "auth.resetRateLimit.maxPerIp"),
    window: positiveDuration(window, "1h", "auth.resetRateLimit.window"),
  };
}

/**
 * Validates the `auth` config section and fills in the defaults of SPEC.md. A bad value
 * throws an Error naming its key (`auth.password.cost must be a power of two`).
 *
 * @example
 * ```ts
 * import { resolveAuthSettings } from "./settings.ts";
 * const settings = resolveAuthSettings({ sessionMaxAge: "7d" });
 * settings.sessionMaxAge; // 604800000
 * settings.transientSessionMaxAge; // 86400000
 * ```
 */
export function resolveAuthSettings(
  config: Readonly<AuthConfig> | undefined,
): AuthSettings {
  const auth = config ?? {};
  if (typeof auth !== "object" || auth === null) {
    throw new Error("Invalid config: auth must be an object");
  }
  const sessionMaxAge = positiveDuration(
    auth.sessionMaxAge,
    "30d",
    "auth.sessionMaxAge",
  );
  const transient = positiveDuration(
    auth.transientSessionMaxAge,
    "1d",
    "auth.transientSessionMaxAge",
  );
  const cookieName = auth.cookieName ?? "session";
  if (typeof cookieName !== "string" || !COOKIE_NAME.test(cookieName)) {
    throw new Error(
      "Invalid config: auth.cookieName must be a cookie name (letters, digits and !#$%&'*+-.^_`|~)",
    );
  }
  let password: Required<PasswordOptions>;
  const { minLength = 8, ...scrypt } = (auth.password ?? {}) as Record<
    string,
    unknown
  >;
  if (!Number.isSafeInteger(minLength) || (minLength as number) < 1) {
    throw new Error(
      "Invalid config: auth.password.minLength must be a positive integer",
    );
  }
  try {
    password = assertPasswordOptions(scrypt, "auth.password");
  } catch (error) {
    throw new Error(`Invalid config: ${(error as Error).message}`);
  }
  return Object.freeze({
    sessionMaxAge,
    // No session outlives sessionMaxAge, whatever the transient lifetime says.
    transientSessionMaxAge: Math.min(transient, sessionMaxAge),
    cookieName,
    password: Object.freeze(password),
    loginRateLimit: rateLimit(auth.loginRateLimit),
    passwordMinLength: minLength as number,
    signup: signup(auth.signup),
    verifyTokenMaxAge: positiveDuration(
      auth.verifyTokenMaxAge,
      "24h",
      "auth.verifyTokenMaxAge",
    ),
    resetTokenMaxAge: positiveDuration(
      auth.resetTokenMaxAge,
      "1h",
      "auth.resetTokenMaxAge",
    ),
    resetRateLimit: resetRateLimit(auth.resetRateLimit),
  });
}
