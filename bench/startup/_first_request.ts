// One fresh process: imports Strata, boots the app in a folder, serves one request and prints
// as JSON the ms since the process started (`firstMs`), from the moment Strata was imported
// (`appMs`) and the phases. The Hono peer's generated main.ts prints the first two alike.
// Usage: deno run -A _first_request.ts <app folder> <path>
const [root, path] = Deno.args;
const t0 = performance.now();
const { createApp } = await import("../../mod.ts");
const t1 = performance.now();
const app = await createApp({ root, database: ":memory:" });
const t2 = performance.now();
const response = await app.fetch(new Request(`http://localhost${path}`));
const body = await response.json();
const firstMs = performance.now();
if (response.status !== 200 || body.params.path !== "a/b.txt") {
  throw new Error(`The first request answered ${response.status}`);
}
await app.close();
console.log(JSON.stringify({
  firstMs,
  appMs: firstMs - t1,
  runtimeMs: t0,
  importMs: t1 - t0,
  bootMs: t2 - t1,
  requestMs: firstMs - t2,
}));
