// One server of the files benchmark: `deno run -A server.ts <strata|peer> <port> <dir>`.
// Both serve the same 10 MB file and take uploads; prints "ready" once it listens.
// - strata: an app whose `Blobs` collection has a public `file` field (fs storage in <dir>);
//   the file is uploaded through the API at start and served at its descriptor's URL (the
//   first record of `GET /collections/blobs`); uploads are multipart record creates.
// - peer: hand-written on `Deno.serve`: GET streams the file from disk, POST streams the
//   request body to a temporary file, hashing it, then fsyncs and renames it and fsyncs the
//   folder (what a careful endpoint does, and Strata's fs driver). It does less than Strata:
//   it parses no multipart (it stores the whole body, envelope included), sniffs nothing and
//   writes no row. It reads the body the idiomatic way (`for await`: a fresh 64 KiB chunk per
//   read), where Strata reads into buffers it reuses.
import { createHash } from "node:crypto";
import { createApp, defineCollection, defineLayer, field } from "../../mod.ts";
import { exitOnTerm } from "../_load.ts";
import { FILE_SIZE, fileBytes } from "./_shape.ts";

const [kind, portText, dir] = Deno.args;
const port = Number(portText);

async function strata(): Promise<(request: Request) => Promise<Response>> {
  const layer = defineLayer({
    name: "bench",
    collections: {
      Blobs: defineCollection({
        fields: {
          title: field("text"),
          body: field("file", { maxSize: "20mb", nullable: true }),
        },
        api: { read: "public", create: "public" },
      }),
    },
  });
  const app = await createApp({
    root: dir,
    database: `${dir}/app.db`,
    layers: [layer],
    config: {
      uploads: { storage: { driver: "fs", dir: `${dir}/storage` } },
    },
  });
  const form = new FormData();
  form.set("data", JSON.stringify({ title: "ten" }));
  form.set("body", new Blob([fileBytes() as BlobPart]), "ten.bin");
  const created = await app.fetch(
    new Request("http://localhost/collections/blobs", {
      method: "POST",
      body: form,
    }),
  );
  const record = await created.json();
  if (created.status !== 201) throw new Error(JSON.stringify(record));
  return app.fetch;
}

async function peer(): Promise<(request: Request) => Promise<Response>> {
  const path = `${dir}/peer.bin`;
  await Deno.writeFile(path, fileBytes());
  let uploads = 0;
  return async (request) => {
    if (request.method === "GET") {
      const file = await Deno.open(path, { read: true });
      return new Response(file.readable, {
        headers: {
          "content-type": "application/octet-stream",
          "content-length": String(FILE_SIZE),
        },
      });
    }
    const name = `${dir}/upload-${++uploads}`;
    const temp = `${name}.tmp`;
    const file = await Deno.open(temp, { write: true, create: true });
    const hash = createHash("sha256");
    let size = 0;
    try {
      for await (const chunk of request.body!) {
        hash.update(chunk);
        size += chunk.byteLength;
        let at = 0;
        while (at < chunk.byteLength) {
          at += await file.write(chunk.subarray(at));
        }
      }
      await file.syncData();
    } catch {
      // wrk stops mid-upload at the end of a round: the aborted body is dropped quietly (as
      // Strata does) instead of printing the read error's stack.
      file.close();
      await Deno.remove(temp).catch(() => {});
      return new Response(null, { status: 400 });
    }
    file.close();
    await Deno.rename(temp, name);
    // The rename is durable once the folder is synced (as Strata's fs driver does).
    const folder = await Deno.open(dir, { read: true });
    await folder.sync();
    folder.close();
    return Response.json({ size, sha256: hash.digest("hex") }, { status: 201 });
  };
}

exitOnTerm();
const handler = kind === "strata" ? await strata() : await peer();
Deno.serve({
  port,
  hostname: "127.0.0.1",
  onListen: () => console.log("ready"),
}, handler);
