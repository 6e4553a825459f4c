// Parser for the ICU MessageFormat subset the catalogs use: `{name}`,
// `{name, number[, integer|percent]}`, `{name, plural|selectordinal, …}` with
// `offset:`, `=N` and `#`, and `{name, select, …}`, nested. Apostrophes quote
// as in ICU's default mode: `''` is one apostrophe, and `'{`, `'}` (and `'#`
// inside a plural) open a quoted run; any other apostrophe is literal, so
// "don't" needs no escaping.

/** A placeholder `{name}` or `{name, number}`. */
export interface ArgumentNode {
  kind: "argument";
  name: string;
  style: "none" | "number" | "integer" | "percent";
  source: string;
}

/** `{name, plural, …}` or `{name, selectordinal, …}`. */
export interface PluralNode {
  kind: "plural";
  name: string;
  ordinal: boolean;
  offset: number;
  exact: Map<number, MessageNode[]>;
  options: Map<string, MessageNode[]>;
  source: string;
}

/** `{name, select, …}`. */
export interface SelectNode {
  kind: "select";
  name: string;
  options: Map<string, MessageNode[]>;
  source: string;
}

/** `#` inside a plural branch. */
export interface PoundNode {
  kind: "pound";
}

/** One piece of a parsed message. */
export type MessageNode =
  | string
  | ArgumentNode
  | PluralNode
  | SelectNode
  | PoundNode;

/** Thrown for a template that is not valid MessageFormat. */
export class MessageSyntaxError extends Error {}

const MAX_DEPTH = 16;
const NAME = /[^\s{}#',]/;
const KEYWORD = /[^\s{}]/;
const POUND: PoundNode = { kind: "pound" };

/** Parses a template into nodes; throws {@linkcode MessageSyntaxError}. */
export function parseMessage(template: string): MessageNode[] {
  const parser = new Parser(template);
  const nodes = parser.message(0, false, false);
  if (parser.pos !== template.length) parser.fail();
  return nodes;
}

class Parser {
  pos = 0;

  constructor(readonly src: string) {}

  fail(): never {
    throw new MessageSyntaxError(`Malformed message at offset ${this.pos}`);
  }

  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) {
      this.pos++;
    }
  }

  expect(char: string): void {
    if (this.src[this.pos] !== char) this.fail();
    this.pos++;
  }

  read(pattern: RegExp): string {
    const start = this.pos;
    while (this.pos < this.src.length && pattern.test(this.src[this.pos])) {
      this.pos++;
    }
    return this.src.slice(start, this.pos);
  }

  /** Reads text and arguments up to the end or, when nested, a `}`. */
  message(depth: number, inPlural: boolean, nested: boolean): MessageNode[] {
    if (depth > MAX_DEPTH) this.fail();
    const { src } = this;
    const nodes: MessageNode[] = [];
    let text = "";
    const flush = () => {
      if (text) nodes.push(text);
      text = "";
    };
    while (this.pos < src.length) {
      const char = src[this.pos];
      if (char === "'") {
        const next = src[this.pos + 1];
        if (next === "'") {
          text += "'";
          this.pos += 2;
        } else if (next === "{" || next === "}" || (inPlural && next === "#")) {
          this.pos++;
          while (this.pos < src.length) {
            if (src[this.pos] === "'") {
              if (src[this.pos + 1] === "'") {
                text += "'";
                this.pos += 2;
                continue;
              }
              this.pos++;
              break;
            }
            text += src[this.pos++];
          }
        } else {
          text += "'";
          this.pos++;
        }
      } else if (char === "{") {
        flush();
        nodes.push(this.argument(depth + 1, inPlural));
      } else if (char === "}") {
        if (!nested) this.fail();
        break;
      } else if (char === "#" && inPlural) {
        flush();
        nodes.push(POUND);
        this.pos++;
      } else {
        text += char;
        this.pos++;
      }
    }
    flush();
    return nodes;
  }

  argument(depth: number, inPlural: boolean): MessageNode {
    const start = this.pos;
    this.expect("{");
    this.skipSpace();
    const name = this.read(NAME);
    if (!name) this.fail();
    this.skipSpace();
    if (this.src[this.pos] === "}") {
      this.pos++;
      return {
        kind: "argument",
        name,
        style: "none",
        source: this.src.slice(start, this.pos),
      };
    }
    this.expect(",");
    this.skipSpace();
    const type = this.read(/[a-z]/i);
    this.skipSpace();
    switch (type) {
      case "number":
        return this.number(start, name);
      case "plural":
      case "selectordinal":
        this.expect(",");
        return this.plural(start, name, type === "selectordinal", depth);
      case "select":
        this.expect(",");
        return this.select(start, name, depth, inPlural);
      default:
        this.fail();
    }
  }

  number(start: number, name: string): ArgumentNode {
    let style: ArgumentNode["style"] = "number";
    if (this.src[this.pos] === ",") {
      this.pos++;
      this.skipSpace();
      const word = this.read(/[a-z]/i);
      if (word !== "integer" && word !== "percent") this.fail();
      style = word;
      this.skipSpace();
    }
    this.expect("}");
    return {
      kind: "argument",
      name,
      style,
      source: this.src.slice(start, this.pos),
    };
  }

  plural(
    start: number,
    name: string,
    ordinal: boolean,
    depth: number,
  ): PluralNode {
    const exact = new Map<number, MessageNode[]>();
    const options = new Map<string, MessageNode[]>();
    let offset = 0;
    this.skipSpace();
    if (!ordinal && this.src.startsWith("offset:", this.pos)) {
      this.pos += "offset:".length;
      this.skipSpace();
      const digits = this.read(/[0-9]/);
      if (!digits) this.fail();
      offset = Number(digits);
    }
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === "}") break;
      let selector: string;
      if (this.src[this.pos] === "=") {
        this.pos++;
        selector = this.read(/[0-9.\-]/);
        const value = Number(selector);
        if (!selector || !Number.isFinite(value) || exact.has(value)) {
          this.fail();
        }
        exact.set(value, this.branch(depth, true));
      } else {
        selector = this.read(/[a-z]/i);
        if (!selector || options.has(selector)) this.fail();
        options.set(selector, this.branch(depth, true));
      }
    }
    this.pos++;
    if (!options.has("other")) this.fail();
    return {
      kind: "plural",
      name,
      ordinal,
      offset,
      exact,
      options,
      source: this.src.slice(start, this.pos),
    };
  }

  select(
    start: number,
    name: string,
    depth: number,
    inPlural: boolean,
  ): SelectNode {
    const options = new Map<string, MessageNode[]>();
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === "}") break;
      const selector = this.read(KEYWORD);
      if (!selector || options.has(selector)) this.fail();
      options.set(selector, this.branch(depth, inPlural));
    }
    this.pos++;
    if (!options.has("other")) this.fail();
    return {
      kind: "select",
      name,
      options,
      source: this.src.slice(start, this.pos),
    };
  }

  branch(depth: number, inPlural: boolean): MessageNode[] {
    this.skipSpace();
    this.expect("{");
    const nodes = this.message(depth + 1, inPlural, true);
    this.expect("}");
    return nodes;
  }
}
