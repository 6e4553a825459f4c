// `strata new` end to end: scaffold into a temp folder, then run that app's own
// `deno task test`, type-check its main.ts and print its route table.
import assert from "node:assert/strict";
import { deno, REPO_ROOT, REPO_URL, strata } from "./_run.ts";

Deno.test("strata new scaffolds an app whose own deno task test passes", async () => {
  const parent = await Deno.makeTempDir({ prefix: "strata_new_" });
  try {
    const created = await strata(
      ["new", "my-app", "--strata", REPO_ROOT],
      parent,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /Created my-app/);
    const root = `${parent}/my-app`;

    const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
    assert.deepEqual(Object.keys(config.tasks).sort(), [
      "check",
      "dev",
      "start",
      "test",
      "types",
    ]);
    assert.equal(
      config.imports["@strata/strata"],
      new URL("mod.ts", REPO_URL).href,
    );
    assert.equal(
      config.imports["@strata/strata/testing"],
      new URL("testing/mod.ts", REPO_URL).href,
    );
    assert.equal(config.imports["@strata/strata/"], REPO_URL.href);
    assert.match(
      await Deno.readTextFile(`${root}/strata.config.ts`),
      /layers: \[authLayer\(\)\]/,
    );

    const tested = await deno(["task", "test"], root);
    assert.equal(tested.code, 0, tested.stdout + tested.stderr);
    assert.match(tested.stdout, /ok \| 2 passed \| 0 failed/);

    const checked = await deno(["check", "main.ts"], root);
    assert.equal(checked.code, 0, checked.stderr);
    const checkedAll = await deno(["task", "check"], root);
    assert.equal(checkedAll.code, 0, checkedAll.stderr);
    // The registry is in place: the app's own types check says so.
    const types = await deno(["task", "types", "--check"], root);
    assert.equal(types.code, 0, types.stdout + types.stderr);
    assert.match(types.stdout, /strata\.gen\.ts is up to date/);

    const routes = await strata(["routes"], root);
    assert.equal(routes.code, 0, routes.stderr);
    const lines = routes.stdout.trim().split("\n");
    assert.match(lines[0], /^METHOD\s+PATTERN\s+LAYER\s+FILE$/);
    assert.ok(
      lines.some((line) => /^GET\s+\/\s+app\s+api\/index\.get\.ts$/.test(line)),
      routes.stdout,
    );
    assert.ok(
      lines.some((line) => /^POST\s+\/auth\/login\s+auth\s/.test(line)),
      routes.stdout,
    );
    // `routes` boots on an in-memory database: the app's own database is never created.
    await assert.rejects(Deno.stat(`${root}/.data`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("strata new defaults to the JSR package and accepts a URL", async () => {
  const parent = await Deno.makeTempDir({ prefix: "strata_new_" });
  try {
    const jsr = await strata(["new", "from-jsr"], parent);
    assert.equal(jsr.code, 0, jsr.stderr);
    const jsrConfig = JSON.parse(
      await Deno.readTextFile(`${parent}/from-jsr/deno.json`),
    );
    assert.deepEqual(jsrConfig.imports, {
      "@strata/strata": "jsr:@strata/strata@^0",
      "@strata/strata/": "jsr:/@strata/strata@^0/",
    });

    const url = await strata(
      ["new", "from-url", "--strata=https://example.com/strata/mod.ts"],
      parent,
    );
    assert.equal(url.code, 0, url.stderr);
    const urlConfig = JSON.parse(
      await Deno.readTextFile(`${parent}/from-url/deno.json`),
    );
    assert.equal(
      urlConfig.imports["@strata/strata/auth"],
      "https://example.com/strata/auth/mod.ts",
    );
    assert.equal(urlConfig.imports.kysely, "npm:kysely@^0.28.2");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
