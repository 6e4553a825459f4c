// The curl commands of the docs that call `http://localhost:8000` run as written against the
// example app (`deno task dev` serves it there): each is parsed as the shell would (single
// quotes, `\` line joins), URLs with brackets need curl's `-g`, and each answers a 2xx.
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../cli/_run.ts";
import { blogTest } from "../http/_openapi.ts";

/** A curl command of a page: its words, after quotes and line joins. */
function curlCommands(markdown: string): string[][] {
  const blocks = [
    ...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm),
  ]
    .map((m) => m[1].replace(/\\\n\s*/g, " "));
  const commands: string[][] = [];
  for (const line of blocks.flatMap((block) => block.split("\n"))) {
    if (!line.startsWith("curl ")) continue;
    const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) =>
      m[1] ?? m[2]
    );
    commands.push(words.slice(1));
  }
  return commands;
}

/** The request a curl command sends, or undefined when it does not call localhost:8000. */
function requestOf(words: string[]): Request | undefined {
  let method: string | undefined;
  let body: string | undefined;
  let globbing = true;
  let url: string | undefined;
  const headers = new Headers();
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "-X") method = words[++i];
    else if (word === "-d") body = words[++i];
    else if (word === "-H") {
      const [name, ...value] = words[++i].split(":");
      headers.set(name.trim(), value.join(":").trim());
    } else if (word === "-g") globbing = false;
    else if (!word.startsWith("-")) url = word;
  }
  if (!url?.startsWith("http://localhost:8000/")) return undefined;
  assert.ok(
    !globbing || !/[[\]{}]/.test(url),
    `curl reads the brackets of ${url} as its own ranges: add -g`,
  );
  return new Request(url, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
}

const PAGES = ["README.md", "docs/collections-api-and-access.md"];

blogTest(
  "the docs' curl commands against localhost:8000 answer 2xx on the example app",
  async (app) => {
    let ran = 0;
    for (const page of PAGES) {
      const text = await Deno.readTextFile(join(REPO_ROOT, page));
      for (const words of curlCommands(text)) {
        const request = requestOf(words);
        if (!request) continue;
        const response = await app.fetch(request);
        const answer = await response.text();
        assert.ok(
          response.status < 300,
          `${page}: curl ${
            words.join(" ")
          } answered ${response.status}: ${answer}`,
        );
        ran++;
      }
    }
    assert.ok(ran >= 2, `only ${ran} curl commands ran`);
  },
);
