import assert from "node:assert/strict";
import { getPriority } from "node:os";

// Runs a snippet in a fresh process and reports the scheduling priority (nice) of each of its
// threads afterwards, from Linux's /proc: a fresh process has no threads of other tests.

/** The nice value of every thread of the process that ran `code`, main thread first. */
export interface ThreadPriorities {
  readonly main: number;
  /** The other threads' nice values, in thread id order. */
  readonly others: readonly number[];
}

// Defines reportThreads(), which the snippet calls once its threads are up.
const REPORT = `
function reportThreads() {
  const nice = (tid) => {
    const stat = Deno.readTextFileSync("/proc/" + Deno.pid + "/task/" + tid + "/stat");
    // Fields after the parenthesised name; nice is the 19th field of the line.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  };
  const tids = [...Deno.readDirSync("/proc/" + Deno.pid + "/task")]
    .map((t) => Number(t.name)).sort((a, b) => a - b);
  console.log(JSON.stringify({
    main: nice(Deno.pid),
    others: tids.filter((tid) => tid !== Deno.pid).map(nice),
  }));
}
`;

/**
 * Runs the module source `code` (it may import by absolute URL and use top-level await) in a
 * fresh `deno eval` process; `code` calls `reportThreads()` once the threads to look at run.
 * The process must exit on its own: nothing it started may keep it alive.
 */
export async function threadPrioritiesAfter(
  code: string,
): Promise<ThreadPriorities> {
  const { code: status, stdout, stderr } = await new Deno.Command(
    Deno.execPath(),
    {
      args: ["eval", "--ext=ts", REPORT + code],
      stdout: "piped",
      stderr: "piped",
    },
  ).output();
  const text = new TextDecoder().decode(stdout).trim();
  if (status !== 0) {
    throw new Error(
      `The snippet failed (${status}): ${new TextDecoder().decode(stderr)}`,
    );
  }
  return JSON.parse(text.split("\n").at(-1)!);
}

/**
 * Fails unless the snippet's main thread kept this process's priority (the child inherits
 * it: CI may run under `nice`) and exactly one other thread runs 10 steps nicer (at most 19).
 */
export function assertOneBackgroundThread(threads: ThreadPriorities): void {
  const own = getPriority();
  assert.equal(threads.main, own);
  assert.deepEqual(
    threads.others.filter((nice) => nice !== own),
    [Math.min(19, own + 10)],
    "exactly one thread 10 steps nicer than the event loop",
  );
}
