// One fresh process: imports Strata, boots the app once on a fresh in-memory database and
// prints the timings as JSON. Usage: deno run -A _child.ts <app folder> [--barrel]
//
// --barrel first imports every module of the app through one generated module (a data: URL
// that re-exports them all), then boots. Deno walks the static import graph once per dynamic
// import, so 200 route files that each import Strata cost 200 walks of Strata's graph; one
// barrel costs one. The row shows what createApp would cost if it loaded a folder that way.
import { pathToFileURL } from "node:url";

async function moduleFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) files.push(...await moduleFiles(path));
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return files;
}

async function importThroughBarrel(root: string): Promise<void> {
  const files = [
    `${root}/strata.config.ts`,
    ...(await Promise.all(
      ["api", "collections", "middleware", "roles", "hooks"].map((dir) =>
        moduleFiles(`${root}/${dir}`)
      ),
    )).flat(),
  ];
  const source = files.map((file, i) =>
    `export * as m${i} from ${JSON.stringify(pathToFileURL(file).href)};`
  ).join("\n");
  await import(`data:application/javascript;base64,${btoa(source)}`);
}

const [root, flag] = Deno.args;
const t0 = performance.now();
const { createApp } = await import("../../mod.ts");
const t1 = performance.now();
if (flag === "--barrel") await importThroughBarrel(root);
const app = await createApp({ root, database: ":memory:" });
const t2 = performance.now();
const routes = app.routes.length;
await app.close();
console.log(JSON.stringify({ importMs: t1 - t0, bootMs: t2 - t1, routes }));
