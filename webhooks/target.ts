/**
 * Where an attempt may connect (SSRF rules): `https:` only unless `allowInsecure`, and the
 * address the host name resolves to right now must be public unless `allowPrivateNetworks`.
 * The attempt then connects to exactly that address, so a name that resolves differently a
 * moment later (DNS rebinding) cannot slip past the check.
 *
 * @module
 */

import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** What an attempt is allowed to reach. */
export interface TargetPolicy {
  /** Allow `http:`. */
  readonly allowInsecure: boolean;
  /** Allow private, loopback, link-local and other non-public addresses. */
  readonly allowPrivateNetworks: boolean;
}

/** A checked target: connect to `address`:`port` and speak to `url`. */
export interface ResolvedTarget {
  readonly url: URL;
  readonly address: string;
  readonly port: number;
}

/** An attempt refused before any connection was made. */
export class TargetRefused extends Error {
  override name = "TargetRefused";
}

// IPv4 ranges that are not public unicast (RFC 6890 and friends): [first, prefix length].
const V4_BLOCKED: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Blocked(address: string): boolean {
  const n = v4Number(address);
  return V4_BLOCKED.some(([first, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4Number(first);
    return n >= start && n < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address. */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0];
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4Number(v4[1]);
    text = text.slice(0, -v4[1].length) +
      `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((g) => parseInt(g, 16)) : [];
  const left = parse(head);
  const right = parse(tail);
  const middle = tail === undefined
    ? []
    : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...middle, ...right];
}

function v6Blocked(address: string): boolean {
  const g = v6Groups(address);
  const zeroes = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = () =>
    `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  if (zeroes(8)) return true; // unspecified ::
  if (zeroes(7) && g[7] === 1) return true; // loopback ::1
  if (zeroes(5) && g[5] === 0xffff) return v4Blocked(embedded()); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => !x)) {
    return v4Blocked(embedded()); // NAT64
  }
  if (zeroes(6)) return true; // IPv4-compatible (deprecated)
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local fec0::/10
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x0100 && !g[1] && !g[2] && !g[3]) return true; // discard 100::/64
  if (g[0] === 0x2002) { // 6to4: the IPv4 address in groups 1 and 2
    return v4Blocked(`${g[1] >> 8}.${g[1] & 255}.${g[2] >> 8}.${g[2] & 255}`);
  }
  return false;
}

/**
 * Whether `address` (an IP literal) is outside public unicast space: private, loopback,
 * link-local, multicast, reserved or documentation ranges.
 *
 * @example
 * ```ts
 * import { isPrivateAddress } from "./target.ts";
 * isPrivateAddress("169.254.169.254"); // true
 * isPrivateAddress("::ffff:127.0.0.1"); // true
 * isPrivateAddress("93.184.216.34"); // false
 * ```
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return v4Blocked(address);
  if (family === 6) return v6Blocked(address);
  return true;
}

/**
 * Checks `url` against `policy` and resolves its host now; throws {@link TargetRefused} when
 * the attempt may not be made, naming why and the setting that would allow it.
 *
 * @example
 * ```ts ignore
 * const target = await resolveTarget(new URL("https://example.com/hook"), policy);
 * ```
 */
export async function resolveTarget(
  url: URL,
  policy: TargetPolicy,
): Promise<ResolvedTarget> {
  if (url.protocol === "http:" && !policy.allowInsecure) {
    throw new TargetRefused(
      "http: targets are refused (set webhooks.allowInsecure to allow them)",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TargetRefused(`${url.protocol} targets are refused`);
  }
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true }))
        .map((entry) => entry.address);
    } catch (error) {
      throw new TargetRefused(
        `${host} does not resolve (${(error as Error).message})`,
      );
    }
  }
  if (addresses.length === 0) {
    throw new TargetRefused(`${host} does not resolve`);
  }
  const allowed = policy.allowPrivateNetworks
    ? addresses
    : addresses.filter((address) => !isPrivateAddress(address));
  if (allowed.length === 0) {
    throw new TargetRefused(
      `${host} resolves to a non-public address (${
        addresses[0]
      }); set webhooks.allowPrivateNetworks to allow it`,
    );
  }
  return { url, address: allowed[0], port };
}
