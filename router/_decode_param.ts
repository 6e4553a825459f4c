// Decoding of route params: `decodeURIComponent`, except that an escape which
// is not part of valid UTF-8 stays as raw text instead of throwing, so one bad
// byte in a URL never turns a request into a 500.

import { escapedByteAt } from "./_percent.ts";

/** Decodes a raw param value; call it only when the value holds a `%`. */
export function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return decodeLeniently(raw);
  }
}

/** Number of bytes of the UTF-8 sequence a lead byte starts, 0 if invalid. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function decodeLeniently(raw: string): string {
  let out = "";
  let copied = 0;
  let index = raw.indexOf("%");
  while (index !== -1) {
    const lead = escapedByteAt(raw, index);
    if (lead === -1) {
      index = raw.indexOf("%", index + 1);
      continue;
    }
    const end = index + sequenceLength(lead) * 3;
    if (end > index && end <= raw.length) {
      let decoded: string | undefined;
      try {
        // The engine validates continuation bytes, overlongs and surrogates.
        decoded = decodeURIComponent(raw.slice(index, end));
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined) {
        out += raw.slice(copied, index) + decoded;
        copied = end;
        index = raw.indexOf("%", end);
        continue;
      }
    }
    index = raw.indexOf("%", index + 3);
  }
  return out + raw.slice(copied);
}
