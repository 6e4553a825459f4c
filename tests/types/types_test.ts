// Type tests: the files of expected types beside this one are checked by `deno check`; each
// `@ts-expect-error` line in them must stay an error (an unused directive fails the check).
import assert from "node:assert/strict";

const here = new URL("./", import.meta.url).pathname;
const root = new URL("../../", import.meta.url).pathname;

async function denoCheck(
  ...paths: string[]
): Promise<{ ok: boolean; out: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", ...paths],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    ok: output.success,
    out: decode(output.stdout) + decode(output.stderr),
  };
}

const typeFiles = [...Deno.readDirSync(here)]
  .map((entry) => entry.name)
  .filter((name) => name.endsWith("_types.ts"))
  .sort();

for (const name of typeFiles) {
  Deno.test(`deno check accepts ${name} and each expected error stays one`, async () => {
    const result = await denoCheck(here + name);
    assert.ok(result.ok, result.out);
  });
}

Deno.test("the validated routes fixture type-checks", async () => {
  const result = await denoCheck("tests/fixtures/validated_app");
  assert.ok(result.ok, result.out);
});

Deno.test("an expected error that no longer errors fails the check", async () => {
  const dir = await Deno.makeTempDir({ dir: here });
  try {
    const file = `${dir}/stale_types.ts`;
    await Deno.writeTextFile(
      file,
      `// @ts-expect-error nothing wrong here\nexport const n: number = 1;\n`,
    );
    const result = await denoCheck(file);
    assert.equal(result.ok, false);
    assert.match(result.out, /Unused '@ts-expect-error' directive/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
