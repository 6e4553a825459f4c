// One fresh process: imports Strata, then times what createApp does first on an app folder:
// loading the folder (its collection definition modules imported in one batch, each
// checked). Prints `{ importMs, modules }` as JSON.
// Usage: deno run -A _import_collections.ts <app folder>
// The framework is loaded before the clock, as it is before createApp's.
import "../../mod.ts";
import { loadFolderLayer } from "../../app/load_folder.ts";

const [root] = Deno.args;
const started = performance.now();
const layer = await loadFolderLayer(root);
const importMs = performance.now() - started;
console.log(
  JSON.stringify({
    importMs,
    modules: Object.keys(layer.collections ?? {}).length,
  }),
);
