/**
 * The relaxed literal syntax of URL query values (JSON is accepted too).
 *
 * - `10`, `-1.5`, `1e3`: numbers (exactly the JSON number grammar, so `007`,
 *   `+1`, `.5` and `1.` stay strings).
 * - `true`, `false`, `null`.
 * - `[a,b]`: a list; `{k:v}`: an object whose keys are bare or JSON-quoted.
 * - `"…"`: a JSON string with JSON escapes.
 * - A leading backtick forces a string: `` `007 `` is `"007"`, `` `true `` is
 *   `"true"`, a lone backtick is `""`.
 * - Anything else is a bare word, i.e. a string. Whitespace (space, tab, CR,
 *   LF) around tokens is dropped; whitespace inside a bare word is kept
 *   (`hello world`). Inside a list or an object a bare word runs until `,`,
 *   `]` or `}` (an object key until `:`); at the top level it runs to the end
 *   of the text, so `a,b` alone is the string `"a,b"`.
 * - Lists and objects nest at most 32 levels (`tooDeep`); duplicate object
 *   keys, empty items and trailing commas are `invalidShape`.
 *
 * The parser scans each character a bounded number of times (no regular
 * expressions, recursion bounded by the nesting limit) and builds objects with
 * `Object.fromEntries`, so `__proto__` and friends become plain own keys.
 *
 * @module
 */

import { wireError } from "./errors.ts";

/** Levels of `[`/`{` a literal may nest. */
const MAX_DEPTH = 32;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_LIST = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_LIST = 0x5d;
const BACKTICK = 0x60;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Whether `s` is exactly a JSON number (no leading zeros, no `+`, no `.5`). */
function isJsonNumber(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (s.charCodeAt(i) === 0x2d) i++;
  if (i >= n) return false;
  if (s.charCodeAt(i) === 0x30) {
    i++;
  } else if (isDigit(s.charCodeAt(i))) {
    while (i < n && isDigit(s.charCodeAt(i))) i++;
  } else {
    return false;
  }
  if (i < n && s.charCodeAt(i) === 0x2e) {
    i++;
    const start = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  if (i < n && (s.charCodeAt(i) | 0x20) === 0x65) {
    i++;
    const sign = s.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const start = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    if (i === start) return false;
  }
  return i === n;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class LiteralParser {
  readonly #text: string;
  readonly #path: string;
  #pos = 0;

  constructor(text: string, path: string) {
    this.#text = text;
    this.#path = path;
  }

  parse(): unknown {
    const text = this.#text;
    this.#skipSpace();
    if (this.#pos >= text.length) throw this.#syntax("Empty value");
    const c = text.charCodeAt(this.#pos);
    if (c === OPEN_LIST || c === OPEN_OBJECT || c === QUOTE) {
      const value = this.#value(0);
      this.#skipSpace();
      if (this.#pos < text.length) throw this.#unexpected();
      return value;
    }
    // A top-level bare word has no container, so nothing but the end of the
    // text ends it.
    return this.#word(
      text.slice(this.#pos, this.#trimmedEnd(this.#pos, text.length)),
    );
  }

  #value(depth: number): unknown {
    this.#skipSpace();
    const text = this.#text;
    if (this.#pos >= text.length) throw this.#syntax("Unexpected end of value");
    const c = text.charCodeAt(this.#pos);
    if (c === OPEN_LIST) return this.#list(depth + 1);
    if (c === OPEN_OBJECT) return this.#object(depth + 1);
    if (c === QUOTE) return this.#string();
    const start = this.#pos;
    let end = start;
    while (end < text.length) {
      const d = text.charCodeAt(end);
      if (d === COMMA || d === CLOSE_LIST || d === CLOSE_OBJECT) break;
      end++;
    }
    this.#pos = end;
    const word = text.slice(start, this.#trimmedEnd(start, end));
    if (word === "") throw this.#syntax("Missing value");
    return this.#word(word);
  }

  #word(word: string): unknown {
    if (word.charCodeAt(0) === BACKTICK) return word.slice(1);
    if (word === "true") return true;
    if (word === "false") return false;
    if (word === "null") return null;
    if (isJsonNumber(word)) {
      const n = Number(word);
      if (!Number.isFinite(n)) {
        throw wireError("invalidValue", this.#path, "Number out of range");
      }
      return n === 0 ? 0 : n; // -0 would differ from 0 under Object.is
    }
    return word;
  }

  #list(depth: number): unknown[] {
    if (depth > MAX_DEPTH) throw wireError("tooDeep", this.#path);
    const text = this.#text;
    this.#pos++;
    const items: unknown[] = [];
    this.#skipSpace();
    if (text.charCodeAt(this.#pos) === CLOSE_LIST) {
      this.#pos++;
      return items;
    }
    for (;;) {
      items.push(this.#value(depth));
      this.#skipSpace();
      const c = text.charCodeAt(this.#pos);
      if (c === COMMA) {
        this.#pos++;
      } else if (c === CLOSE_LIST) {
        this.#pos++;
        return items;
      } else {
        throw this.#unexpected();
      }
    }
  }

  #object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) throw wireError("tooDeep", this.#path);
    const text = this.#text;
    this.#pos++;
    const entries = new Map<string, unknown>();
    this.#skipSpace();
    if (text.charCodeAt(this.#pos) === CLOSE_OBJECT) {
      this.#pos++;
      return {};
    }
    for (;;) {
      const keyAt = this.#pos;
      const key = this.#key();
      if (entries.has(key)) {
        throw this.#syntax(`Duplicate key at offset ${keyAt}`);
      }
      this.#skipSpace();
      if (text.charCodeAt(this.#pos) !== COLON) throw this.#unexpected();
      this.#pos++;
      entries.set(key, this.#value(depth));
      this.#skipSpace();
      const c = text.charCodeAt(this.#pos);
      if (c === COMMA) {
        this.#pos++;
      } else if (c === CLOSE_OBJECT) {
        this.#pos++;
        // fromEntries defines own data properties, so "__proto__" stays a key.
        return Object.fromEntries(entries);
      } else {
        throw this.#unexpected();
      }
    }
  }

  #key(): string {
    this.#skipSpace();
    const text = this.#text;
    if (text.charCodeAt(this.#pos) === QUOTE) return this.#string();
    const start = this.#pos;
    let end = start;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === COLON) break;
      if (
        c === COMMA || c === CLOSE_LIST || c === CLOSE_OBJECT ||
        c === OPEN_LIST || c === OPEN_OBJECT || c === QUOTE
      ) {
        this.#pos = end;
        throw this.#unexpected();
      }
      end++;
    }
    this.#pos = end;
    const key = text.slice(start, this.#trimmedEnd(start, end));
    if (key === "") throw this.#syntax("Missing key");
    return key;
  }

  #string(): string {
    const text = this.#text;
    const open = this.#pos;
    let i = open + 1;
    let chunkStart = i;
    const parts: string[] = [];
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        parts.push(text.slice(chunkStart, i));
        this.#pos = i + 1;
        return parts.join("");
      }
      if (c === BACKSLASH) {
        parts.push(text.slice(chunkStart, i));
        const e = text[i + 1];
        if (e === "u") {
          let code = 0;
          for (let k = i + 2; k < i + 6; k++) {
            const h = hexValue(text.charCodeAt(k));
            if (h < 0) throw this.#syntax(`Invalid escape at offset ${i}`);
            code = code * 16 + h;
          }
          parts.push(String.fromCharCode(code));
          i += 6;
        } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
          parts.push(ESCAPES[e]);
          i += 2;
        } else {
          throw this.#syntax(`Invalid escape at offset ${i}`);
        }
        chunkStart = i;
        continue;
      }
      i++;
    }
    throw this.#syntax(`Unterminated string at offset ${open}`);
  }

  #skipSpace(): void {
    const text = this.#text;
    while (this.#pos < text.length && isSpace(text.charCodeAt(this.#pos))) {
      this.#pos++;
    }
  }

  #trimmedEnd(start: number, end: number): number {
    while (end > start && isSpace(this.#text.charCodeAt(end - 1))) end--;
    return end;
  }

  #unexpected() {
    if (this.#pos >= this.#text.length) {
      return this.#syntax("Unexpected end of value");
    }
    return this.#syntax(`Unexpected character at offset ${this.#pos}`);
  }

  #syntax(message: string) {
    return wireError("invalidShape", this.#path, message);
  }
}

/**
 * Parses one URL query value in the relaxed literal syntax (see the module
 * documentation). Every failure is a 400 {@link wireError} at `path`:
 * `invalidShape` for a syntax error, `tooDeep` past 32 nesting levels,
 * `invalidValue` for a number out of range.
 *
 * @example
 * ```ts
 * import { parseRelaxedLiteral } from "./literal.ts";
 * parseRelaxedLiteral("{views:{atLeast:10}}", "where");
 * // { views: { atLeast: 10 } }
 * parseRelaxedLiteral("[-views, title]", "order"); // ["-views", "title"]
 * parseRelaxedLiteral("007", "where"); // "007"
 * ```
 */
export function parseRelaxedLiteral(text: string, path: string): unknown {
  if (typeof text !== "string") {
    throw wireError("invalidShape", path, "Expected text");
  }
  return new LiteralParser(text, path).parse();
}
