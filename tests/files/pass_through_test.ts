// The metering stream an upload passes through on its way to storage: hooks see every byte,
// a hook that throws stops the stream and cancels the source, for byte streams (read into
// the consumer's buffer) and other streams alike.
import assert from "node:assert/strict";
import { passThrough } from "../../files/_pass_through.ts";
import { byteStreamOf } from "./_byte_stream.ts";

const bytes = new Uint8Array(200_000).map((_, i) => i % 251);

function sources(
  cancelled: unknown[],
): Record<string, () => ReadableStream<Uint8Array>> {
  return {
    bytes: () =>
      byteStreamOf(bytes, {
        chunk: 30_000,
        onCancel: (reason) => void cancelled.push(reason),
      }),
    chunks: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + 30_000));
          at += 30_000;
        },
        cancel: (reason) => void cancelled.push(reason),
      });
    },
  };
}

Deno.test("hooks see every byte once, then the end, whichever reader reads", async () => {
  for (const [kind, make] of Object.entries(sources([]))) {
    for (const mode of ["default", "byob"] as const) {
      let seen = 0;
      let ended = 0;
      const stream = passThrough(make(), {
        chunk: (chunk) => seen += chunk.byteLength,
        end: () => ended++,
      });
      const got: Uint8Array[] = [];
      if (mode === "byob" && kind === "bytes") {
        const reader = stream.getReader({ mode: "byob" });
        let buffer = new Uint8Array(64 * 1024);
        while (true) {
          const { done, value } = await reader.read(buffer);
          if (done) break;
          got.push(value.slice());
          buffer = new Uint8Array(value.buffer);
        }
      } else {
        for await (const chunk of stream) got.push(chunk);
      }
      const all = new Uint8Array(
        await new Blob(got as BlobPart[]).arrayBuffer(),
      );
      assert.deepEqual(all, bytes, `${kind} ${mode}`);
      assert.equal(seen, bytes.length, `${kind} ${mode}`);
      assert.equal(ended, 1, `${kind} ${mode}`);
    }
  }
});

Deno.test("a hook that throws errors the stream and cancels the source", async () => {
  for (const kind of ["bytes", "chunks"]) {
    const cancelled: unknown[] = [];
    const refusal = new Error("too large");
    let seen = 0;
    const stream = passThrough(sources(cancelled)[kind](), {
      chunk(chunk) {
        seen += chunk.byteLength;
        if (seen > 50_000) throw refusal;
      },
      end: () => {},
    });
    await assert.rejects(
      new Response(stream).arrayBuffer(),
      (error) => error === refusal,
    );
    assert.deepEqual(cancelled, [refusal], kind);
  }
  // A throwing end hook errors the stream too.
  const stream = passThrough(sources([]).bytes(), {
    chunk: () => {},
    end: () => {
      throw new Error("not a type it accepts");
    },
  });
  await assert.rejects(
    new Response(stream).arrayBuffer(),
    /not a type it accepts/,
  );
});
