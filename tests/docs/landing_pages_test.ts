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

type DocSymbol = { name: string } & Record<string, unknown>;

/** The symbols `deno doc` shows for every published entry point (`./internal` left out). */
async function publishedSymbols(): Promise<DocSymbol[]> {
  const config = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, "deno.json")),
  );
  const entries = Object.entries(config.exports as Record<string, string>)
    .filter(([name]) => name !== "./internal").map(([, path]) => path);
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...entries],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  const nodes = JSON.parse(new TextDecoder().decode(stdout)).nodes as Record<
    string,
    { symbols: DocSymbol[] }
  >;
  return Object.values(nodes).flatMap((module) => module.symbols);
}

/** Every `@example` text of `symbols`, with the symbol's name. */
function examplesOf(
  symbols: DocSymbol[],
): { name: string; code: string }[] {
  const found: { name: string; code: string }[] = [];
  const walk = (node: unknown, name: string): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, name));
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (record.kind === "example" && typeof record.doc === "string") {
      found.push({ name, code: record.doc });
    }
    for (const value of Object.values(record)) walk(value, name);
  };
  for (const symbol of symbols) walk(symbol, symbol.name);
  return found;
}

Deno.test("the JSR page's examples import from @strata/strata, not internal paths", async () => {
  const examples = examplesOf(await publishedSymbols());
  assert.ok(examples.length > 50, `only ${examples.length} examples found`);
  const internal = examples.flatMap(({ name, code }) =>
    [...code.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1])
      .filter((specifier) => /^[./]/.test(specifier))
      .map((specifier) => `${name}: ${specifier}`)
  );
  assert.deepEqual(internal, []);
});

Deno.test("the published entry points leave the internal types to @strata/strata/internal", async () => {
  const exported = new Set((await publishedSymbols()).map((s) => s.name));
  for (
    const name of [
      "ResolvedCollection",
      "MergedLayers",
      "DirectReader",
      "WireError",
    ]
  ) {
    assert.ok(!exported.has(name), `${name} is exported by a public entry`);
  }
  const internal = await Deno.readTextFile(join(REPO_ROOT, "internal.ts"));
  assert.match(internal, /\bResolvedCollection\b/);
  const cli = await Deno.readTextFile(join(REPO_ROOT, "cli/mod.ts"));
  assert.doesNotMatch(cli, /\bformatRouteTable\b/);
});
