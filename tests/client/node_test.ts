// @strata/strata/client bundled as one ES module and run by Node (`node`, as npx needs it)
// against the example app on a real socket: reads, sign-in with the token kept from the
// login cookie (Node has no cookie jar), writes and translations, and errors as StrataError.
import assert from "node:assert/strict";
import { createTestApp } from "../../testing/mod.ts";
import { DEMO_PASSWORD, seedBlog } from "../../examples/blog/seed.ts";
import { bundleClient } from "../dashboard/client_asset.ts";

// Plain JavaScript for Node: argv[2] is the bundle's path, argv[3] the app's URL.
const SCENARIO = `
const [bundle, baseUrl, password] = process.argv.slice(2);
const { createClient, StrataError } = await import(bundle);
const refusal = async (promise) => {
  try {
    await promise;
    return "not refused";
  } catch (error) {
    return [error instanceof StrataError, error.status, error.code ?? null,
      error.path ?? null, Object.keys(error.errors ?? {}).sort()];
  }
};
const client = createClient({ baseUrl });
const posts = client.collection("Posts");
const out = {};
out.count = (await posts.list()).length;
out.page = (await posts.list({ page: 1, perPage: 2 })).records.length;
const hello = (await posts.list({ where: { slug: "hello-strata" }, locale: "de" }))[0];
out.german = hello.title;
out.populated = typeof (await posts.get(hello.UUID, { populate: ["author"] })).author;
out.queried = (await posts.query({ where: { slug: "hello-strata" } })).length;
out.malformed = await refusal(posts.list({ where: { nope: 1 } }));
out.signedOut = await refusal(client.auth.me());
out.email = (await client.auth.login({ email: "admin@example.com", password })).email;
out.token = typeof client.token;
out.me = (await client.auth.me()).email;
const author = (await client.collection("Authors").list({ limit: 1 }))[0].UUID;
const created = await posts.create({ title: "From Node", slug: "from-node", author });
out.updated = (await posts.update(created.UUID, { title: "Aus Node" }, { locale: "de" })).title;
out.locales = (await posts.translations(created.UUID)).locales;
await posts.deleteTranslation(created.UUID, "de");
out.copied = (await posts.copyTranslation(created.UUID, { locale: "de", source: "en" })).title;
out.invalid = await refusal(posts.create({ title: "", slug: "x", author }));
out.deleted = await posts.delete(created.UUID) ?? null;
out.gone = await refusal(posts.get(created.UUID));
await client.auth.logout();
out.afterLogout = [client.token ?? null, await refusal(client.auth.me())];
console.log(JSON.stringify(out));
`;

Deno.test("the bundled client works in Node, keeping the session token itself", async () => {
  const dir = await Deno.makeTempDir();
  const app = await createTestApp({
    root: new URL("../../examples/blog/", import.meta.url).pathname,
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    app.fetch,
  );
  try {
    await seedBlog(app);
    await Deno.writeTextFile(`${dir}/client.mjs`, await bundleClient());
    await Deno.writeTextFile(`${dir}/scenario.mjs`, SCENARIO);
    const output = await new Deno.Command("node", {
      args: [
        `${dir}/scenario.mjs`,
        `file://${dir}/client.mjs`,
        `http://127.0.0.1:${server.addr.port}`,
        DEMO_PASSWORD,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.ok(output.success, stderr);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), {
      count: 3,
      page: 2,
      german: "Hallo Strata",
      populated: "object",
      queried: 1,
      malformed: [true, 400, "invalidField", "where.nope", []],
      signedOut: [true, 401, null, null, []],
      email: "admin@example.com",
      token: "string",
      me: "admin@example.com",
      updated: "Aus Node",
      locales: ["en", "de"],
      copied: "From Node",
      invalid: [true, 422, null, null, ["title"]],
      deleted: null,
      gone: [true, 404, null, null, []],
      afterLogout: [null, [true, 401, null, null, []]],
    });
  } finally {
    await server.shutdown();
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
