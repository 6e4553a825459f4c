// `strata dev`: prints the URL, serves the app with watch, and stops with its parent.
import assert from "node:assert/strict";
import { CLI, REPO_ROOT } from "./_run.ts";
import { appFiles } from "../../cli/_templates.ts";

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
      imports: {
        kysely: "npm:kysely@^0.28.2",
        nodemailer: "npm:nodemailer@^7.0.9",
        pg: "npm:pg@^8.16.0",
        sharp: "npm:sharp@^0.35.5",
      },
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
    assert.match(line, new RegExp(`http://127.0.0.1:${port}/`));
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

/** Writes a minimal app into a temp folder; `files` adds or replaces files. */
async function devApp(files: Record<string, string> = {}): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "strata_dev_" });
  const all: Record<string, string> = {
    "main.ts": `import { createApp } from "${REPO_ROOT}/mod.ts";
export default await createApp({ root: import.meta.dirname!, database: ":memory:" });
`,
    "deno.json": JSON.stringify({
      imports: {
        kysely: "npm:kysely@^0.28.2",
        nodemailer: "npm:nodemailer@^7.0.9",
        pg: "npm:pg@^8.16.0",
        sharp: "npm:sharp@^0.35.5",
      },
    }),
    ...files,
  };
  for (const [file, content] of Object.entries(all)) {
    await Deno.mkdir(`${root}/${file}`.replace(/\/[^/]+$/, ""), {
      recursive: true,
    });
    await Deno.writeTextFile(`${root}/${file}`, content);
  }
  return root;
}

/** Runs `strata dev` on `root`; output lines are collected as they come. */
function startDev(root: string, port: number, extra: string[] = []) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "dev", root, "--port", String(port), ...extra],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (output += chunk) }),
    ).catch(() => {});
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const deadline = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return {
    output: () => output,
    async waitFor(pattern: RegExp, ms = 30_000): Promise<void> {
      for (let waited = 0; !pattern.test(output); waited += 100) {
        if (waited > ms) throw new Error(`No ${pattern} in: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async get(path: string): Promise<{ status: number; text: string }> {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: response.status, text: await response.text() };
    },
    async stop(): Promise<void> {
      clearTimeout(deadline);
      child.kill("SIGINT");
      const stopped = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 15_000)),
      ]);
      if (!stopped) child.kill("SIGKILL");
      await child.status;
      await drained;
    },
  };
}

async function eventually(
  check: () => Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  for (let waited = 0;; waited += 200) {
    try {
      if (await check()) return;
    } catch { /* not up yet */ }
    if (waited > ms) throw new Error("Timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

Deno.test("strata dev restarts when a route file is added, and logs each request", async () => {
  const root = await devApp({
    "api/index.get.ts": `export default () => ({ dev: true });\n`,
  });
  const port = freePort();
  const dev = startDev(root, port);
  try {
    await dev.waitFor(/Strata dev server: http:\/\/127\.0\.0\.1:\d+\//);
    assert.equal((await dev.get("/added")).status, 404);
    await Deno.writeTextFile(
      `${root}/api/added.get.ts`,
      `export default () => ({ added: true });\n`,
    );
    await eventually(async () => (await dev.get("/added")).status === 200);
    assert.equal((await dev.get("/added")).text, '{"added":true}');
    await dev.waitFor(/GET \/added 200 \d+(\.\d+)?ms/);
    // The boot log names the database in use.
    await dev.waitFor(/Strata: \d+ routes, sqlite database :memory:/);
  } finally {
    await dev.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("strata dev does not claim to serve a failed boot, and recovers when the missing file is added", async () => {
  const root = await devApp({
    "api/secret.get.ts": `import { defineHandler } from "${REPO_ROOT}/mod.ts";
export default defineHandler(() => ({ ok: true }), { middleware: ["gate"] });
`,
    "middleware/other.ts":
      `import { defineMiddleware } from "${REPO_ROOT}/mod.ts";
export default defineMiddleware(() => {});
`,
  });
  const port = freePort();
  // `--host` as the usage text documents it (it used to be refused as an unknown option).
  const dev = startDev(root, port, ["--host", "127.0.0.1"]);
  try {
    await dev.waitFor(/middleware "gate" is not defined/);
    // Whatever was printed up to the fix must not claim a server; the claim comes after it.
    const beforeFix = dev.output().length;
    await Deno.writeTextFile(
      `${root}/middleware/gate.ts`,
      `import { defineMiddleware } from "${REPO_ROOT}/mod.ts";
export default defineMiddleware(() => {});
`,
    );
    await eventually(async () => (await dev.get("/secret")).status === 200);
    await dev.waitFor(/Strata dev server:/);
    assert.ok(
      dev.output().indexOf("Strata dev server:") >= beforeFix,
      dev.output(),
    );
  } finally {
    await dev.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("strata dev on a port in use says which port and how to pick another", async () => {
  const root = await devApp();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  try {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "dev", root, "--port", String(port)],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stderr);
    assert.equal(code, 1);
    assert.match(
      text,
      new RegExp(
        `Port ${port} is already in use on 127\\.0\\.0\\.1: .*--port ${
          port + 1
        }`,
      ),
    );
  } finally {
    listener.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("strata dev restarts when one of the app's folders is created", async () => {
  const root = await devApp({
    "api/secret.get.ts": `import { defineHandler } from "${REPO_ROOT}/mod.ts";
export default defineHandler(() => ({ ok: true }), { middleware: ["gate"] });
`,
  });
  const port = freePort();
  // `--host` as the usage text documents it (it used to be refused as an unknown option).
  const dev = startDev(root, port, ["--host", "127.0.0.1"]);
  try {
    await dev.waitFor(/middleware "gate" is not defined/);
    // No middleware/ folder existed when the server started.
    await Deno.mkdir(`${root}/middleware`);
    await Deno.writeTextFile(
      `${root}/middleware/gate.ts`,
      `import { defineMiddleware } from "${REPO_ROOT}/mod.ts";
export default defineMiddleware(() => {});
`,
    );
    await eventually(async () => (await dev.get("/secret")).status === 200);
  } finally {
    await dev.stop();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("the example's and a new app's dev tasks run strata dev, so folders created later are watched", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(`${REPO_ROOT}/deno.json`),
  );
  assert.equal(config.tasks.dev, "deno run -A cli/mod.ts dev examples/blog");
  const app = JSON.parse(
    appFiles("my-app", { "@strata/strata/": "../strata/" })["deno.json"],
  );
  assert.equal(app.tasks.dev, "deno run -A @strata/strata/cli dev");
});

Deno.test("strata dev rewrites strata.gen.ts when collections are added or removed", async () => {
  const collection =
    `import { defineCollection, field } from "${REPO_ROOT}/mod.ts";
export default defineCollection({ fields: { name: field("text") } });
`;
  const root = await devApp({
    "strata.config.ts": "export default {};\n",
    "collections/Notes.ts": collection,
  });
  const port = freePort();
  const dev = startDev(root, port);
  const registry = async () => {
    try {
      return await Deno.readTextFile(`${root}/strata.gen.ts`);
    } catch {
      return "";
    }
  };
  try {
    await eventually(async () =>
      /\bNotes: typeof import/.test(await registry())
    );
    await Deno.writeTextFile(`${root}/collections/Tasks.ts`, collection);
    await eventually(async () =>
      /\bTasks: typeof import/.test(await registry())
    );
    await Deno.remove(`${root}/collections/Notes.ts`);
    await eventually(async () => !/\bNotes:/.test(await registry()));
    assert.match(await registry(), /\bTasks: typeof import/);
  } finally {
    await dev.stop();
    await Deno.remove(root, { recursive: true });
  }
});
