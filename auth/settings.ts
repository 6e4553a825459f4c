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

function rateLimit(value: unknown): LoginRateLimit | false {
  if (value === false) return false;
  if (value === undefined || value === true) {
    return { maxFailures: 10, window: 60_000 };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      "Invalid config: auth.loginRateLimit must be false or an object",
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== "maxFailures" && key !== "window") {
      throw new Error(
        `Invalid config: unknown config key "auth.loginRateLimit.${key}"`,
      );
    }
  }
  const { maxFailures = 10, window } = value as {
    maxFailures?: unknown;
    window?: unknown;
  };
  if (
    !Number.isSafeInteger(maxFailures) || (maxFailures as number) < 1
  ) {
    throw new Error(
      "Invalid config: auth.loginRateLimit.maxFailures must be a positive integer",
    );
  }
  return {
    maxFailures: maxFailures as number,
    window: positiveDuration(window, "1m", "auth.loginRateLimit.window"),
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
  try {
    password = assertPasswordOptions(auth.password ?? {}, "auth.password");
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
  });
}
