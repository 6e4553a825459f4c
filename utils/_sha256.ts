// SHA-256 as unpadded base64url, synchronously: the one implementation behind the public
// `sha256Base64Url` and the per-request token hash of the auth layer, where WebCrypto's
// asynchronous digest costs more in scheduling than in hashing.
import { createHash } from "node:crypto";

/** SHA-256 of the UTF-8 text `text`, as unpadded base64url (43 characters). */
export function sha256Base64UrlNow(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
