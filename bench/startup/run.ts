// `deno run -A bench/startup/run.ts`: the startup benchmark on its own.
import { runStartupBench } from "./mod.ts";

await runStartupBench();
