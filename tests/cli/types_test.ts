// `strata types`: writes strata.gen.ts, `--check` fails while it is stale, `deno task dev`
// (STRATA_WRITE_TYPES=1) rewrites it when collections change, and with the registry in place
// the app's `deno check` refuses an unknown collection.
import assert from "node:assert/strict";
import { createApp } from "../../mod.ts";
import { deno, REPO_ROOT, strata } from "./_run.ts";

async function scaffold(): Promise<{ parent: string; root: string }> {
  const parent = await Deno.makeTempDir({ prefix: "strata_types_" });
  const created = await strata(
    ["new", "my-app", "--strata", REPO_ROOT],
    parent,
  );
  assert.equal(created.code, 0, created.stderr);
  return { parent, root: `${parent}/my-app` };
}

const TAGS = `import { defineCollection, field } from "@strata/strata";
export default defineCollection({ fields: { label: field("text") } });
`;

Deno.test("strata types writes the registry; --check exits 1 while it is stale", async () => {
  const { parent, root } = await scaffold();
  try {
    const fresh = await strata(["types", "--check"], root);
    assert.equal(fresh.code, 0, fresh.stderr);
    await Deno.writeTextFile(`${root}/collections/Tags.ts`, TAGS);
    const stale = await strata(["types", "--check"], root);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /strata\.gen\.ts is stale: run `strata types`/);
    const written = await strata(["types"], root);
    assert.equal(written.code, 0, written.stderr);
    assert.match(written.stdout, /Wrote .*strata\.gen\.ts/);
    const text = await Deno.readTextFile(`${root}/strata.gen.ts`);
    assert.match(
      text,
      /Tags: typeof import\("\.\/collections\/Tags\.ts"\)\.default;/,
    );
    assert.match(
      text,
      /Users: typeof import\("@strata\/strata\/auth"\)\.usersDefinition;/,
    );
    assert.equal((await strata(["types", "--check"], root)).code, 0);
    await Deno.remove(`${root}/strata.gen.ts`);
    const missing = await strata(["types", "--check"], root);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /is missing/);
    const notAnApp = await strata(["types", "--check"], parent);
    assert.equal(notAnApp.code, 1);
    assert.match(notAnApp.stderr, /No strata\.config\.ts/);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test('with the registry, the app\'s deno check types query("Name") and refuses unknown names', async () => {
  const { parent, root } = await scaffold();
  try {
    await Deno.writeTextFile(
      `${root}/api/typed.get.ts`,
      `import { defineHandler, query } from "@strata/strata";
export default defineHandler(async () => {
  const notes = await query("Notes").where({ done: false }).select("title").findMany();
  const title: string | undefined = notes[0]?.title;
  const users = await query("Users").where({ roles: { includes: "admin" } }).findMany();
  const email: string | undefined = users[0]?.email;
  // @ts-expect-error an unknown collection with a registry
  query("Nope");
  // @ts-expect-error a wrong value type
  query("Notes").where({ done: "no" });
  // @ts-expect-error the write-only password is never read
  users[0]?.password;
  return { title, email };
});
`,
    );
    const checked = await deno(["check", "main.ts", "api/typed.get.ts"], root);
    assert.equal(checked.code, 0, checked.stderr);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("deno task dev's STRATA_WRITE_TYPES=1 rewrites the registry when collections change", async () => {
  const { parent, root } = await scaffold();
  try {
    await Deno.writeTextFile(`${root}/collections/Tags.ts`, TAGS);
    // The app imports "@strata/strata" through its own import map, so boot it in a child
    // process the way `deno task dev` does, with the variable set.
    const booted = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `const { createApp } = await import("@strata/strata");
const app = await createApp({ root: Deno.cwd(), database: ":memory:" });
await app.close();`,
      ],
      cwd: root,
      env: { STRATA_WRITE_TYPES: "1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(booted.success, new TextDecoder().decode(booted.stderr));
    assert.match(
      await Deno.readTextFile(`${root}/strata.gen.ts`),
      /Tags: typeof import/,
    );
    assert.equal((await strata(["types", "--check"], root)).code, 0);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("without the variable, booting an app never writes the registry", async () => {
  const dir = await Deno.makeTempDir({ prefix: "strata_types_" });
  try {
    await Deno.writeTextFile(`${dir}/strata.config.ts`, "export default {};\n");
    const app = await createApp({ root: dir, database: ":memory:" });
    await app.close();
    await assert.rejects(
      Deno.stat(`${dir}/strata.gen.ts`),
      Deno.errors.NotFound,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the example app's registry is up to date", async () => {
  const result = await strata(["types", "--check", "examples/blog"], REPO_ROOT);
  assert.equal(result.code, 0, result.stderr);
});
