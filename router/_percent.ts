// Percent-encoding primitives shared by the path canonicaliser, the route
// file parser and the param decoder. Tables instead of regular expressions:
// these run once per request.

/** `%00` … `%FF`, upper-case hex, indexed by byte. */
export const PERCENT_ESCAPES: readonly string[] = Array.from(
  { length: 256 },
  (_, byte) => "%" + byte.toString(16).toUpperCase().padStart(2, "0"),
);

const HEX_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUES[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUES[65 + i] = 10 + i;
  HEX_VALUES[97 + i] = 10 + i;
}

const UNRESERVED = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-._~]/.test(ch)) UNRESERVED[c] = 1;
}

/**
 * The byte encoded by the escape starting at `index` (the `%`), or -1 when
 * the two characters after it are not hex digits.
 */
export function escapedByteAt(text: string, index: number): number {
  if (index + 2 >= text.length) return -1;
  const hi = text.charCodeAt(index + 1);
  const lo = text.charCodeAt(index + 2);
  if (hi > 127 || lo > 127) return -1;
  const h = HEX_VALUES[hi];
  const l = HEX_VALUES[lo];
  return h < 0 || l < 0 ? -1 : (h << 4) | l;
}

/** Whether `code` is an RFC 3986 unreserved character (`A-Z a-z 0-9 - . _ ~`). */
export function isUnreserved(code: number): boolean {
  return code < 128 && UNRESERVED[code] === 1;
}
