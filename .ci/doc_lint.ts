// `deno doc --lint` over every entry point, minus one known false positive: Deno flags a public
// type that references a type of an npm package (Kysely) as "private" when node_modules is local
// (denoland/deno#27364; the fix skips only non-file: modules, and nodeModulesDir "auto" makes npm
// types file: modules). Every other diagnostic fails the step.
// The package's entry points, as deno.json exports them.
const config = JSON.parse(await Deno.readTextFile("deno.json")) as {
  exports: Record<string, string>;
};
const entries = Object.values(config.exports);
const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  env: { NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stderr) +
  new TextDecoder().decode(stdout);
const blocks = text.split(/\n(?=error(?:\[|:))/).map((b) => b.trim()).filter((
  b,
) => b.startsWith("error["));
const real = blocks.filter((block) =>
  !/references private type '(Kysely|Transaction|Selectable|Generated)'/.test(
    block,
  )
);
for (const block of real) console.error(block + "\n");
console.log(
  `doc lint: ${real.length} problem(s), ${
    blocks.length - real.length
  } npm type reference(s) ignored`,
);
Deno.exit(real.length === 0 ? 0 : 1);
