/**
 * The client behind reverse proxies: `X-Forwarded-For` / `Forwarded` (and their protocol)
 * read only from hops the app trusts (`api.trustProxy`), so a client cannot forge its
 * address by sending the header itself.
 *
 * @module
 */

/**
 * Which proxies are trusted: `false` (none: the socket address is the client), a hop count
 * (that many proxies in front of the app), or the proxies' addresses (exact IPs or IPv4
 * CIDR ranges such as `10.0.0.0/8`).
 */
export type TrustProxy = false | number | readonly string[];

/** The client as the trusted hops report it. */
export interface ForwardedClient {
  /** The client address (the socket address when nothing is trusted). */
  readonly ip: string;
  /** Whether the client spoke HTTPS to the outermost trusted hop (or to the app). */
  readonly secure: boolean;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4Number(address: string): number | null {
  const match = IPV4.exec(address);
  if (!match) return null;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(match[i]);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Strips an IPv4-mapped IPv6 prefix, brackets and a port from a hop's address. */
function bareAddress(value: string): string {
  let address = value.trim();
  if (address.startsWith('"') && address.endsWith('"')) {
    address = address.slice(1, -1);
  }
  if (address.startsWith("[")) {
    const end = address.indexOf("]");
    address = end === -1 ? address.slice(1) : address.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(address)) {
    address = address.slice(0, address.indexOf(":"));
  }
  address = address.toLowerCase();
  if (address.startsWith("::ffff:") && IPV4.test(address.slice(7))) {
    address = address.slice(7);
  }
  return address;
}

type Matcher = (address: string) => boolean;

function matcherOf(entry: string, key: string): Matcher {
  const slash = entry.indexOf("/");
  if (slash === -1) {
    const exact = bareAddress(entry);
    return (address) => address === exact;
  }
  const base = ipv4Number(entry.slice(0, slash));
  const bits = Number(entry.slice(slash + 1));
  if (base === null || !Number.isInteger(bits) || bits < 0 || bits > 32) {
    throw new Error(
      `Invalid config: ${key} entry "${entry}" is not an address or an IPv4 CIDR range (10.0.0.0/8)`,
    );
  }
  const size = 2 ** (32 - bits);
  const start = Math.floor(base / size) * size;
  return (address) => {
    const value = ipv4Number(address);
    return value !== null && value >= start && value < start + size;
  };
}

/** A validated `api.trustProxy`: resolves the client of a request. */
export type ClientResolver = (
  headers: Headers,
  socketAddress: string,
  socketSecure: boolean,
) => ForwardedClient;

/** The hops of a request, nearest (the socket) last, each with the protocol it reports. */
function hopsOf(headers: Headers): { for: string; proto?: string }[] {
  const forwarded = headers.get("forwarded");
  if (forwarded !== null) {
    return forwarded.split(",").map((element) => {
      const hop: { for: string; proto?: string } = { for: "" };
      for (const pair of element.split(";")) {
        const eq = pair.indexOf("=");
        if (eq === -1) continue;
        const name = pair.slice(0, eq).trim().toLowerCase();
        const value = pair.slice(eq + 1).trim().replace(/^"|"$/g, "");
        if (name === "for") hop.for = bareAddress(value);
        else if (name === "proto") hop.proto = value.toLowerCase();
      }
      return hop;
    });
  }
  const list = headers.get("x-forwarded-for");
  if (list === null) return [];
  const hops: { for: string; proto?: string }[] = list.split(",").map((
    entry,
  ) => ({ for: bareAddress(entry) }));
  // X-Forwarded-Proto is set by the proxy nearest the app from what it received.
  const proto = headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim()
    .toLowerCase();
  if (proto && hops.length > 0) hops[hops.length - 1].proto = proto;
  return hops;
}

/**
 * Validates `api.trustProxy` and returns the resolver of a request's client. With `false`
 * the forwarding headers are ignored.
 *
 * @example
 * ```ts
 * import { clientResolver } from "./forwarded.ts";
 * const resolve = clientResolver(1, "api.trustProxy");
 * const headers = new Headers({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" });
 * resolve(headers, "10.0.0.2", false); // { ip: "203.0.113.9", secure: true }
 * ```
 */
export function clientResolver(
  value: unknown,
  key: string,
): ClientResolver {
  if (value === undefined || value === false) {
    return (_headers, ip, secure) => ({ ip, secure });
  }
  let trusted: (address: string, depth: number) => boolean;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(
        `Invalid config: ${key} must be false, a hop count of at least 1, or a list of proxy addresses`,
      );
    }
    trusted = (_address, depth) => depth < value;
  } else if (
    Array.isArray(value) && value.every((v) => typeof v === "string")
  ) {
    const matchers = (value as string[]).map((entry) => matcherOf(entry, key));
    trusted = (address) => matchers.some((match) => match(address));
  } else {
    throw new Error(
      `Invalid config: ${key} must be false, a hop count of at least 1, or a list of proxy addresses`,
    );
  }
  return (headers, socketAddress, socketSecure) => {
    const socket = bareAddress(socketAddress);
    if (!trusted(socket, 0)) return { ip: socket, secure: socketSecure };
    const hops = hopsOf(headers);
    let ip = socket;
    let secure = socketSecure;
    // Walk from the nearest hop outwards while each one is a trusted proxy.
    for (let i = hops.length - 1, depth = 1; i >= 0; i--, depth++) {
      const hop = hops[i];
      if (hop.for === "") break;
      ip = hop.for;
      if (hop.proto !== undefined) secure = hop.proto === "https";
      if (!trusted(hop.for, depth)) break;
    }
    return { ip, secure };
  };
}

/**
 * Whether the client of `event` spoke HTTPS: to the app itself, or (behind proxies trusted by
 * `api.trustProxy`) to the proxy that received the request.
 *
 * @example
 * ```ts
 * import { defineHandler } from "@strata/strata";
 * import { isSecureRequest } from "./forwarded.ts";
 * export default defineHandler((event) => ({ https: isSecureRequest(event) }));
 * ```
 */
export function isSecureRequest(event: { readonly request: Request }): boolean {
  const client = (event as { client?: ForwardedClient }).client;
  return client ? client.secure : event.request.url.startsWith("https:");
}
