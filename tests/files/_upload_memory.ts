// Run by socket_test.ts as a child process with --v8-flags=--expose-gc: serves the files
// fixture on a socket, uploads a file of the size given in argv[0] with curl (another
// process), and prints how much the server process's memory grew while the upload ran. The
// sampler collects garbage before each sample, so what grows is memory the upload holds:
// a streamed upload holds a few buffers, a buffered one the whole file.
import { createApp } from "../../mod.ts";
import { fixturePath } from "../_helpers/fixture_app.ts";
import { filesConfig } from "./_helpers.ts";

const MB = 1024 * 1024;
const size = Number(Deno.args[0]);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("Run with --v8-flags=--expose-gc");
const dir = await Deno.makeTempDir({ prefix: "strata_files_mem_" });
const app = await createApp({
  root: fixturePath("files_app"),
  // A loaded machine may take longer than the default 30 s handler timeout.
  config: { ...filesConfig(`${dir}/storage`), api: { handlerTimeout: false } },
  database: ":memory:",
});
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  app.fetch,
);
async function writeFile(path: string, bytes: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(MB);
  for (let written = 0; written < bytes; written += chunk.length) {
    crypto.getRandomValues(chunk.subarray(0, 65536));
    await file.write(
      chunk.subarray(0, Math.min(chunk.length, bytes - written)),
    );
  }
  file.close();
}
async function upload(path: string): Promise<string> {
  const { stdout } = await new Deno.Command("curl", {
    args: [
      "-sS",
      "-F",
      'data={"title":"Big"};type=application/json',
      "-F",
      `attachment=@${path};type=application/octet-stream`,
      `http://127.0.0.1:${server.addr.port}/collections/photos`,
    ],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(stdout);
}
try {
  await writeFile(`${dir}/warm.bin`, 5 * MB);
  await writeFile(`${dir}/big.bin`, size);
  await upload(`${dir}/warm.bin`);
  gc();
  const baseline = Deno.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    gc();
    peak = Math.max(peak, Deno.memoryUsage().rss);
  }, 25);
  const answer = await upload(`${dir}/big.bin`);
  clearInterval(sampler);
  console.log(
    JSON.stringify({ growth: peak - baseline, answer: JSON.parse(answer) }),
  );
} finally {
  await server.shutdown();
  await app.close();
  await Deno.remove(dir, { recursive: true });
}
