// `deno doc --lint` over every entry point (as deno.json exports them); any diagnostic fails
// the step. The public API keeps npm packages' types out of its signatures (`app.db` is typed
// as Strata's own `Database`), so nothing needs filtering.
const config = JSON.parse(await Deno.readTextFile("deno.json")) as {
  exports: Record<string, string>;
};
const entries = Object.values(config.exports);
const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...entries],
  env: { NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(stderr) +
  new TextDecoder().decode(stdout);
const problems = text.split(/\n(?=error(?:\[|:))/).map((b) => b.trim())
  .filter((b) => b.startsWith("error["));
for (const block of problems) console.error(block + "\n");
console.log(`doc lint: ${problems.length} problem(s)`);
Deno.exit(code === 0 && problems.length === 0 ? 0 : 1);
