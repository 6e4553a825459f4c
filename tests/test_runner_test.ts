// `deno task test` (tests/_run.ts): its summary says why tests were ignored and how to run
// them, and the tests it runs leave no temp folder behind. Run on two files that make many
// temp folders, with TMPDIR pointed at a folder of this test's own.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

Deno.test("the test run explains the ignored PostgreSQL tests and leaves no temp folders", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "strata_test_run_" });
  try {
    const env = { ...Deno.env.toObject(), TMPDIR: tmp, NO_COLOR: "1" };
    delete (env as Record<string, string | undefined>).STRATA_TEST_POSTGRES;
    const { code, stdout } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "tests/_run.ts",
        "tests/examples/boot_errors_test.ts",
        "tests/cli/errors_test.ts",
      ],
      cwd: REPO_ROOT,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "null",
    }).output();
    const text = new TextDecoder().decode(stdout);
    assert.equal(code, 0, text);
    assert.match(
      text,
      /Ignored: the \[postgres\] variant of every data and API test, because PostgreSQL is not configured/,
    );
    assert.match(
      text,
      /STRATA_TEST_POSTGRES=postgres:\/\/\S+ deno task test/,
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(tmp)), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
