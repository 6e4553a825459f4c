// Path helpers from node:path, plus a file-URL conversion (no @std/path: JSR is out of reach).
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

export { isAbsolute, join, relative, resolve };

export function toFileUrl(path: string): URL {
  return pathToFileURL(path);
}

/** Characters a file URL keeps as they are in a POSIX path, and the brackets of params. */
const PLAIN_PATH = /^\/[\w!$&'()*+,\-.:;=@/[\]]*$/;
/** `.` and `..` segments, which a URL would resolve. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * `toFileUrl(path).href` for an absolute path, without parsing a URL when the path needs no
 * escaping (`pathToFileURL` costs ~20 µs, which a thousand route files add up to).
 */
export function fileHref(path: string): string {
  return sep === "/" && PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)
    ? `file://${path.replaceAll("[", "%5B").replaceAll("]", "%5D")}`
    : pathToFileURL(path).href;
}

/**
 * `join(dir, file)` for a normalized `dir` and a `/`-separated relative `file` without `.`
 * segments (as a folder walk yields them), without normalizing again.
 */
export function childPath(dir: string, file: string): string {
  return sep === "/" && dir !== "/" ? `${dir}/${file}` : join(dir, file);
}
