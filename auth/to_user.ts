/**
 * The User shape: the public face of a Users record in every auth response.
 *
 * @module
 */

/** The public shape of a user, identical in every response that returns one. */
export interface User {
  /** The user's identifier. */
  UUID: string;
  /** Trimmed and lowercased. */
  email: string;
  /** Role names. */
  roles: string[];
  /** Language of the dashboard (BCP-47), or null. */
  dashboardLanguage: string | null;
  /** Preferred content locale (BCP-47), or null. */
  contentLanguage: string | null;
  /** IANA time zone name. */
  timezone: string;
  /** Date format pattern. */
  dateFormat: string;
  /** Time format token. */
  timeFormat: string;
  /** Account setting of the dashboard. */
  smartClipboard: boolean;
}

/** The fields of the User shape besides `UUID`, in order. */
export const USER_FIELDS: readonly (keyof Omit<User, "UUID">)[] = Object
  .freeze([
    "email",
    "roles",
    "dashboardLanguage",
    "contentLanguage",
    "timezone",
    "dateFormat",
    "timeFormat",
    "smartClipboard",
  ]);

function textOr<T>(value: unknown, fallback: T): string | T {
  return typeof value === "string" ? value : fallback;
}

/**
 * Maps a Users record to the User shape: exactly its fields, never the password hash or
 * fields an app added to its own Users collection.
 *
 * @example
 * ```ts
 * import { toUser } from "@strata/strata/auth";
 * const user = toUser({ UUID: "7c0e…", email: "ada@example.com", password: "scrypt$…", roles: ["admin"] });
 * "password" in user; // false
 * user.timezone; // "UTC"
 * ```
 */
export function toUser(record: Readonly<Record<string, unknown>>): User {
  if (record === null || typeof record !== "object") {
    throw new TypeError("toUser() needs a Users record");
  }
  return {
    UUID: String(record.UUID),
    email: textOr(record.email, ""),
    roles: Array.isArray(record.roles)
      ? record.roles.filter((role): role is string => typeof role === "string")
      : [],
    dashboardLanguage: textOr(record.dashboardLanguage, null),
    contentLanguage: textOr(record.contentLanguage, null),
    timezone: textOr(record.timezone, "UTC"),
    dateFormat: textOr(record.dateFormat, "LL"),
    timeFormat: textOr(record.timeFormat, "LTS"),
    smartClipboard: record.smartClipboard === true,
  };
}
