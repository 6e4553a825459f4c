// Background work (workers, sweepers, pollers) ticks on intervals that never keep the process
// alive: on SIGTERM `deno serve` shuts its server down and exits once nothing else is pending,
// so a referenced interval would keep a stopped app's process running until it is killed.

/**
 * `setInterval` whose timer does not keep the process alive.
 *
 * @example
 * ```ts
 * import { backgroundInterval } from "./_background_interval.ts";
 * const timer = backgroundInterval(() => console.log("tick"), 1000);
 * clearInterval(timer);
 * ```
 */
export function backgroundInterval(
  tick: () => void,
  ms: number,
): ReturnType<typeof setInterval> {
  return unref(setInterval(tick, ms));
}

/**
 * `setTimeout` whose timer does not keep the process alive.
 *
 * @example
 * ```ts
 * import { backgroundTimeout } from "./_background_interval.ts";
 * const timer = backgroundTimeout(() => console.log("later"), 1000);
 * clearTimeout(timer);
 * ```
 */
export function backgroundTimeout(
  run: () => void,
  ms: number,
): ReturnType<typeof setTimeout> {
  return unref(setTimeout(run, ms));
}

function unref<T>(timer: T): T {
  Deno.unrefTimer(timer as unknown as number);
  return timer;
}
