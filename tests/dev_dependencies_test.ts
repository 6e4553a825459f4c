// `deno task dev` installs what the example app loads and nothing else: the repository keeps
// no lockfile (with `nodeModulesDir: "auto"` Deno installs every npm package a lockfile
// names, the tests' included), and test-only packages are `npm:` specifiers of the tests,
// never entries of the import map.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const RUNTIME = ["kysely", "nodemailer", "pg", "sharp"];

Deno.test("the import map holds the runtime dependencies only and no lockfile is kept", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.deepEqual(Object.keys(config.imports).sort(), RUNTIME);
  assert.equal(config.lock, false);
  await assert.rejects(
    () => Deno.stat(`${ROOT}deno.lock`),
    Deno.errors.NotFound,
  );
});

Deno.test("the example app's module graph loads no npm package but kysely, pg and theirs", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "examples/blog/main.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    npmPackages?: Record<string, unknown>;
  };
  const names = Object.keys(graph.npmPackages ?? {}).map((id) =>
    id.replace(/@[^@]*$/, "")
  );
  for (
    const name of ["hono", "playwright-core", "zod", "valibot", "ajv", "s3rver"]
  ) {
    assert.ok(!names.includes(name), `${name} is in the dev graph`);
  }
  for (const name of RUNTIME) assert.ok(names.includes(name), name);
});
