// Base64url (RFC 4648 §5, unpadded) through the built-in Uint8Array codec.

/** Encodes bytes as unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Decodes unpadded base64url, or returns null for anything that is not the
 * canonical encoding of some bytes (padding, foreign characters, stray bits).
 */
export function decodeBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  let bytes: Uint8Array;
  try {
    bytes = Uint8Array.fromBase64(text, {
      alphabet: "base64url",
      lastChunkHandling: "loose",
    });
  } catch {
    return null;
  }
  // Loose decoding ignores non-zero trailing bits; a second encoding of the
  // same bytes would differ, so only the canonical text is accepted.
  return encodeBase64Url(bytes) === text ? bytes : null;
}
