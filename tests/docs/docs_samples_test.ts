// Every ```ts sample in docs/*.md and README.md type-checks: each block is written to a temp
// folder as a file of its own, with a deno.json whose import map points `@strata/strata` at
// this checkout (as `strata new --strata <path>` does), and one `deno check` runs over them.
// Also: every topic page exists, the README links each page, and relative links resolve.
import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { strataImportMap } from "../../cli/import_map.ts";
import { extractSamples } from "./_samples.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = join(REPO_ROOT, "docs");

/** The topic pages issue 7 asks for. */
const TOPICS = [
  "getting-started",
  "routes",
  "middleware",
  "config",
  "collections-and-fields",
  "querying",
  "collections-api-and-access",
  "auth",
  "messages",
  "testing",
  "deployment",
  "types-and-openapi",
];

async function markdownFiles(): Promise<{ name: string; text: string }[]> {
  const files = [{
    name: "README.md",
    text: await Deno.readTextFile(join(REPO_ROOT, "README.md")),
  }];
  for await (const entry of Deno.readDir(DOCS)) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      files.push({
        name: `docs/${entry.name}`,
        text: await Deno.readTextFile(join(DOCS, entry.name)),
      });
    }
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

Deno.test("the extractor finds ts blocks and skips the others", () => {
  const samples = extractSamples(
    [
      "# t",
      "```ts",
      "const a = 1;",
      "```",
      "```sh",
      "deno task dev",
      "```",
      "````ts",
      "```ts",
      "````",
    ].join("\n"),
    "x.md",
  );
  assert.deepEqual(samples, [
    { where: "x.md:2", code: "const a = 1;" },
    { where: "x.md:8", code: "```ts" },
  ]);
});

Deno.test("every ts sample in the docs and the README type-checks", async () => {
  const samples = (await markdownFiles()).flatMap(({ name, text }) =>
    extractSamples(text, name)
  );
  assert.ok(samples.length >= 40, `only ${samples.length} samples found`);
  const dir = await Deno.makeTempDir({ prefix: "strata_docs_" });
  try {
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      JSON.stringify({ imports: strataImportMap(REPO_ROOT) }, null, 2),
    );
    const byFile = new Map<string, string>();
    // Samples sit one folder down in a folder of their page, so `../collections/Notes.ts`
    // reaches that page's collection sample of that path (`// collections/Notes.ts`).
    for (const [i, sample] of samples.entries()) {
      const page = sample.where.split(":")[0].replace(/[^A-Za-z0-9]+/g, "_");
      await Deno.mkdir(join(dir, page, "samples"), { recursive: true });
      await Deno.mkdir(join(dir, page, "collections"), { recursive: true });
      const file = `${page}/samples/${String(i).padStart(3, "0")}_${
        sample.where.replace(/[^A-Za-z0-9]+/g, "_")
      }.ts`;
      byFile.set(file, sample.where);
      await Deno.writeTextFile(join(dir, file), sample.code + "\n");
      const named = /^\/\/ (collections\/\w+\.ts)\b/.exec(sample.code)?.[1];
      if (named) {
        await Deno.writeTextFile(join(dir, page, named), sample.code + "\n");
      }
    }
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", ...byFile.keys()],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    let report = new TextDecoder().decode(stderr);
    for (const [file, where] of byFile) {
      report = report.replaceAll(`file://${dir}/${file}`, where)
        .replaceAll(file, where);
    }
    assert.equal(code, 0, `docs samples fail to type-check:\n${report}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every topic has a page, linked from the README", async () => {
  const readme = await Deno.readTextFile(join(REPO_ROOT, "README.md"));
  for (const topic of TOPICS) {
    const page = join(DOCS, `${topic}.md`);
    assert.ok((await Deno.stat(page)).isFile, `docs/${topic}.md`);
    assert.ok(
      readme.includes(`(docs/${topic}.md)`),
      `README.md links docs/${topic}.md`,
    );
  }
});

Deno.test("relative links in the docs point at files that exist", async () => {
  for (const { name, text } of await markdownFiles()) {
    const base = dirname(join(REPO_ROOT, name));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith("#")) continue;
      const path = join(base, target.split("#")[0]);
      try {
        await Deno.stat(path);
      } catch {
        assert.fail(`${name} links ${target}, which does not exist`);
      }
    }
    assert.ok(basename(name).endsWith(".md"));
  }
});

Deno.test("every json sample in the docs and the README parses", async () => {
  let parsed = 0;
  for (const { name, text } of await markdownFiles()) {
    for (const [, code] of text.matchAll(/^```json\n([\s\S]*?)^```$/gm)) {
      assert.doesNotThrow(() => JSON.parse(code), `${name}: ${code}`);
      parsed++;
    }
  }
  assert.ok(parsed >= 4, `only ${parsed} json samples found`);
});
