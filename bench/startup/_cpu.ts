// CPU time of this process, for the startup children: on a machine shared with other work the
// clock counts the time others ran too; CPU time mostly does not.
import process from "node:process";

/**
 * Milliseconds of CPU (user + system, every thread of the process) since `start`, a value
 * of `process.cpuUsage()`.
 *
 * @example
 * ```ts ignore
 * const start = process.cpuUsage();
 * await work();
 * console.log(cpuMsSince(start));
 * ```
 */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
