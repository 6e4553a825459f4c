// UTF-8 sizes of strings, without encoding them.

/**
 * Whether `s` encodes to more than `max` UTF-8 bytes (lone surrogates count
 * 3, as their U+FFFD replacement), without encoding it.
 *
 * @example
 * ```ts
 * import { exceedsUtf8Bytes } from "./_utf8.ts";
 * exceedsUtf8Bytes("€", 2); // true: 3 bytes
 * ```
 */
export function exceedsUtf8Bytes(s: string, max: number): boolean {
  // At most 3 bytes per UTF-16 unit: only a string in that range needs counting.
  if (s.length > max) return true;
  return s.length * 3 > max && utf8Length(s) > max;
}

/**
 * The number of UTF-8 bytes `s` encodes to (lone surrogates count 3, as their U+FFFD
 * replacement), without encoding it.
 *
 * @example
 * ```ts
 * import { utf8Length } from "./_utf8.ts";
 * utf8Length("a€"); // 4
 * ```
 */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (
      c >= 0xd800 && c <= 0xdbff && i + 1 < s.length &&
      (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
