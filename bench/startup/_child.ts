// One fresh process: imports Strata, boots the app once on a fresh in-memory database and
// prints the timings as JSON. Usage: deno run -A _child.ts <app folder>
const [root] = Deno.args;
const t0 = performance.now();
const { createApp } = await import("../../mod.ts");
const t1 = performance.now();
const app = await createApp({ root, database: ":memory:" });
const t2 = performance.now();
const routes = app.routes.length;
await app.close();
console.log(JSON.stringify({ importMs: t1 - t0, bootMs: t2 - t1, routes }));
