// `strata dev`: prints the URL, serves the app with watch, and stops with its parent.
import assert from "node:assert/strict";
import { CLI, REPO_ROOT } from "./_run.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function firstLine(
  reader: ReadableStreamDefaultReader<string>,
  pattern: RegExp,
): Promise<string> {
  let seen = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`Output ended before ${pattern}: ${seen}`);
    seen += value;
    const match = seen.split("\n").find((line) => pattern.test(line));
    if (match) return match;
  }
}

Deno.test("strata dev serves the app and prints its URL", async () => {
  const root = await Deno.makeTempDir({ prefix: "strata_dev_" });
  const port = freePort();
  await Deno.mkdir(`${root}/api`);
  await Deno.writeTextFile(
    `${root}/main.ts`,
    `import { createApp } from "${REPO_ROOT}/mod.ts";
export default await createApp({ root: import.meta.dirname!, database: ":memory:" });
`,
  );
  await Deno.writeTextFile(
    `${root}/api/index.get.ts`,
    `export default () => ({ dev: true });\n`,
  );
  await Deno.writeTextFile(
    `${root}/deno.json`,
    JSON.stringify({
      imports: { kysely: "npm:kysely@^0.28.2", pg: "npm:pg@^8.16.0" },
    }),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "dev", root, "--port", String(port)],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  // A safety net: never let a stuck server hold the test run.
  const deadline = setTimeout(() => child.kill("SIGTERM"), 60_000);
  try {
    const line = await firstLine(reader, /Strata dev server:/);
    assert.match(line, new RegExp(`http://localhost:${port}/`));
    let body: unknown;
    for (let attempt = 0; attempt < 100 && body === undefined; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        body = await response.json();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.deepEqual(body, { dev: true });
  } finally {
    clearTimeout(deadline);
    child.kill("SIGTERM");
    const stopped = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 15_000)),
    ]);
    if (!stopped) child.kill("SIGKILL");
    await child.status;
    await reader.cancel();
    // The server ran as the CLI's child: once the CLI is gone, so is the port.
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
      } catch {
        break;
      }
    }
    await Deno.remove(root, { recursive: true });
  }
});
