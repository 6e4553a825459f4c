// The import map `strata new` writes, and its agreement with the repository's deno.json.
import assert from "node:assert/strict";
import {
  STRATA_EXPORTS,
  STRATA_NPM_IMPORTS,
  strataImportMap,
} from "../../cli/mod.ts";
import { REPO_URL } from "./_run.ts";

const denoJson = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", REPO_URL)),
);

Deno.test("the CLI knows every export of the package", () => {
  assert.deepEqual(
    Object.fromEntries(
      Object.entries(denoJson.exports as Record<string, string>).map((
        [k, v],
      ) => [k, v.replace(/^\.\//, "")]),
    ),
    { ...STRATA_EXPORTS },
  );
});

Deno.test("npm versions match the repository's import map", () => {
  for (const [name, specifier] of Object.entries(STRATA_NPM_IMPORTS)) {
    assert.equal(specifier, denoJson.imports[name], name);
  }
});

Deno.test("a JSR source maps the package and its prefix only", () => {
  assert.deepEqual(strataImportMap(), {
    "@strata/strata": "jsr:@strata/strata@^0",
    "@strata/strata/": "jsr:/@strata/strata@^0/",
  });
  assert.deepEqual(strataImportMap("jsr:@strata/strata@0.1.0"), {
    "@strata/strata": "jsr:@strata/strata@0.1.0",
    "@strata/strata/": "jsr:/@strata/strata@0.1.0/",
  });
  assert.throws(
    () => strataImportMap("jsr:@other/pkg"),
    /Invalid Strata source/,
  );
});

Deno.test("a path or URL maps every export, the prefix, kysely and pg", () => {
  const fromPath = strataImportMap("../strata", "/home/me/apps");
  assert.equal(fromPath["@strata/strata"], "file:///home/me/strata/mod.ts");
  assert.equal(
    fromPath["@strata/strata/utils/crypto"],
    "file:///home/me/strata/utils/crypto.ts",
  );
  assert.equal(fromPath["@strata/strata/"], "file:///home/me/strata/");
  assert.equal(fromPath.pg, "npm:pg@^8.16.0");

  const fromModTs = strataImportMap("http://127.0.0.1:4507/mod.ts");
  assert.equal(
    fromModTs["@strata/strata/auth"],
    "http://127.0.0.1:4507/auth/mod.ts",
  );
  const fromRoot = strataImportMap("https://cdn.example/strata");
  assert.equal(fromRoot["@strata/strata/"], "https://cdn.example/strata/");
  assert.equal(
    fromRoot["@strata/strata/cli"],
    "https://cdn.example/strata/cli/mod.ts",
  );
  assert.throws(() => strataImportMap(""), /empty/);
  assert.throws(() => strataImportMap("http://[bad"), /not a valid URL/);
});
