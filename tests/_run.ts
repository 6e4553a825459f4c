// `deno task test`: the whole suite in parallel, then a word on what was ignored and why.
// Extra arguments go to `deno test` (a file, `--filter`, …).
const pgConfigured = Boolean(Deno.env.get("STRATA_TEST_POSTGRES"));
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "-A", "--parallel", ...Deno.args],
  stdin: "inherit",
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (!pgConfigured) {
  console.log(
    "\nIgnored: the [postgres] variant of every data and API test, because PostgreSQL is not configured.\n" +
      "To run them, point STRATA_TEST_POSTGRES at a test database (each test uses a schema of its own):\n" +
      "  STRATA_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/test deno task test",
  );
}
if (!await hasChromium()) {
  console.log(
    "Ignored: the dashboard's browser tests, because /usr/bin/chromium is missing (apt install chromium).",
  );
}
Deno.exit(code);

async function hasChromium(): Promise<boolean> {
  try {
    return (await Deno.stat("/usr/bin/chromium")).isFile;
  } catch {
    return false;
  }
}
