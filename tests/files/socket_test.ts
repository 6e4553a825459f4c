// Files over a real socket (Deno.serve on port 0): a 50 MB upload streams (the server's
// memory grows far less than the file), and two instances on one PostgreSQL with the `s3`
// driver serve each other's files.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { kyselyOf } from "../../collections/database.ts";
import { type App, createApp } from "../../mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { filesConfig, PG_URL, png, sha256 } from "./_helpers.ts";
import { startS3 } from "./_s3.ts";

const MB = 1024 * 1024;

/** Runs curl (a separate process, so the test process holds only the server). */
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { code, stdout, stderr } = await new Deno.Command("curl", {
    args: ["-sS", "-o", "-", "-w", "\n%{http_code}", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const text = new TextDecoder().decode(stdout);
  const split = text.lastIndexOf("\n");
  return { status: Number(text.slice(split + 1)), body: text.slice(0, split) };
}

async function writeRandomFile(path: string, size: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(MB);
  for (let written = 0; written < size; written += chunk.length) {
    crypto.getRandomValues(chunk.subarray(0, 65536));
    await file.write(chunk.subarray(0, Math.min(chunk.length, size - written)));
  }
  file.close();
}

Deno.test("a 50 MB upload over a socket streams to storage: the server holds under 20 MB while it runs", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc",
      new URL("./_upload_memory.ts", import.meta.url).pathname,
      String(50 * MB),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const { growth, answer } = JSON.parse(out.trim().split("\n").at(-1)!);
  assert.equal(answer.attachment?.size, 50 * MB, JSON.stringify(answer));
  assert.ok(
    growth < 20 * MB,
    `the server's memory grew by ${
      (growth / MB).toFixed(1)
    } MB during a 50 MB upload`,
  );
});

Deno.test({
  name: "a file uploaded over a socket downloads whole, and in ranges",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "strata_files_sock_" });
    const app = await createApp({
      root: fixturePath("files_app"),
      config: filesConfig(`${dir}/storage`),
      database: ":memory:",
    });
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      app.fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    try {
      const big = `${dir}/big.bin`;
      await writeRandomFile(big, 3 * MB + 17);
      const answer = await curl([
        "-F",
        'data={"title":"Big"};type=application/json',
        "-F",
        `attachment=@${big};type=application/octet-stream`,
        `${base}/collections/photos`,
      ]);
      assert.equal(answer.status, 201, answer.body);
      const record = JSON.parse(answer.body);
      const bytes = await Deno.readFile(big);
      assert.equal(record.attachment.sha256, await sha256(bytes));
      const download = await fetch(`${base}${record.attachment.url}`);
      assert.equal(download.status, 200);
      assert.equal(
        download.headers.get("content-length"),
        String(bytes.length),
      );
      const got = new Uint8Array(await download.arrayBuffer());
      assert.equal(await sha256(got), record.attachment.sha256);
      const range = await fetch(`${base}${record.attachment.url}`, {
        headers: { range: `bytes=${MB}-${2 * MB}` },
      });
      assert.equal(range.status, 206);
      assert.deepEqual(
        new Uint8Array(await range.arrayBuffer()),
        bytes.subarray(MB, 2 * MB + 1),
      );
    } finally {
      await server.shutdown();
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "two instances on one PostgreSQL with the s3 driver serve each other's files [postgres]",
  ignore: !PG_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const s3 = await startS3();
    const schema = `strata_files_two_${crypto.randomUUID().slice(0, 8)}`;
    const boot = () =>
      createApp({
        root: fixturePath("files_app"),
        config: filesConfig("unused", { storage: s3.storage }),
        database: PG_URL!,
        databaseSchema: schema,
      });
    const apps: App[] = [];
    const servers: Deno.HttpServer<Deno.NetAddr>[] = [];
    try {
      apps.push(await boot(), await boot());
      for (const app of apps) {
        servers.push(
          Deno.serve(
            { hostname: "127.0.0.1", port: 0, onListen() {} },
            app.fetch,
          ),
        );
      }
      const [a, b] = servers.map((s) => `http://127.0.0.1:${s.addr.port}`);
      const image = await png(300, 200);
      const form = new FormData();
      form.set("data", JSON.stringify({ title: "Shared" }));
      form.set("image", new Blob([image as BlobPart]), "shared.png");
      form.set("secret", new Blob(["classified"]), "secret.txt");
      const created = await fetch(`${a}/collections/photos`, {
        method: "POST",
        body: form,
      });
      const record = await created.json();
      assert.equal(created.status, 201, JSON.stringify(record));
      // B serves A's public file, a variant of it, and A's signed private link.
      const served = await fetch(`${b}${record.image.url}`);
      assert.equal(served.status, 200);
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), image);
      const variant = await fetch(`${b}${record.image.url}?w=64&format=webp`);
      assert.equal(variant.status, 200);
      assert.equal(variant.headers.get("content-type"), "image/webp");
      await variant.body?.cancel();
      const secret = await fetch(`${b}${record.secret.url}`);
      assert.equal(secret.status, 200);
      assert.equal(await secret.text(), "classified");
      // A record B reads hands out links A honours.
      const read = await (await fetch(`${b}/collections/photos/${record.UUID}`))
        .json();
      const again = await fetch(`${a}${read.secret.url}`);
      assert.equal(again.status, 200);
      await again.body?.cancel();
      // B replaces the image; both sweepers run; the old file is gone everywhere, once.
      const patch = new FormData();
      patch.set("data", JSON.stringify({}));
      patch.set("image", new Blob([await png(10, 10) as BlobPart]), "new.png");
      const updated = await fetch(`${b}/collections/photos/${record.UUID}`, {
        method: "PATCH",
        body: patch,
      });
      const next = await updated.json();
      assert.equal(updated.status, 200, JSON.stringify(next));
      const swept = await Promise.all(apps.map((app) => app.files!.sweep()));
      assert.equal(swept[0] + swept[1], 1);
      for (const base of [a, b]) {
        const old = await fetch(`${base}${record.image.url}`);
        assert.equal(old.status, 404);
        await old.body?.cancel();
        const fresh = await fetch(`${base}${next.image.url}`);
        assert.equal(fresh.status, 200);
        await fresh.body?.cancel();
      }
    } finally {
      for (const server of servers) await server.shutdown();
      if (apps[0]) {
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(
          kyselyOf(apps[0].db),
        );
      }
      for (const app of apps) await app.close();
      await s3.close();
    }
  },
});
