// Path helpers from node:path, plus a file-URL conversion (no @std/path: JSR is out of reach).
import { isAbsolute, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export { isAbsolute, join, relative, resolve };

export function toFileUrl(path: string): URL {
  return pathToFileURL(path);
}
