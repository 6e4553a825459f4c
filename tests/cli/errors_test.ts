// CLI mistakes: one clear line, exit code 1, nothing written.
import assert from "node:assert/strict";
import { runCli } from "../../cli/mod.ts";
import { strata } from "./_run.ts";

function capture(): {
  out: { log(text: string): void; error(text: string): void };
  logs: string[];
  errors: string[];
} {
  const logs: string[] = [];
  const errors: string[] = [];
  return {
    out: { log: (t) => logs.push(t), error: (t) => errors.push(t) },
    logs,
    errors,
  };
}

Deno.test("the process exits with 1 and a message for each mistake", async () => {
  const parent = await Deno.makeTempDir({ prefix: "strata_cli_" });
  try {
    await Deno.mkdir(`${parent}/taken`);
    await Deno.writeTextFile(`${parent}/taken/notes.txt`, "mine");
    const cases: [string[], RegExp][] = [
      [["new", "taken"], /taken already exists and is not empty/],
      [["new", "Bad Name"], /Invalid app name "Bad Name"/],
      [["new"], /Missing folder: strata new <dir>/],
      [["frobnicate"], /Unknown command "frobnicate"/],
      [["new", "ok-app", "--colour", "red"], /Unknown option "--colour"/],
      [["dev", "nowhere"], /No main\.ts in .*nowhere/],
      [["routes", "nowhere"], /No app folder at .*nowhere/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await strata(args, parent);
      assert.equal(code, 1, `strata ${args.join(" ")}: ${stdout}${stderr}`);
      assert.match(stderr, message);
      assert.doesNotMatch(stderr, /\n\s+at /, "no stack trace");
    }
    assert.equal(
      await Deno.readTextFile(`${parent}/taken/notes.txt`),
      "mine",
      "an existing folder is left alone",
    );
    const left = (await Array.fromAsync(Deno.readDir(parent))).map((e) =>
      e.name
    );
    assert.deepEqual(left, ["taken"], "no mistake wrote a folder");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("runCli: an empty existing folder is fine, a file is not", async () => {
  const parent = await Deno.makeTempDir({ prefix: "strata_cli_" });
  try {
    await Deno.mkdir(`${parent}/empty`);
    await Deno.writeTextFile(`${parent}/a-file`, "");
    const ok = capture();
    const created = await runCli(["new", `${parent}/empty`], ok.out);
    assert.equal(created.code, 0, ok.errors.join("\n"));
    assert.match(ok.logs.join("\n"), /deno task dev/);
    assert.ok((await Deno.stat(`${parent}/empty/main.ts`)).isFile);

    const bad = capture();
    const refused = await runCli(["new", `${parent}/a-file`], bad.out);
    assert.equal(refused.code, 1);
    assert.match(bad.errors.join("\n"), /a-file exists and is not a folder/);

    const again = capture();
    assert.equal((await runCli(["new", `${parent}/empty`], again.out)).code, 1);
    assert.match(again.errors[0], /already exists and is not empty/);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("runCli: help and usage", async () => {
  const help = capture();
  assert.equal((await runCli(["help"], help.out)).code, 0);
  assert.match(help.logs[0], /^Usage: strata <command>/);
  assert.equal((await runCli([], capture().out)).code, 0);
  const unknown = capture();
  assert.equal((await runCli(["serve"], unknown.out)).code, 1);
  assert.match(unknown.errors[0], /Unknown command "serve"[\s\S]*Usage:/);
  const port = capture();
  assert.equal(
    (await runCli(["dev", ".", "--port", "eighty"], port.out)).code,
    1,
  );
  assert.match(port.errors[0], /Invalid port "eighty"/);
});

Deno.test("runCli routes: a boot error is printed with the file it names", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_cli_" });
  try {
    await Deno.mkdir(`${root}/api`);
    await Deno.writeTextFile(
      `${root}/api/broken.get.ts`,
      "export const x = 1;\n",
    );
    const out = capture();
    assert.equal((await runCli(["routes", root], out.out)).code, 1);
    assert.match(out.errors[0], /api\/broken\.get\.ts/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
