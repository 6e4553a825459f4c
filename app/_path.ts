// Path helpers from node:path, plus a file-URL conversion (no @std/path: JSR is out of reach).
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

export { isAbsolute, join, relative, resolve };

export function toFileUrl(path: string): URL {
  return pathToFileURL(path);
}

/** Characters a file URL keeps as they are in a POSIX path, and the brackets of params. */
const PLAIN_PATH = /^\/[\w!$&'()*+,\-.:;=@/[\]]*$/;
/** Characters a file URL keeps as they are in a relative POSIX path, and the brackets of params. */
const PLAIN_NAME = /^[\w!$&'()*+,\-.:;=@/[\]]*$/;
/** `.` and `..` segments of a relative path. */
const DOT_NAME = /(?:^|\/)\.\.?(?:\/|$)/;
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

/**
 * `fileHref(childPath(dir, file))` for each of a folder's files. A file whose name needs no
 * escaping, in a folder whose path needs none, only adds its name to the folder's URL, where
 * a thousand route files would test and escape the whole path each.
 */
export function childHrefs(dir: string, files: readonly string[]): string[] {
  const dirHref = fileHref(dir);
  const plainDir = sep === "/" && dir !== "/" && dirHref === `file://${dir}`;
  const hrefs: string[] = new Array(files.length);
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    hrefs[i] = plainDir && PLAIN_NAME.test(file) && !DOT_NAME.test(file)
      ? `${dirHref}/${file.replaceAll("[", "%5B").replaceAll("]", "%5D")}`
      : fileHref(childPath(dir, file));
  }
  return hrefs;
}
