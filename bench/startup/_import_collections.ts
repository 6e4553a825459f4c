// One fresh process: imports Strata, then times importing the collection definition modules
// of an app folder alone (what createApp does before it opens the database). Prints
// `{ importMs, modules }` as JSON.
// Usage: deno run -A _import_collections.ts <app folder>
import "../../mod.ts";

const [root] = Deno.args;
const files = [...Deno.readDirSync(`${root}/collections`)]
  .filter((entry) => entry.isFile && entry.name.endsWith(".ts"))
  .map((entry) => new URL(`file://${root}/collections/${entry.name}`).href);
const started = performance.now();
for (const file of files) await import(file);
const importMs = performance.now() - started;
console.log(JSON.stringify({ importMs, modules: files.length }));
