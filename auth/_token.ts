// How a request presents its session token (cookie first, else Bearer), the cookies that
// carry it and the hash it is stored under.
import { sha256Base64UrlNow } from "../utils/_sha256.ts";

/** A session token: base64url of 32 random bytes. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How the current request presented its token. */
export type Presentation = "cookie" | "bearer";

/** A token as the request presented it. */
export interface PresentedToken {
  readonly token: string;
  readonly via: Presentation;
}

/** Whether `token` has the shape of a session token (checked before any database work). */
export function isTokenShaped(token: string): boolean {
  return TOKEN.test(token);
}

/** The value of cookie `name` in a Cookie header, or `undefined`. */
export function readCookie(
  header: string | null,
  name: string,
): string | undefined {
  if (header === null || !header.includes(name)) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1);
    }
    return value;
  }
  return undefined;
}

/**
 * The token a request presents: the session cookie when there is one, else an
 * `Authorization: Bearer` token; `null` when it presents neither.
 */
export function presentedToken(
  headers: Headers,
  cookieName: string,
): PresentedToken | null {
  const cookie = readCookie(headers.get("cookie"), cookieName);
  if (cookie) return { token: cookie, via: "cookie" };
  const authorization = headers.get("authorization");
  if (authorization === null) return null;
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(authorization);
  return match ? { token: match[1], via: "bearer" } : null;
}

const ATTRIBUTES = "HttpOnly; Secure; SameSite=Lax; Path=/";

/**
 * The Set-Cookie value of a session: `Max-Age` only for a remembered one, so a
 * transient session's cookie ends with the browser.
 */
export function sessionCookie(
  name: string,
  token: string,
  maxAgeMs: number | undefined,
): string {
  const maxAge = maxAgeMs === undefined
    ? ""
    : `; Max-Age=${Math.floor(maxAgeMs / 1000)}`;
  return `${name}=${token}; ${ATTRIBUTES}${maxAge}`;
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedCookie(name: string): string {
  return `${name}=; ${ATTRIBUTES}; Max-Age=0`;
}

/** The stored form of a token: its SHA-256 in base64url. */
export function tokenHash(token: string): string {
  return sha256Base64UrlNow(token);
}
