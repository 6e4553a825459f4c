// The two front pages: the repository's README starts with the two set-up commands of a
// checkout (serve the example, run every test); the JSR page — the module documentation of
// the default entry point, since README.md is not published — opens with what a JSR user does.
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "../cli/_run.ts";

/** The fenced code blocks of a markdown text, in order. */
function codeBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

Deno.test("the README starts with the two set-up commands of a checkout", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  assert.equal(
    codeBlocks(readme)[0],
    "npx -y deno@2.9.6 task dev\nnpx -y deno@2.9.6 task test\n",
  );
});

Deno.test("the JSR page opens with what a JSR user does and links nothing relative", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, "deno.json")),
  );
  assert.equal(config.exports["."], "./mod.ts");
  assert.ok(config.publish.exclude.includes("README.md"));
  const source = await Deno.readTextFile(join(REPO_ROOT, "mod.ts"));
  const doc = source.slice(0, source.indexOf(" * @module"))
    .split("\n").map((line) => line.replace(/^ \* ?|^\/\*\*$/, "")).join("\n");
  const [first, second] = codeBlocks(doc);
  assert.match(first, /^deno run -A jsr:@strata\/strata\/cli new my-app\n/);
  assert.match(first, /\ndeno task dev /);
  assert.match(second, /import \{ createApp \} from "@strata\/strata";/);
  assert.match(doc, /deno add jsr:@strata\/strata/);
  assert.doesNotMatch(doc, /\]\((?!https:)/);
});
