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
  const timer = setInterval(tick, ms);
  Deno.unrefTimer(timer as unknown as number);
  return timer;
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
  const timer = setTimeout(run, ms);
  Deno.unrefTimer(timer as unknown as number);
  return timer;
}
