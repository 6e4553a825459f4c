// `deno run -A bench/startup/run.ts`: the startup benchmark on its own.
import { printReport } from "../_report.ts";
import { startupBench } from "./mod.ts";

printReport(await startupBench());
