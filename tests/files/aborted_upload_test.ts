// A client that goes away midway through an upload is not a server error: over a real socket
// (Deno.serve on port 0, a raw TCP client that declares a large body, sends part of it and
// closes), no "Unhandled error … (answered 500)" is logged, nothing is left in storage and
// the server keeps serving.
import assert from "node:assert/strict";
import { filesTest, form, signedIn, storedFiles } from "./_helpers.ts";

const encoder = new TextEncoder();

/** Sends a request declaring `declared` body bytes, then `sent` of them, then closes. */
async function abortedRequest(
  port: number,
  path: string,
  headers: Record<string, string>,
  head: string,
  declared: number,
  sent: number,
): Promise<void> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const lines = [
    `POST ${path} HTTP/1.1`,
    "Host: localhost",
    `Content-Length: ${declared}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const write = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length;) {
      at += await conn.write(bytes.subarray(at));
    }
  };
  await write(encoder.encode(`${lines.join("\r\n")}\r\n\r\n${head}`));
  const chunk = new Uint8Array(64 * 1024);
  crypto.getRandomValues(chunk.subarray(0, 65536));
  for (let left = sent; left > 0; left -= chunk.length) {
    await write(chunk.subarray(0, Math.min(left, chunk.length)));
  }
  conn.close();
}

/** Waits (20 s at most) until `done` holds. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const BOUNDARY = "strataAbortBoundary";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

function filePartHead(field: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="big.bin"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
}

filesTest(
  "an upload the client aborts midway logs no server error, leaves nothing stored, and the server keeps serving",
  async ({ app, dir }) => {
    const cookie = await signedIn(app, "editor@example.com", ["editor"]);
    const logged: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
    };
    const answered: number[] = [];
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      async (request, info) => {
        const response = await app.fetch(request, info);
        answered.push(response.status);
        return response;
      },
    );
    const port = server.addr.port;
    try {
      const aborted: {
        path: string;
        headers: Record<string, string>;
        head: string;
      }[] = [
        // Upload first: POST /files, cut off inside the file part.
        {
          path: "/files?collection=Albums&field=scans",
          headers: {
            "Content-Type": MULTIPART,
            cookie,
            origin: "http://localhost",
          },
          head: filePartHead("file").replace(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}\r\n`,
            "",
          ),
        },
        // A multipart create of a record with a file field, cut off inside the file part.
        {
          path: "/collections/photos",
          headers: { "Content-Type": MULTIPART },
          head: filePartHead("attachment"),
        },
        // A JSON create cut off inside its body.
        {
          path: "/collections/photos",
          headers: { "Content-Type": "application/json" },
          head: '{"title":"',
        },
      ];
      for (const [i, { path, headers, head }] of aborted.entries()) {
        await abortedRequest(
          port,
          path,
          headers,
          head,
          head.startsWith("{") ? 64 * 1024 : 10 * 1024 * 1024,
          head.startsWith("{") ? 100 : 512 * 1024,
        );
        await until(() => answered.length === i + 1, `the answer to ${path}`);
      }
      assert.deepEqual(answered, [400, 400, 400]);
      assert.deepEqual(
        logged.filter((line) => line.includes("Unhandled error")),
        [],
      );
      assert.deepEqual(await storedFiles(dir).catch(() => []), []);
      // The server still serves: a whole upload over the same socket server succeeds.
      const response = await fetch(
        `http://127.0.0.1:${port}/collections/photos`,
        {
          method: "POST",
          body: form([
            { name: "data", json: { title: "after" } },
            { name: "attachment", file: "hello", filename: "a.txt" },
          ]),
        },
      );
      const body = await response.json();
      assert.equal(response.status, 201, JSON.stringify(body));
      assert.equal(body.attachment.size, 5);
    } finally {
      console.error = original;
      await server.shutdown();
    }
  },
);
