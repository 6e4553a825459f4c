// The files `strata new` writes. Kept as plain strings so the CLI works when Strata is imported
// from a URL (it can never read its own files).
import { typesFileText } from "../app/types_file.ts";
import { AUTH_COLLECTION_TYPES } from "../auth/layer.ts";

/** File path (relative to the app folder) → content. */
export type AppFiles = Record<string, string>;

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Every file of a new app named `name` whose `deno.json` carries `imports`. */
export function appFiles(
  name: string,
  imports: Readonly<Record<string, string>>,
): AppFiles {
  return {
    "deno.json": json({
      tasks: {
        // `strata dev`: 127.0.0.1 only; restarts when a file is added or removed in the app's
        // folders, or one of them is created; keeps strata.gen.ts in step with collections/.
        dev: "deno run -A @strata/strata/cli dev",
        start: "deno serve -A main.ts",
        test: "deno test -A",
        check: "deno check .",
        types: "deno run -A @strata/strata/cli types",
      },
      imports,
    }),
    ".gitignore": ".data/\nnode_modules/\n",
    "README.md": readme(name),
    "strata.config.ts": `import { defineConfig } from "@strata/strata";
import { authLayer } from "@strata/strata/auth";

export default defineConfig({
  // The auth layer adds Users, Sessions, the /auth endpoints and the dashboard.
  layers: [authLayer()],
});
`,
    "main.ts": `// Serve with \`deno task dev\` (watch) or \`deno task start\`.
import { createApp } from "@strata/strata";
import { formatRoutes } from "@strata/strata/cli";
// The registry of typed collections (\`deno task types\` writes it; dev keeps it current).
import type {} from "./strata.gen.ts";

const root = import.meta.dirname!;
const app = await createApp({ root });

export default {
  fetch: app.fetch,
  onListen({ hostname, port }: Deno.NetAddr) {
    const host = hostname === "0.0.0.0" ? "localhost" : hostname;
    console.log(formatRoutes(app.routes, root));
    console.log(\`\\n${name} is listening on http://\${host}:\${port}/\`);
  },
};
`,
    "strata.gen.ts": typesFileText(
      [
        {
          name: "Notes",
          type: 'typeof import("./collections/Notes.ts").default',
        },
        ...Object.entries(AUTH_COLLECTION_TYPES).map(([name, type]) => ({
          name,
          type,
        })),
      ].sort((a, b) => a.name < b.name ? -1 : 1),
    ),
    "api/index.get.ts": `// GET /
import { defineHandler, query } from "@strata/strata";

export default defineHandler(async () => ({
  app: ${JSON.stringify(name)},
  notes: await query("Notes").count(),
}));
`,
    "collections/Notes.ts":
      `// Served under /collections/notes: anyone reads, signed-in users with the
// collection.Notes.* capabilities (the admin) write.
import { defineCollection, field } from "@strata/strata";

export default defineCollection({
  fields: {
    title: field("text", { max: 200 }),
    body: field("text", { allowEmpty: true, default: "" }),
    done: field("boolean", { default: false }),
  },
  api: { read: "public", create: true, update: true, delete: true },
});
`,
    "tests/app_test.ts": `import assert from "node:assert/strict";
import { createTestApp } from "@strata/strata/testing";

const root = new URL("../", import.meta.url);
const json = { "content-type": "application/json" };

Deno.test("GET / names the app", async () => {
  const app = await createTestApp({ root });
  try {
    const response = await app.request("/");
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { app: ${
      JSON.stringify(name)
    }, notes: 0 });
  } finally {
    await app.close();
  }
});

Deno.test("notes: anyone reads, the admin writes", async () => {
  const app = await createTestApp({ root });
  try {
    const anonymous = await app.request("/collections/notes", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ title: "Nope" }),
    });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();

    const credentials = { email: "admin@example.com", password: "correct horse" };
    const install = await app.request("/auth/install", {
      method: "POST",
      headers: json,
      body: JSON.stringify(credentials),
    });
    assert.equal(install.status, 200);
    await install.body?.cancel();

    const admin = await app.signIn(credentials.email, credentials.password);
    const created = await admin.request("/collections/notes", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ title: "First note" }),
    });
    assert.equal(created.status, 201);
    assert.equal((await created.json()).title, "First note");

    const list = await app.request("/collections/notes");
    assert.deepEqual(
      (await list.json()).map((note: { title: string }) => note.title),
      ["First note"],
    );
  } finally {
    await app.close();
  }
});
`,
  };
}

function readme(name: string): string {
  return `# ${name}

A [Strata](https://jsr.io/@strata/strata) app.

\`\`\`sh
deno task dev    # serve on http://localhost:8000 and restart on changes
deno task test   # run the tests
deno task start  # serve without watching
deno task check  # type-check the app
deno task types  # rewrite strata.gen.ts (dev does it when collections change)
\`\`\`

- \`api/\`: one file per route (\`api/index.get.ts\` answers \`GET /\`).
- \`collections/\`: collection definitions; \`Notes\` is served under \`/collections/notes\`.
- \`strata.config.ts\`: the config; the auth layer adds \`/auth\` and the dashboard.
- \`strata.gen.ts\`: generated; types \`query("Notes")\` by the app's collections.
- Open \`/dashboard\` to create the first administrator.
`;
}
