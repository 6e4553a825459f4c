// The ```ts samples of a markdown page, for the docs tests.
import assert from "node:assert/strict";

export interface Sample {
  /** `docs/routes.md:42` (the line of the opening fence). */
  where: string;
  code: string;
  /** The text of an HTML comment right above the fence, blank lines apart (`<!-- fragment: … -->`). */
  note?: string;
}

/** The app file a sample is, from its first line (`// collections/Posts.ts`), if any. */
export function appPathOf(sample: Sample): string | undefined {
  const first = sample.code.split("\n", 1)[0];
  return /^\/\/ ((?:api|collections|middleware|roles|hooks|webhooks|layers)\/\S+\.ts|tests\/\S+_test\.ts|scripts\/\S+\.ts|strata\.config\.ts)\b/
    .exec(first)?.[1]?.replace(/:$/, "");
}

/** The ```ts blocks of a markdown text. */
export function extractSamples(markdown: string, name: string): Sample[] {
  const samples: Sample[] = [];
  const lines = markdown.split("\n");
  let open: { line: number; code: string[] } | null = null;
  let fence = "";
  let note: string | undefined;
  for (const [index, line] of lines.entries()) {
    if (open === null) {
      const match = /^(\s*)(`{3,}|~{3,})\s*(\S*)/.exec(line);
      if (!match) continue;
      fence = match[2];
      const lang = match[3].toLowerCase();
      open = { line: index + 1, code: [] };
      if (lang !== "ts" && lang !== "typescript") open.line = -1;
      let above = index - 1;
      while (above >= 0 && lines[above].trim() === "") above--;
      note = /^\s*<!--\s*([\s\S]*?)\s*-->\s*$/.exec(lines[above] ?? "")?.[1];
      continue;
    }
    if (line.trim() === fence) {
      if (open.line !== -1) {
        samples.push({
          where: `${name}:${open.line}`,
          code: open.code.join("\n"),
          ...(note === undefined ? {} : { note }),
        });
      }
      open = null;
      continue;
    }
    open.code.push(line);
  }
  assert.equal(open, null, `${name}: a code fence is not closed`);
  return samples;
}
